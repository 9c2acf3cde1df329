/** @module agent-toolbelt/anthropic: tools and a dispatcher for the Anthropic Messages API, Claude's text editor and bash included, with no dependency on `@anthropic-ai/sdk`. */
import { z } from 'zod';
import { assertCollections } from '../../src/argument-checks.js';
import {
  assertApprovalMode,
  assertApprovalOverrides,
  assertCallRecordingOptions,
  collectContext,
  collectInstructions,
  collectTools,
  createSession,
  dispatchToolCalls,
  nativeInstructions,
  nativeTools,
  recordingOptions,
  resolvePendingToolCalls,
  Session,
  toolsWithNative,
  withBackground,
  type CallOutcome,
  type DispatchOptions,
  type ModelToolCall,
  type ToolCollection,
  type ToolDefinition,
  type ToolResult,
} from '../../src/index.js';
import type {
  AnthropicContentBlock,
  AnthropicTool,
  AnthropicToolbelt,
  HandledToolUses,
  PendingAnswers,
  ToAnthropicOptions,
  ToolResultBlock,
} from './types.js';

/** Tool names the Messages API accepts. */
export const ANTHROPIC_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Hands collections to the Anthropic Messages API: `tools` for the request,
 * `handleToolUses` to run the `tool_use` blocks of Claude's reply and get the `tool_result`
 * blocks for the next user message, `contextBlock()` to put at the end of that message, and
 * `instructions` for the system prompt. With `native: true` the files and shell collections
 * are offered as Claude's own text editor and bash tools. Every call goes through the core's
 * `runTool`.
 *
 * @example
 * const belt = toAnthropic([files, shell], { session, native: true });
 * const reply = await client.messages.create({ model, max_tokens: 4096, system: belt.instructions, messages, tools: belt.tools });
 * const { content } = await belt.handleToolUses(reply.content);
 * messages.push({ role: 'assistant', content: reply.content }, { role: 'user', content });
 */
export function toAnthropic(collections: readonly ToolCollection[], options: ToAnthropicOptions = {}): AnthropicToolbelt {
  assertCollections(collections, 'toAnthropic');
  validateOptions(options);
  const session = options.session ?? createSession();
  const all = options.background === undefined ? collections : withBackground(collections, { tools: options.background });
  const functionTools = collectTools(all);
  const native = options.native === undefined || options.native === false
    ? undefined
    : nativeTools(all, 'anthropic', typeof options.native === 'object' && options.native.maxCharacters !== undefined ? { maxCharacters: options.native.maxCharacters } : {});
  const tools = native === undefined ? functionTools : toolsWithNative(functionTools, native);
  assertApprovalOverrides(options.needsApproval, tools.keys());
  const dispatch = (signal?: AbortSignal): DispatchOptions => ({
    tools,
    session,
    onApproval: options.onApproval,
    mode: options.mode,
    needsApproval: options.needsApproval,
    onProgress: options.onProgress,
    signal,
    ...recordingOptions(options),
  });
  const handled = ({ outcomes, pending }: Pick<HandledToolUses, 'outcomes' | 'pending'>): HandledToolUses => ({ content: toResultBlocks(outcomes), pending, outcomes });
  const maxCharacters = typeof options.native === 'object' ? options.native.maxCharacters : undefined;

  return {
    tools: [...tools.values()].map((tool) => toolSpec(tool, native?.tools.has(tool.name) ?? false, maxCharacters)),
    instructions: native === undefined ? collectInstructions(all) : nativeInstructions(all, 'anthropic'),
    session,
    async handleToolUses(content, callOptions = {}) {
      return handled(await dispatchToolCalls(toolUses(content), dispatch(callOptions.signal)));
    },
    async resolvePending(previous, answers: PendingAnswers, callOptions = {}) {
      return handled(await resolvePendingToolCalls(previous.outcomes, previous.pending, answers, dispatch(callOptions.signal)));
    },
    async contextBlock() {
      const text = await collectContext(all, session);
      return text === undefined ? null : { type: 'text', text: `<context>\n${text}\n</context>` };
    },
  };
}

/** A tool's entry in the request: Claude's own type for the text editor and bash, else a custom tool with our JSON Schema. */
function toolSpec(tool: ToolDefinition<any>, isNative: boolean, maxCharacters: number | undefined): AnthropicTool {
  if (isNative && tool.name === 'str_replace_based_edit_tool') {
    return { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', ...(maxCharacters === undefined ? {} : { max_characters: maxCharacters }) };
  }
  if (isNative && tool.name === 'bash') return { type: 'bash_20250124', name: 'bash' };
  if (!ANTHROPIC_TOOL_NAME_PATTERN.test(tool.name)) {
    throw new TypeError(`Expected the tool name \`${tool.name}\` to match ${ANTHROPIC_TOOL_NAME_PATTERN} for the Messages API.`);
  }
  const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' });
  return { name: tool.name, description: tool.description, input_schema: { ...schema, type: 'object' } };
}

/** The `tool_use` blocks of a reply's content; text, thinking and server-tool blocks are skipped. */
function toolUses(content: readonly AnthropicContentBlock[] | null | undefined): ModelToolCall[] {
  return (content ?? [])
    .filter((block) => block.type === 'tool_use')
    .map((block) => ({ callId: String(block.id ?? ''), name: String(block.name ?? ''), arguments: block.input ?? {} }));
}

/** One `tool_result` block per finished call, in call order: text, then the call's images; failures carry `is_error`. */
function toResultBlocks(outcomes: readonly CallOutcome[]): ToolResultBlock[] {
  return outcomes.flatMap(({ callId, result }): ToolResultBlock[] => (result === undefined ? [] : [resultBlock(callId, result)]));
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

function resultBlock(callId: string, result: ToolResult): ToolResultBlock {
  const images = (result.images ?? []).filter((image) => IMAGE_TYPES.has(image.mediaType));
  const error = result.isError ? { is_error: true } : {};
  if (images.length === 0) return { type: 'tool_result', tool_use_id: callId, content: result.text, ...error };
  return {
    type: 'tool_result',
    tool_use_id: callId,
    content: [
      { type: 'text', text: result.text },
      ...images.map((image) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: image.mediaType as 'image/png', data: image.data } })),
    ],
    ...error,
  };
}

function validateOptions(options: ToAnthropicOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('Expected the options of toAnthropic to be an object, such as `{ session }`.');
  if (options.session !== undefined && !(options.session instanceof Session)) {
    throw new TypeError('Expected the `session` option to be a Session from `createSession()` or `restoreSession()`.');
  }
  for (const name of ['onApproval', 'onProgress'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new TypeError(`Expected the \`${name}\` option to be a function, got \`${String(options[name])}\` (${typeof options[name]}).`);
    }
  }
  if (options.background !== undefined && (!Array.isArray(options.background) || options.background.some((name) => typeof name !== 'string'))) {
    throw new TypeError(`Expected the \`background\` option to be an array of tool names, got \`${JSON.stringify(options.background)}\`.`);
  }
  const native = options.native;
  if (native !== undefined && typeof native !== 'boolean' && (typeof native !== 'object' || native === null)) {
    throw new TypeError(`Expected the \`native\` option to be true, false or \`{ maxCharacters }\`, got \`${String(native)}\` (${typeof native}).`);
  }
  if (native && options.background?.includes('run_shell')) {
    throw new TypeError('The `native` option offers run_shell as Claude\'s bash tool, which has no background jobs: leave `run_shell` out of `background`, or leave `native` out.');
  }
  assertApprovalMode(options.mode);
  assertCallRecordingOptions(options, 'toAnthropic');
}

// types.ts holds only this entry point's public types, so all of them are exported (no second list to keep in step).
export type * from './types.js';
export type { CallOutcome, PendingCall } from '../../src/index.js';
