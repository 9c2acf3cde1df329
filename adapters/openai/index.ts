/** @module agent-toolbelt/openai: OpenAI function specs and a dispatcher for Chat Completions and the Responses API, with no dependency on the `openai` package. */
import { assertCollections } from '../../src/argument-checks.js';
import {
  assertApprovalMode,
  assertApprovalOverrides,
  assertCallRecordingOptions,
  collectContext,
  collectInstructions,
  collectTools,
  nativeInstructions,
  nativeTools,
  toolsWithNative,
  createSession,
  recordingOptions,
  Session,
  withBackground,
  type ToolCollection,
} from '../../src/index.js';
import { dispatchCalls, resolvePendingCalls, type DispatchContext, type ModelCall } from './dispatcher.js';
import { toChatMessages, toResponsesItems } from './messages.js';
import { fromNativeItem, nativeOutputItem, nativeToolSpec } from './native-items.js';
import { apiTool, functionSpec } from './specs.js';
import type {
  ChatToolCall,
  HandledToolCalls,
  OpenAIApi,
  OpenAIToolbelt,
  ResponsesFunctionCall,
  ToOpenAIOptions,
  ToolCallOutcome,
} from './types.js';

/**
 * Hands collections to OpenAI function calling: `tools` for the request, `handleToolCalls`
 * to run what the model called and get the messages (chat) or input items (responses) to
 * send back, `contextMessage()` to append last before each call, and `instructions` for the
 * system prompt. Every call goes through the core's `runTool`.
 *
 * @example
 * const belt = toOpenAI([files, shell], { api: 'chat', session });
 * const completion = await client.chat.completions.create({ model, messages, tools: belt.tools });
 * const { messages: results } = await belt.handleToolCalls(completion.choices[0].message.tool_calls);
 */
export function toOpenAI<Api extends OpenAIApi, Native extends boolean = false>(collections: readonly ToolCollection[], options: ToOpenAIOptions<Api, Native>): OpenAIToolbelt<Api, Native> {
  assertCollections(collections, 'toOpenAI');
  const api = validateOptions(options);
  const session = options.session ?? createSession();
  const all = options.background === undefined ? collections : withBackground(collections, { tools: options.background });
  const native = options.native === true ? nativeTools(all, 'openai') : undefined;
  const tools = native === undefined ? collectTools(all) : toolsWithNative(collectTools(all), native);
  assertApprovalOverrides(options.needsApproval, tools.keys());
  const specs = [...tools.values()].filter((tool) => !native?.tools.has(tool.name)).map((tool) => functionSpec(tool, options.strict ?? true));
  const schemas = new Map(specs.map((spec) => [spec.name, spec.looseSchema]));
  const isNative = (name: string) => native?.tools.has(name) ?? false;
  const format = (outcomes: readonly ToolCallOutcome[]): unknown[] =>
    api === 'chat'
      ? toChatMessages(outcomes)
      : outcomes.flatMap((outcome): unknown[] => (outcome.result !== undefined && isNative(outcome.toolName) ? [nativeOutputItem({ ...outcome, result: outcome.result })] : toResponsesItems([outcome])));
  const context = (signal?: AbortSignal): DispatchContext => ({
    tools,
    schemas,
    session,
    onApproval: options.onApproval,
    mode: options.mode,
    needsApproval: options.needsApproval,
    signal,
    onProgress: options.onProgress,
    ...recordingOptions(options),
  });

  const belt = {
    tools: [...specs.map((spec) => apiTool(spec, api)), ...[...(native?.tools.keys() ?? [])].map(nativeToolSpec)],
    instructions: native === undefined ? collectInstructions(all) : nativeInstructions(all, 'openai'),
    session,
    async handleToolCalls(calls: readonly (ChatToolCall | ResponsesFunctionCall)[] | null | undefined, callOptions: { signal?: AbortSignal } = {}) {
      const modelCalls = api === 'chat' ? fromChat((calls ?? []) as readonly ChatToolCall[]) : fromResponses((calls ?? []) as readonly ResponsesFunctionCall[], native !== undefined);
      const { outcomes, pending } = await dispatchCalls(modelCalls, context(callOptions.signal));
      return { messages: format(outcomes), pending, outcomes };
    },
    async resolvePending(handled: HandledToolCalls<unknown>, answers: Record<string, unknown>, callOptions: { signal?: AbortSignal } = {}) {
      const { outcomes, pending } = await resolvePendingCalls(handled.outcomes, handled.pending, answers, context(callOptions.signal));
      return { messages: format(outcomes), pending, outcomes };
    },
    async contextMessage() {
      const text = await collectContext(all, session);
      return text === undefined ? null : { role: options.contextRole ?? 'user', content: `<context>\n${text}\n</context>` };
    },
  };
  return belt as unknown as OpenAIToolbelt<Api, Native>;
}

function validateOptions(options: ToOpenAIOptions<OpenAIApi, boolean>): OpenAIApi {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError("Expected an options object with `api: 'chat'` or `api: 'responses'`.");
  }
  if (options.api !== 'chat' && options.api !== 'responses') {
    throw new TypeError(`Expected the \`api\` option to be 'chat' or 'responses', got \`${String(options.api)}\`.`);
  }
  if (options.strict !== undefined && typeof options.strict !== 'boolean') {
    throw new TypeError(`Expected the \`strict\` option to be a boolean, got \`${String(options.strict)}\` (${typeof options.strict}).`);
  }
  if (options.session !== undefined && !(options.session instanceof Session)) {
    throw new TypeError('Expected the `session` option to be a Session from `createSession()` or `restoreSession()`.');
  }
  if (options.onApproval !== undefined && typeof options.onApproval !== 'function') {
    throw new TypeError(`Expected the \`onApproval\` option to be a function, got \`${String(options.onApproval)}\` (${typeof options.onApproval}).`);
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new TypeError(`Expected the \`onProgress\` option to be a function, got \`${String(options.onProgress)}\` (${typeof options.onProgress}).`);
  }
  if (options.contextRole !== undefined && options.contextRole !== 'user' && options.contextRole !== 'developer') {
    throw new TypeError(`Expected the \`contextRole\` option to be 'user' or 'developer', got \`${String(options.contextRole)}\`.`);
  }
  if (options.background !== undefined && (!Array.isArray(options.background) || options.background.some((name) => typeof name !== 'string'))) {
    throw new TypeError(`Expected the \`background\` option to be an array of tool names, got \`${JSON.stringify(options.background)}\`.`);
  }
  if (options.native !== undefined && typeof options.native !== 'boolean') {
    throw new TypeError(`Expected the \`native\` option to be a boolean, got \`${String(options.native)}\` (${typeof options.native}).`);
  }
  if (options.native === true && options.background?.includes('run_shell')) {
    throw new TypeError("The `native` option offers run_shell as the Responses API's shell tool, which has no background jobs: leave `run_shell` out of `background`, or leave `native` out.");
  }
  if (options.native === true && options.api !== 'responses') {
    throw new TypeError("The `native` option offers the Responses API's own apply_patch and shell tools, which Chat Completions does not have: use `api: 'responses'` with it, or leave `native` out.");
  }
  assertApprovalMode(options.mode);
  assertCallRecordingOptions(options, 'toOpenAI');
  return options.api;
}

/** Chat `tool_calls`; a call that is not a function call is answered with an error by name. */
function fromChat(calls: readonly ChatToolCall[]): ModelCall[] {
  return calls.map((call) => ({
    callId: call.id,
    name: call.function?.name ?? `(${call.type ?? 'unknown'} call)`,
    arguments: argumentsText(call.function?.arguments),
  }));
}

/** `function_call` items of a Responses output, and with `native` its `apply_patch_call` and `shell_call` items; messages, reasoning and other items are skipped. */
function fromResponses(items: readonly ResponsesFunctionCall[], native: boolean): ModelCall[] {
  return items.flatMap((item): ModelCall[] => {
    if (item.type === 'function_call') return [{ callId: String(item.call_id ?? ''), name: String(item.name ?? ''), arguments: argumentsText(item.arguments) }];
    const call = native ? fromNativeItem(item) : undefined;
    return call === undefined ? [] : [call];
  });
}

/**
 * The call's arguments as JSON text. Some OpenAI-compatible servers send them already parsed
 * (an object) or as `null` for a function without parameters; those are read too, so
 * nothing a server sends makes `handleToolCalls` throw.
 */
function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return value === undefined || value === null ? '' : String(value);
}

export { OPENAI_FUNCTION_NAME_PATTERN } from './specs.js';
export { dropNullOptionals, toFunctionParameters, toLooseParameters } from './strict-schema.js';
export type { FunctionParameters, JsonSchema } from './strict-schema.js';
export type {
  ApplyPatchCallOutputItem,
  ChatFunctionTool,
  ChatResultMessage,
  ChatToolCall,
  FunctionCallOutputItem,
  HandledToolCalls,
  OpenAIApi,
  OpenAIToolbelt,
  PendingAnswers,
  PendingToolCall,
  ResponsesFunctionCall,
  ResponsesFunctionTool,
  ResponsesNativeTool,
  ResponsesResultItem,
  ShellCallOutputItem,
  ToOpenAIOptions,
  ToolCallOutcome,
} from './types.js';
export { openaiVision } from './vision.js';
export type { OpenAIChatClient } from './vision.js';
