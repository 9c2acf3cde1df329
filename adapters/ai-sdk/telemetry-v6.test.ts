import { generateText, stepCountIs, wrapLanguageModel, type LanguageModelMiddleware, type ToolSet } from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createSession } from '../../src/index.js';
import { installOpenTelemetry, type RecordedTelemetry } from '../../src/telemetry/test-support/open-telemetry-sdk.js';
import { createNoteCollection } from './test-support/note-tools.js';
import { scriptedModel } from './test-support/scripted-model.js';
import { toAiSdk } from './index.js';

// ai v6 records its own OpenTelemetry spans (`experimental_telemetry`); ai v7 moved them to
// separate integrations. On v6 the toolbelt's span must sit under the SDK's `ai.toolCall`.
vi.mock('ai', async () => await import('ai-v6'));

let otel: RecordedTelemetry;
beforeAll(() => {
  otel = installOpenTelemetry();
});

describe('the AI SDK adapter with the SDK telemetry on (ai v6)', () => {
  it("puts execute_tool under the SDK's ai.toolCall span, in the SDK's trace", async () => {
    const setup = await createNoteCollection();
    const belt = toAiSdk([setup.collection], { session: createSession(), mode: 'auto' }) as unknown as { tools: ToolSet; middleware: LanguageModelMiddleware };
    const { model } = scriptedModel(
      [{ toolCalls: [{ toolName: 'write_note', input: { name: 'plan', content: 'v6' }, id: 'call-9' }] }, { text: 'Done.' }],
      MockLanguageModelV3 as never,
    );
    await generateText({
      model: wrapLanguageModel({ model, middleware: belt.middleware }),
      tools: belt.tools,
      prompt: 'Write it.',
      stopWhen: stepCountIs(3),
      experimental_telemetry: { isEnabled: true, functionId: 'notes' },
    });

    const sdkToolCall = otel.span('ai.toolCall');
    const ours = otel.span('execute_tool write_note');
    expect(ours.parentSpanContext?.spanId).toBe(sdkToolCall.spanContext().spanId);
    expect(ours.spanContext().traceId).toBe(otel.span('ai.generateText').spanContext().traceId);
    expect(ours.attributes['gen_ai.tool.call.id']).toBe('call-9');
    expect(sdkToolCall.attributes['ai.toolCall.id']).toBe('call-9');
  });
});
