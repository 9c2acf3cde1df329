import type { Tool, ToolExecutionOptions } from 'ai';
import { nativeTools, type NativeTools, type OpenAIShellData, type ToolCollection } from '../../src/index.js';
import type { ApprovalSettings } from './approval.js';
import { toAiSdkTool, type AiSdkToolOutput } from './tools.js';

/**
 * The factories of `@ai-sdk/anthropic`'s `anthropic.tools` that {@link toAiSdk} uses, typed by
 * shape so this adapter never imports the provider: pass `anthropic.tools`.
 */
export interface AnthropicToolFactories {
  readonly textEditor_20250728: (options: any) => unknown;
  readonly bash_20250124: (options: any) => unknown;
}

/** The factories of `@ai-sdk/openai`'s `openai.tools` that {@link toAiSdk} uses: pass `openai.tools`. */
export interface OpenAIToolFactories {
  readonly applyPatch: (options: any) => unknown;
  readonly shell: (options: any) => unknown;
}

/**
 * The `native` option of `toAiSdk`: the provider's tool factories, so the files and shell
 * collections are sent as that provider's own tools (`{ anthropic: anthropic.tools }` or
 * `{ openai: openai.tools }`), and the text editor's `maxCharacters`.
 */
export type AiSdkNativeOption =
  | { readonly anthropic: AnthropicToolFactories; readonly openai?: undefined; readonly maxCharacters?: number }
  | { readonly openai: OpenAIToolFactories; readonly anthropic?: undefined };

/** The native tools for the ToolSet, by their provider names, and the tools of ours they replace. */
export interface AiSdkNativeTools {
  readonly tools: Record<string, Tool<any, any>>;
  readonly native: NativeTools;
}

type AiSdkTool = Tool<any, any> & {
  execute: (input: unknown, options: ToolExecutionOptions<any>) => Promise<AiSdkToolOutput> | AsyncIterable<AiSdkToolOutput>;
  needsApproval?: (input: unknown, options: { toolCallId: string }) => Promise<boolean>;
};

/**
 * Builds the provider-defined tools with the toolbelt's `execute` (and `needsApproval`, when
 * the SDK's approval flow asks): every call runs through the same core tool as in the other
 * adapters. Claude's tools get the usual model output (text, `is_error` for failures); the
 * OpenAI ones return the output their schema defines (`{ status, output }` for apply_patch,
 * per-command `{ stdout, stderr, outcome }` for shell), which the provider turns into the
 * API's output items.
 *
 * @throws {TypeError} when the option is not one provider's factories.
 */
export function aiSdkNativeTools(collections: readonly ToolCollection[], option: AiSdkNativeOption, settings: ApprovalSettings): AiSdkNativeTools {
  const anthropic = (option as { anthropic?: AnthropicToolFactories }).anthropic;
  const openai = (option as { openai?: OpenAIToolFactories }).openai;
  if ((anthropic === undefined) === (openai === undefined)) {
    throw new TypeError('Expected the `native` option to name one provider\'s tool factories: `{ anthropic: anthropic.tools }` (from @ai-sdk/anthropic) or `{ openai: openai.tools }` (from @ai-sdk/openai).');
  }
  const tools: Record<string, Tool<any, any>> = {};
  if (anthropic !== undefined) {
    assertFactories(anthropic, ['textEditor_20250728', 'bash_20250124'], 'anthropic', '@ai-sdk/anthropic');
    const maxCharacters = (option as { maxCharacters?: number }).maxCharacters;
    const native = nativeTools(collections, 'anthropic', maxCharacters === undefined ? {} : { maxCharacters });
    for (const [name, tool] of native.tools) {
      const base = toAiSdkTool(tool, settings) as AiSdkTool;
      const hooks = { execute: base.execute, toModelOutput: base.toModelOutput, ...(base.needsApproval === undefined ? {} : { needsApproval: base.needsApproval }) };
      tools[name] = (name === 'bash' ? anthropic.bash_20250124(hooks) : anthropic.textEditor_20250728({ ...hooks, ...(maxCharacters === undefined ? {} : { maxCharacters }) })) as Tool<any, any>;
    }
    return { tools, native };
  }
  assertFactories(openai!, ['applyPatch', 'shell'], 'openai', '@ai-sdk/openai');
  const native = nativeTools(collections, 'openai');
  for (const [name, tool] of native.tools) {
    const base = toAiSdkTool(tool, settings) as AiSdkTool;
    const ours = name === 'shell' ? shellInput : (input: unknown) => input;
    const toOutput = name === 'shell' ? shellOutput : applyPatchOutput;
    const hooks = {
      execute: async (input: unknown, options: ToolExecutionOptions<any>) => toOutput(await lastOutput(base.execute(ours(input), options))),
      ...(base.needsApproval === undefined ? {} : { needsApproval: (input: unknown, options: { toolCallId: string }) => base.needsApproval!(ours(input), options) }),
    };
    tools[name] = (name === 'shell' ? openai!.shell(hooks) : openai!.applyPatch(hooks)) as Tool<any, any>;
  }
  return { tools, native };
}

function assertFactories(factories: object, names: readonly string[], key: string, packageName: string): void {
  for (const name of names) {
    if (typeof (factories as Record<string, unknown>)[name] !== 'function') {
      throw new TypeError(`Expected \`native.${key}\` to be \`${key}.tools\` from ${packageName}, which has \`${name}\`; got an object without it. Update ${packageName} or pass its \`tools\`.`);
    }
  }
}

/** The SDK's shell input (`{ action: { commands, timeoutMs, maxOutputLength } }`) in the Responses API's own field names, which the core tool takes. */
function shellInput(input: unknown): unknown {
  const action = (input as { action?: { commands?: unknown; timeoutMs?: unknown; maxOutputLength?: unknown } } | undefined)?.action ?? {};
  return { commands: action.commands, timeout_ms: action.timeoutMs ?? null, max_output_length: action.maxOutputLength ?? null };
}

function applyPatchOutput(output: AiSdkToolOutput): { status: 'completed' | 'failed'; output: string } {
  return { status: output.isError ? 'failed' : 'completed', output: output.text };
}

function shellOutput(output: AiSdkToolOutput) {
  const data = output.data as OpenAIShellData | undefined;
  if (data?.commands === undefined) {
    // Refused before any command ran: the reason, as the output of one failed command.
    return { output: [{ stdout: '', stderr: output.text, outcome: { type: 'exit' as const, exitCode: 1 } }] };
  }
  return {
    ...(data.maxOutputLength === null ? {} : { maxOutputLength: data.maxOutputLength }),
    output: data.commands.map(({ stdout, stderr, outcome }) => ({
      stdout,
      stderr,
      outcome: outcome.type === 'timeout' ? { type: 'timeout' as const } : { type: 'exit' as const, exitCode: outcome.exit_code },
    })),
  };
}

/** The final output of an execution that may stream preliminary results first. */
async function lastOutput(execution: Promise<AiSdkToolOutput> | AsyncIterable<AiSdkToolOutput>): Promise<AiSdkToolOutput> {
  if (!(Symbol.asyncIterator in (execution as object))) return execution as Promise<AiSdkToolOutput>;
  let last: AiSdkToolOutput | undefined;
  for await (const item of execution as AsyncIterable<AiSdkToolOutput>) last = item;
  return last ?? { text: 'The call returned nothing.', isError: true };
}
