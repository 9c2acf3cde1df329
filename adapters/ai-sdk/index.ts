/** @module agent-toolbelt/ai-sdk: the toolbelt's tools, approvals and context for the Vercel AI SDK (ai v6 and v7). */
import { assertCollections } from '../../src/argument-checks.js';
import { dropNullOptionals } from '../../src/strict-schema.js';
import type { LanguageModelMiddleware, Tool } from 'ai';
import {
  assertApprovalMode,
  assertApprovalOverrides,
  assertCallRecordingOptions,
  collectInstructions,
  collectTools,
  Session,
  nativeInstructions,
  toolsWithNative,
  withBackground,
  type ApprovalMode,
  type ApprovalOverrides,
  type ApproveFunction,
  type BackgroundOptions,
  type CallRecordingOptions,
  type ToolCollection,
} from '../../src/index.js';
import { createToolApproval, type AiSdkToolApproval } from './approval.js';
import { createContextMiddleware } from './middleware.js';
import { aiSdkNativeTools, type AiSdkNativeOption } from './native-tools.js';
import { strictSchemas, strictTransform, withNullsDropped, type AiSdkStrictOption } from './strict.js';
import { toAiSdkTool, type AiSdkToolOutput } from './tools.js';

export { APPROVE_ALWAYS_REASON } from './approval.js';
export type { AiSdkApprovalStatus, AiSdkToolApproval } from './approval.js';
export type { AiSdkToolOutput, AiSdkToolProgress } from './tools.js';
export { aiSdkVision } from './vision.js';
export type { AiSdkNativeOption, AnthropicToolFactories, OpenAIToolFactories } from './native-tools.js';
export type { AiSdkStrictOption } from './strict.js';

/** How {@link toAiSdk} hands the collections to the AI SDK. */
export interface AiSdkOptions extends CallRecordingOptions {
  /** The conversation's state: task list, undo record, "always" approvals, background jobs. */
  readonly session: Session;
  /**
   * Asks a person inside `execute` and waits for the answer (terminal apps). Without it the
   * SDK's own approval flow asks: `tool-approval-request` parts, `addToolApprovalResponse`.
   */
  readonly onApproval?: ApproveFunction;
  /** @default 'ask' */
  readonly mode?: ApprovalMode;
  /** Per-tool overrides of the approval default, by tool name. */
  readonly needsApproval?: ApprovalOverrides;
  /**
   * Tools the model may start as background jobs (`['run_shell']`), or the full options of
   * the core's `withBackground`. Adds `run_in_background` to those tools and the `job_output`,
   * `job_stop` and `job_list` tools; finished jobs are announced through the middleware.
   * @default none
   */
  readonly background?: readonly string[] | BackgroundOptions;
  /**
   * Send the files and shell collections as the provider's own tools, run by the same rules:
   * `{ anthropic: anthropic.tools }` (from `@ai-sdk/anthropic`) for Claude's text editor and
   * bash, `{ openai: openai.tools }` (from `@ai-sdk/openai`) for the Responses API's
   * `apply_patch` and `shell`. The factories are passed in, so this adapter imports neither
   * provider. The tools they replace are left out of `tools`.
   * @default none
   */
  readonly native?: AiSdkNativeOption;
  /**
   * Send OpenAI strict-mode schemas (every field required, optional ones nullable, no extra
   * properties) with `strict: true`, so OpenAI models always send arguments that match; the
   * nulls for left-out fields are dropped before the core parses them. `'auto'` does it for
   * OpenAI models only (the model's provider id starts with `openai`), `true` for every model,
   * `false` never. Works through `belt.middleware`, so wrap the model with it.
   * @default 'auto'
   */
  readonly strict?: AiSdkStrictOption;
}

/** What {@link toAiSdk} returns: everything a `generateText`, `streamText` or `ToolLoopAgent` call needs. */
export interface AiSdkToolbelt {
  /** A ToolSet keyed by tool name; each tool returns an {@link AiSdkToolOutput} (client-answered tools have no `execute`). */
  readonly tools: Record<string, Tool<any, any>>;
  /** For `wrapLanguageModel({ model, middleware })`: the context message and the denial wording. */
  readonly middleware: LanguageModelMiddleware;
  /** The collections' instructions, for `system` / `instructions`. */
  readonly instructions: string;
  /** ai v7's `toolApproval` setting for the same tools (empty with `onApproval`). */
  readonly toolApproval: AiSdkToolApproval;
}

/**
 * Hands toolbelt collections to the Vercel AI SDK. Every call goes through the core's
 * `runTool` with the session, the tool call id and the abort signal; the model reads the
 * result's `text`, user interfaces get the whole {@link AiSdkToolOutput}.
 *
 * Calls that need approval are asked through the SDK's flow (`needsApproval` on each tool,
 * honoured by ai v6 and v7, plus `toolApproval` for v7), or through `onApproval` when given.
 * Policy refusals and plan mode refuse without asking.
 *
 * @example
 * const belt = toAiSdk([files, shell, tasks], { session });
 * const model = wrapLanguageModel({ model: openai('gpt-5.1'), middleware: belt.middleware });
 * await generateText({ model, system: belt.instructions, tools: belt.tools, prompt, stopWhen: stepCountIs(20) });
 */
export function toAiSdk(collections: readonly ToolCollection[], options: AiSdkOptions): AiSdkToolbelt {
  assertCollections(collections, 'toAiSdk');
  const settings = validateOptions(collections, options);
  if (options.native !== undefined && backgroundToolNames(options.background).includes('run_shell')) {
    throw new TypeError("The `native` option offers run_shell as the provider's own shell tool, which has no background jobs: leave `run_shell` out of `background`, or leave `native` out.");
  }
  const all = withBackgroundTools(collections, options.background);
  const definitions = collectTools(all);
  const native = options.native === undefined ? undefined : aiSdkNativeTools(all, options.native, settings);
  const offered = native === undefined ? definitions : toolsWithNative(definitions, native.native);
  assertApprovalOverrides(options.needsApproval, offered.keys());
  const schemas = strictSchemas(new Map([...offered].filter(([name]) => native?.tools[name] === undefined)));
  const tools: Record<string, Tool<any, any>> = {};
  for (const [name, tool] of offered) tools[name] = native?.tools[name] ?? withNullsDropped(toAiSdkTool(tool, settings), schemas.loose.get(name)!);
  // The OpenAI shell's input is in the SDK's own field names, which the core tool does not read; its tool carries needsApproval.
  const approvable = new Map([...offered].filter(([name]) => !(name === 'shell' && native?.native.tools.has(name))));
  const context = createContextMiddleware(all, settings.session, new Set(offered.keys()));
  const strict = strictTransform(schemas, options.strict ?? 'auto');
  const toolApproval = Object.fromEntries(
    Object.entries(createToolApproval(approvable, settings)).map(([name, decide]) => {
      const loose = schemas.loose.get(name);
      return [name, loose === undefined ? decide : (input: unknown, approvalOptions: { toolCallId: string }) => decide(dropNullOptionals(input, loose), approvalOptions)];
    }),
  );
  return {
    tools,
    middleware: { ...context, transformParams: async (transform) => context.transformParams!({ ...transform, params: strict(transform) }) },
    instructions: native === undefined ? collectInstructions(all) : nativeInstructions(all, options.native!.anthropic === undefined ? 'openai' : 'anthropic'),
    toolApproval,
  };
}

/** The tool names the `background` option starts as jobs, whichever form it was given in. */
function backgroundToolNames(background: AiSdkOptions['background']): readonly string[] {
  if (Array.isArray(background)) return background;
  const tools = (background as BackgroundOptions | undefined)?.tools;
  return Array.isArray(tools) ? tools : [];
}

function withBackgroundTools(collections: readonly ToolCollection[], background: AiSdkOptions['background']): readonly ToolCollection[] {
  if (background === undefined) return collections;
  if (Array.isArray(background)) return withBackground(collections, { tools: background });
  if (typeof background !== 'object' || background === null) {
    throw new TypeError(
      `Expected the \`background\` option to be a list of tool names such as ['run_shell'] or withBackground() options, got \`${String(background)}\` (${typeof background}).`,
    );
  }
  return withBackground(collections, background as BackgroundOptions);
}

function validateOptions(collections: readonly ToolCollection[], options: AiSdkOptions): AiSdkOptions {
  if (!Array.isArray(collections)) {
    throw new TypeError(`Expected \`toAiSdk\` to get an array of tool collections, got \`${String(collections)}\` (${typeof collections}).`);
  }
  if (typeof options !== 'object' || options === null || !isSession(options.session)) {
    throw new TypeError('Expected the `session` option to be a Session from `createSession()` or `restoreSession()`.');
  }
  if (options.onApproval !== undefined && typeof options.onApproval !== 'function') {
    throw new TypeError(`Expected the \`onApproval\` option to be a function, got \`${String(options.onApproval)}\` (${typeof options.onApproval}).`);
  }
  if (options.strict !== undefined && typeof options.strict !== 'boolean' && options.strict !== 'auto') {
    throw new TypeError(`Expected the \`strict\` option to be true, false or 'auto', got \`${String(options.strict)}\` (${typeof options.strict}).`);
  }
  assertApprovalMode(options.mode);
  assertCallRecordingOptions(options, 'toAiSdk');
  return options;
}

/** A Session, also one from a second copy of this package (a bundler may load two). */
function isSession(value: unknown): value is Session {
  if (value instanceof Session) return true;
  const candidate = value as Partial<Session> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.state === 'function' && typeof candidate.isApproved === 'function' && typeof candidate.toJSON === 'function';
}
