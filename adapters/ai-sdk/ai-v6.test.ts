import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { generateText, stepCountIs, streamText, wrapLanguageModel, type LanguageModelMiddleware, type ModelMessage, type ToolSet } from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createSession, defineTool, denialText, type ToolCollection } from '../../src/index.js';
import { createNoteCollection } from './test-support/note-tools.js';
import { OFF_CONTRACT_CALLS } from '../../test/support/off-contract-calls.js';
import { offContractCalls } from './test-support/off-contract-calls.js';
import { lastMessageText, scriptedModel, toolResultsIn } from './test-support/scripted-model.js';
import { toAiSdk } from './index.js';

// The adapter imports `ai`; here that is ai v6 (installed as the `ai-v6` alias), so this file
// checks the adapter as a project on ai v6 would run it.
vi.mock('ai', async () => await import('ai-v6'));

/** In a project on ai v6 the adapter's types come from ai v6; in this repository they are v7's. */
const toAiSdkV6 = (...args: Parameters<typeof toAiSdk>) =>
  toAiSdk(...args) as unknown as { tools: ToolSet; middleware: LanguageModelMiddleware };

const clock: ToolCollection = { name: 'clock', tools: [], context: () => 'Current date: Monday, 30 November 2026.' };
const writeCall = { toolCalls: [{ toolName: 'write_note', input: { name: 'plan', content: 'v6' }, id: 'c1' }] };

describe('ai v6 compatibility', () => {
  it('runs on ai v6 itself', async () => {
    const ai = await import('ai');
    expect(ai.generateText).toBe(generateText);
  });

  it('runs a tool loop with generateText and streamText, with the context message last', async () => {
    const setup = await createNoteCollection();
    const belt = toAiSdkV6([clock, setup.collection], { session: createSession(), mode: 'auto' });
    const { model, prompts } = scriptedModel([writeCall, { text: 'Done on v6.' }], MockLanguageModelV3 as never);

    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: belt.middleware }),
      tools: belt.tools,
      prompt: 'Write it.',
      stopWhen: stepCountIs(5),
    });

    expect(result.text).toBe('Done on v6.');
    expect(await readFile(path.join(setup.dir, 'plan.txt'), 'utf8')).toBe('v6');
    expect(toolResultsIn(prompts[1]!)).toEqual({ c1: { type: 'text', value: 'Wrote plan.' } });
    expect(lastMessageText(prompts[1]!)).toBe('Current date: Monday, 30 November 2026.\n\nNotes written so far: plan.');

    const streamed = scriptedModel([{ toolCalls: [{ toolName: 'read_note', input: { name: 'plan' }, id: 's1' }] }, { text: 'It says v6.' }], MockLanguageModelV3 as never);
    const stream = streamText({ model: streamed.model, tools: belt.tools, prompt: 'Read it.', stopWhen: stepCountIs(5) });
    expect(await stream.text).toBe('It says v6.');
    expect(toolResultsIn(streamed.prompts[1]!)).toEqual({ s1: { type: 'text', value: 'v6' } });
  });

  it('asks through needsApproval, runs on approval and words a denial', async () => {
    for (const approved of [true, false]) {
      const setup = await createNoteCollection();
      const session = createSession();
      const belt = toAiSdkV6([setup.collection], { session });
      const { model, prompts } = scriptedModel([writeCall, { text: 'Finished.' }], MockLanguageModelV3 as never);
      const settings = { model: wrapLanguageModel({ model, middleware: belt.middleware }), tools: belt.tools, stopWhen: stepCountIs(5) };
      const messages: ModelMessage[] = [{ role: 'user', content: 'Write it.' }];

      const first = await generateText({ ...settings, messages });
      const request = first.content.find((part) => part.type === 'tool-approval-request');
      expect(request?.toolCall.toolName).toBe('write_note');
      messages.push(...first.response.messages, {
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved, reason: approved ? 'always' : 'no' }],
      });
      await generateText({ ...settings, messages });

      if (approved) {
        expect(await readFile(path.join(setup.dir, 'plan.txt'), 'utf8')).toBe('v6');
        expect(toolResultsIn(prompts[1]!)).toEqual({ c1: { type: 'text', value: 'Wrote plan.' } });
        expect(session.approvals).toEqual(['write_note']);
      } else {
        await expect(readFile(path.join(setup.dir, 'plan.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
        expect(toolResultsIn(prompts[1]!)).toEqual({ c1: { type: 'error-text', value: denialText('write_note', 'no') } });
      }
    }
  });

  it('sends the images of a result as image-data parts, the shape ai v6 knows', async () => {
    const snapshot: ToolCollection = {
      name: 'camera',
      tools: [defineTool({
        name: 'snapshot', description: 'Takes a picture.', kind: 'read', input: z.object({}),
        execute: () => ({ text: 'One picture.', images: [{ data: 'iVBORw0KGgo=', mediaType: 'image/png' }] }),
      })],
    };
    const belt = toAiSdkV6([snapshot], { session: createSession() });
    const { model, prompts } = scriptedModel([{ toolCalls: [{ toolName: 'snapshot', input: {}, id: 'c1' }] }, { text: 'Nice.' }], MockLanguageModelV3 as never);
    await generateText({ model, tools: belt.tools, prompt: 'Take one.', stopWhen: stepCountIs(5) });
    expect(toolResultsIn(prompts[1]!).c1).toEqual({
      type: 'content',
      value: [{ type: 'text', text: 'One picture.' }, { type: 'image-data', data: 'iVBORw0KGgo=', mediaType: 'image/png' }],
    });
  });

  it("hands the model's input to the core as sent, as on ai v7 (issue 26)", async () => {
    const { collection, runs, step, expected } = offContractCalls();
    const belt = toAiSdkV6([collection], { session: createSession() });
    const { model, prompts } = scriptedModel([step, { text: 'Done.' }], MockLanguageModelV3 as never);
    await generateText({ model, tools: belt.tools, prompt: 'Repeat.', stopWhen: stepCountIs(5) });
    expect(toolResultsIn(prompts[1]!)).toEqual(expected);
    expect(runs).toEqual(Object.values(OFF_CONTRACT_CALLS).flatMap((call) => (call.ran === undefined ? [] : [call.ran])));
  });

  it('answers bad arguments with the core message', async () => {
    const setup = await createNoteCollection();
    const belt = toAiSdkV6([setup.collection], { session: createSession() });
    const { model, prompts } = scriptedModel([{ toolCalls: [{ toolName: 'read_note', input: { name: 42 }, id: 'c1' }] }, { text: 'Oops.' }], MockLanguageModelV3 as never);
    await generateText({ model, tools: belt.tools, prompt: 'Read.', stopWhen: stepCountIs(5) });
    expect(toolResultsIn(prompts[1]!).c1).toEqual({
      type: 'error-text',
      value: 'Invalid arguments for read_note: `name`: Invalid input: expected string, received number. Fix the arguments and call read_note again.',
    });
  });
});
