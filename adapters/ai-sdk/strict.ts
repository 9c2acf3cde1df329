import type { LanguageModelMiddleware, Tool } from 'ai';
import type { ToolDefinition } from '../../src/index.js';
import { dropNullOptionals, toFunctionParameters, toLooseParameters, type JsonSchema } from '../../src/strict-schema.js';

type TransformParams = NonNullable<LanguageModelMiddleware['transformParams']>;
type TransformOptions = Parameters<TransformParams>[0];

/**
 * The `strict` option of `toAiSdk`: `'auto'` sends OpenAI-strict schemas to OpenAI models only
 * (told apart by the model's provider id, `openai.*`, so the adapter never imports
 * `@ai-sdk/openai`), `true` to every model, `false` to none.
 */
export type AiSdkStrictOption = boolean | 'auto';

/** The strict and loose schema of each tool whose input OpenAI's strict mode can express. */
export interface StrictSchemas {
  readonly strict: ReadonlyMap<string, JsonSchema>;
  readonly loose: ReadonlyMap<string, JsonSchema>;
}

/** Builds the schemas once, when `toAiSdk` is called. */
export function strictSchemas(definitions: ReadonlyMap<string, ToolDefinition<any>>): StrictSchemas {
  const strict = new Map<string, JsonSchema>();
  const loose = new Map<string, JsonSchema>();
  for (const [name, tool] of definitions) {
    loose.set(name, toLooseParameters(tool.input));
    const converted = toFunctionParameters(tool.input);
    if (converted.strict) strict.set(name, converted.parameters);
  }
  return { strict, loose };
}

/**
 * Before each model call, gives our function tools their strict schema and `strict: true`
 * (which `@ai-sdk/openai` sends as is; it sends `strict: false` otherwise), when `option` says
 * this model should get them. Tools strict mode cannot express keep their loose schema.
 */
export function strictTransform(schemas: StrictSchemas, option: AiSdkStrictOption): (options: TransformOptions) => TransformOptions['params'] {
  return ({ params, model }) => {
    const wanted = option === true || (option === 'auto' && /^openai(\.|$)/.test(model.provider));
    if (!wanted || params.tools === undefined) return params;
    return {
      ...params,
      tools: params.tools.map((tool) => {
        if (tool.type !== 'function') return tool;
        const strict = schemas.strict.get(tool.name);
        return strict === undefined ? tool : { ...tool, inputSchema: strict as never, strict: true };
      }),
    };
  };
}

/**
 * Wraps a converted tool so a strict-mode `null` for a left-out optional field is dropped
 * before the core parses the input (and its default applies). A `null` the loose schema does
 * not allow is never valid input, so this is safe for every provider.
 */
export function withNullsDropped(tool: Tool<any, any>, loose: JsonSchema): Tool<any, any> {
  const drop = (input: unknown) => dropNullOptionals(input, loose);
  const wrapped: Record<string, unknown> = { ...tool };
  if (typeof tool.execute === 'function') {
    const execute = tool.execute;
    wrapped.execute = (input: unknown, options: unknown) => execute(drop(input), options as never);
  }
  if (typeof tool.needsApproval === 'function') {
    const needsApproval = tool.needsApproval;
    wrapped.needsApproval = (input: unknown, options: unknown) => needsApproval(drop(input), options as never);
  }
  if (typeof tool.toModelOutput === 'function') {
    const toModelOutput = tool.toModelOutput;
    wrapped.toModelOutput = (options: { input: unknown }) => toModelOutput({ ...options, input: drop(options.input) } as never);
  }
  return wrapped as Tool<any, any>;
}
