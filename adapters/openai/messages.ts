import type { ToolResult } from '../../src/index.js';
import type { ChatResultMessage, FunctionCallOutputItem, ToolCallOutcome } from './types.js';

/**
 * The text a model reads for a result. The APIs have no error flag on a tool result, so a
 * failure says so in words.
 */
export function resultText(result: ToolResult): string {
  return result.isError ? `Error: ${result.text}` : result.text;
}

/**
 * Chat Completions messages for the finished calls: one `role: 'tool'` message per call, in
 * call order. Tool messages carry text only, so images follow in one `user` message after
 * them, each introduced by the call it came from.
 */
export function toChatMessages(outcomes: readonly ToolCallOutcome[]): ChatResultMessage[] {
  const messages: ChatResultMessage[] = [];
  const imageParts: Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }> = [];
  for (const { callId, toolName, result } of outcomes) {
    if (result === undefined) continue;
    const images = result.images ?? [];
    const note = images.length === 0 ? '' : `\n(${images.length} image${images.length === 1 ? '' : 's'} from this call follow in the next message.)`;
    messages.push({ role: 'tool', tool_call_id: callId, content: resultText(result) + note });
    if (images.length > 0) {
      imageParts.push({ type: 'text', text: `Images returned by ${toolName} (call ${callId}):` });
      for (const image of images) imageParts.push({ type: 'image_url', image_url: { url: `data:${image.mediaType};base64,${image.data}` } });
    }
  }
  if (imageParts.length > 0) messages.push({ role: 'user', content: imageParts });
  return messages;
}

/** Responses API `function_call_output` items for the finished calls, images as `input_image` content. */
export function toResponsesItems(outcomes: readonly ToolCallOutcome[]): FunctionCallOutputItem[] {
  return outcomes.flatMap(({ callId, result }): FunctionCallOutputItem[] => {
    if (result === undefined) return [];
    const images = result.images ?? [];
    if (images.length === 0) return [{ type: 'function_call_output', call_id: callId, output: resultText(result) }];
    return [{
      type: 'function_call_output',
      call_id: callId,
      output: [
        { type: 'input_text', text: resultText(result) },
        ...images.map((image) => ({ type: 'input_image' as const, image_url: `data:${image.mediaType};base64,${image.data}`, detail: 'auto' as const })),
      ],
    }];
  });
}
