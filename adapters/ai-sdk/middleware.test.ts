import { generateText, isStepCount, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { createSession, type ToolCollection } from '../../src/index.js';
import { createNoteCollection } from './test-support/note-tools.js';
import { lastMessageText, scriptedModel } from './test-support/scripted-model.js';
import { toAiSdk } from './index.js';

const clock: ToolCollection = { name: 'clock', tools: [], context: () => 'Current date: Monday, 30 November 2026.' };
const quiet: ToolCollection = { name: 'quiet', tools: [], context: () => '   ' };

describe('the context middleware', () => {
  it('appends one message at the end of every prompt and leaves the start as it was', async () => {
    const setup = await createNoteCollection();
    const session = createSession();
    const belt = toAiSdk([clock, setup.collection, quiet], { session, mode: 'auto' });
    const { model, prompts } = scriptedModel([
      { toolCalls: [{ toolName: 'write_note', input: { name: 'plan', content: 'x' }, id: 'c1' }] },
      { text: 'Noted.' },
    ]);

    await generateText({
      model: wrapLanguageModel({ model, middleware: belt.middleware }),
      system: belt.instructions,
      tools: belt.tools,
      prompt: 'Write the plan.',
      stopWhen: isStepCount(5),
    });

    expect(prompts[0]).toEqual([
      { role: 'system', content: 'Keep notes short.' },
      { role: 'user', content: [{ type: 'text', text: 'Write the plan.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Current date: Monday, 30 November 2026.' }] },
    ]);
    // The second call sees the tool result, then a fresh context that includes the new note.
    expect(prompts[1]!.slice(0, 2)).toEqual(prompts[0]!.slice(0, 2));
    expect(prompts[1]!.filter((message) => message.role === 'user')).toHaveLength(2);
    expect(prompts[1]!.at(-2).role).toBe('tool');
    expect(lastMessageText(prompts[1]!)).toBe('Current date: Monday, 30 November 2026.\n\nNotes written so far: plan.');
  });

  it('adds nothing when no collection has anything to say, in streams too', async () => {
    const belt = toAiSdk([quiet], { session: createSession() });
    const { model, prompts } = scriptedModel([{ text: 'Hi.' }]);
    const result = streamText({ model: wrapLanguageModel({ model, middleware: belt.middleware }), system: 'S', prompt: 'Hello' });
    expect(await result.text).toBe('Hi.');
    expect(prompts[0]).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
    ]);
  });

  it('declares the v3 specification version ai v6 requires', () => {
    expect(toAiSdk([], { session: createSession() }).middleware.specificationVersion).toBe('v3');
  });
});
