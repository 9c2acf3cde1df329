import type { OpenAIShellData, ToolResult } from '../../src/index.js';
import type { ModelCall } from './dispatcher.js';
import { resultText } from './messages.js';
import type { ApplyPatchCallOutputItem, ResponsesFunctionCall, ResponsesNativeTool, ShellCallOutputItem, ToolCallOutcome } from './types.js';

/** The native tool of a Responses output item type. */
const ITEM_TOOLS: Readonly<Record<string, string>> = { apply_patch_call: 'apply_patch', shell_call: 'shell' };

/** The request's entry for a native tool. */
export function nativeToolSpec(name: string): ResponsesNativeTool {
  return name === 'apply_patch' ? { type: 'apply_patch' } : { type: 'shell' };
}

/**
 * An `apply_patch_call` or `shell_call` item as a call of the native tool of that name, its
 * `operation` or `action` as the input; `undefined` for every other item.
 */
export function fromNativeItem(item: ResponsesFunctionCall): ModelCall | undefined {
  const name = ITEM_TOOLS[item.type];
  if (name === undefined) return undefined;
  const record = item as unknown as { call_id?: unknown; operation?: unknown; action?: unknown };
  const input = name === 'apply_patch' ? { operation: record.operation } : record.action;
  return { callId: String(record.call_id ?? ''), name, arguments: JSON.stringify(input ?? {}) };
}

/** The output item the API expects for a native call's result. */
export function nativeOutputItem(outcome: ToolCallOutcome & { result: ToolResult }): ApplyPatchCallOutputItem | ShellCallOutputItem {
  const { callId, toolName, result } = outcome;
  if (toolName === 'apply_patch') {
    return { type: 'apply_patch_call_output', call_id: callId, status: result.isError ? 'failed' : 'completed', output: result.text };
  }
  const data = result.data as OpenAIShellData | undefined;
  if (data?.commands === undefined) {
    // Refused before any command ran (policy, approval, bad input): the reason, as the one command's output.
    return { type: 'shell_call_output', call_id: callId, max_output_length: null, output: [{ stdout: '', stderr: resultText(result), outcome: { type: 'exit', exit_code: 1 } }] };
  }
  return {
    type: 'shell_call_output',
    call_id: callId,
    max_output_length: data.maxOutputLength,
    output: data.commands.map(({ stdout, stderr, outcome: commandOutcome }) => ({ stdout, stderr, outcome: commandOutcome.type === 'timeout' ? { type: 'timeout' } : { type: 'exit', exit_code: commandOutcome.exit_code } })),
  };
}
