import type { ToolDefinition } from '../../src/index.js';
import { toFunctionParameters, toLooseParameters, type JsonSchema } from './strict-schema.js';
import type { ChatFunctionTool, OpenAIApi, ResponsesFunctionTool } from './types.js';

/** Function names OpenAI accepts. */
export const OPENAI_FUNCTION_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** One tool's spec in both shapes, with the loose schema the dispatcher strips nulls with. */
export interface FunctionSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly strict: boolean;
  readonly looseSchema: JsonSchema;
}

/**
 * Builds a tool's function spec. With `strict`, a schema strict mode cannot express is sent
 * with `strict: false` and a warning naming the tool and the reason.
 */
export function functionSpec(tool: ToolDefinition<any>, strict: boolean, warn: (message: string) => void = console.warn): FunctionSpec {
  if (!OPENAI_FUNCTION_NAME_PATTERN.test(tool.name)) {
    throw new TypeError(`Expected the tool name \`${tool.name}\` to match ${OPENAI_FUNCTION_NAME_PATTERN} for OpenAI function calling.`);
  }
  const looseSchema = toLooseParameters(tool.input);
  if (!strict) return { name: tool.name, description: tool.description, parameters: looseSchema, strict: false, looseSchema };
  const converted = toFunctionParameters(tool.input);
  if (!converted.strict) {
    warn(`agent-toolbelt: the parameters of \`${tool.name}\` cannot be expressed in OpenAI strict mode (${converted.reason}), so it is sent with \`strict: false\`.`);
  }
  return { name: tool.name, description: tool.description, parameters: converted.parameters, strict: converted.strict, looseSchema };
}

/** The spec in the shape one API expects; `strict` is always sent explicitly. */
export function apiTool(spec: FunctionSpec, api: OpenAIApi): ChatFunctionTool | ResponsesFunctionTool {
  const fields = { name: spec.name, description: spec.description, parameters: spec.parameters, strict: spec.strict };
  return api === 'chat' ? { type: 'function', function: fields } : { type: 'function', ...fields };
}
