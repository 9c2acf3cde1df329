import { MockLanguageModelV4 } from 'ai/test';

/** One model turn: some text and/or tool calls. `input` may be a raw string to send bad JSON. */
export interface ScriptStep {
  readonly text?: string;
  readonly toolCalls?: ReadonlyArray<{ readonly toolName: string; readonly input: unknown; readonly id?: string }>;
}

/** A turn, or a function of the prompt the model was sent. */
export type ScriptEntry = ScriptStep | ((prompt: any[]) => ScriptStep);

type MockConstructor = new (options: { doGenerate: (options: any) => Promise<any>; doStream: (options: any) => Promise<any> }) => any;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/**
 * A scripted model from `ai/test` (MockLanguageModelV4 by default; pass ai v6's
 * MockLanguageModelV3 for the compatibility test). It plays the script's turns in order,
 * then answers `Done.`, and keeps every prompt it was sent in `prompts`.
 */
export function scriptedModel(script: readonly ScriptEntry[], Mock: MockConstructor = MockLanguageModelV4 as unknown as MockConstructor) {
  const prompts: any[][] = [];
  let turn = 0;
  const next = (prompt: any[]): ScriptStep => {
    prompts.push(prompt);
    const entry = script[turn++] ?? { text: 'Done.' };
    return typeof entry === 'function' ? entry(prompt) : entry;
  };
  const content = (step: ScriptStep): any[] => [
    ...(step.text === undefined ? [] : [{ type: 'text', text: step.text }]),
    ...(step.toolCalls ?? []).map((call, index) => ({
      type: 'tool-call',
      toolCallId: call.id ?? `call-${turn}-${index}`,
      toolName: call.toolName,
      input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
    })),
  ];
  const finishReason = (step: ScriptStep) => ({ unified: step.toolCalls?.length ? 'tool-calls' : 'stop', raw: undefined });
  const model = new Mock({
    doGenerate: async ({ prompt }) => {
      const step = next(prompt);
      return { content: content(step), finishReason: finishReason(step), usage, warnings: [] };
    },
    doStream: async ({ prompt }) => {
      const step = next(prompt);
      const parts: any[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of content(step)) {
        if (part.type === 'text') {
          parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' });
        } else parts.push(part);
      }
      parts.push({ type: 'finish', finishReason: finishReason(step), usage });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return { model, prompts };
}

/** The text of the last message of a prompt, whatever its role. */
export function lastMessageText(prompt: any[]): string {
  const last = prompt.at(-1);
  if (typeof last.content === 'string') return last.content;
  return last.content.map((part: any) => part.text ?? part.output?.value ?? '').join('');
}

/** Every tool result the model was sent in a prompt, by tool call id. */
export function toolResultsIn(prompt: any[]): Record<string, { type: string; value?: unknown }> {
  const results: Record<string, { type: string; value?: unknown }> = {};
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') results[part.toolCallId] = part.output;
  }
  return results;
}
