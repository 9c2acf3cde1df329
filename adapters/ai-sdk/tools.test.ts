import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateText, isStepCount, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createSession, defineTool, formatInputError, type ToolCollection } from '../../src/index.js';
import { createNoteCollection } from './test-support/note-tools.js';
import { OFF_CONTRACT_CALLS } from '../../test/support/off-contract-calls.js';
import { offContractCalls } from './test-support/off-contract-calls.js';
import { scriptedModel, toolResultsIn } from './test-support/scripted-model.js';
import { toAiSdk } from './index.js';

const snapshot: ToolCollection = {
  name: 'camera',
  tools: [defineTool({
    name: 'snapshot', description: 'Takes a picture.', kind: 'read', input: z.object({}),
    execute: () => ({ text: 'One picture.', images: [{ data: 'iVBORw0KGgo=', mediaType: 'image/png' }] }),
  })],
};

describe('toAiSdk tools in a tool loop', () => {
  it('sends the images of a result to the model as file parts after the text, in the shape ai v7 expects', async () => {
    const warnings = vi.spyOn(process, 'emitWarning');
    try {
      const belt = toAiSdk([snapshot], { session: createSession() });
      const { model, prompts } = scriptedModel([{ toolCalls: [{ toolName: 'snapshot', input: {}, id: 'c1' }] }, { text: 'Nice.' }]);
      await generateText({ model, tools: belt.tools, prompt: 'Take one.', stopWhen: isStepCount(5) });

      expect(toolResultsIn(prompts[1]!).c1).toEqual({
        type: 'content',
        value: [{ type: 'text', text: 'One picture.' }, { type: 'file', data: { type: 'data', data: 'iVBORw0KGgo=' }, mediaType: 'image/png' }],
      });
      expect(warnings.mock.calls.map(([warning]) => String(warning)).filter((text) => text.includes('deprecated'))).toEqual([]);
    } finally {
      warnings.mockRestore();
    }
  });

  it('runs a generateText loop: the model reads the text, the output keeps data for a UI', async () => {
    const { collection, dir } = await createNoteCollection();
    await writeFile(path.join(dir, 'todo.txt'), 'buy milk');
    const belt = toAiSdk([collection], { session: createSession() });
    const { model, prompts } = scriptedModel([{ toolCalls: [{ toolName: 'read_note', input: { name: 'todo' }, id: 'c1' }] }, { text: 'You need milk.' }]);

    const result = await generateText({ model, tools: belt.tools, prompt: 'What is on my list?', stopWhen: isStepCount(5) });

    expect(result.text).toBe('You need milk.');
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({ text: 'buy milk', isError: false, data: { name: 'todo', length: 8 } });
    expect(toolResultsIn(prompts[1]!)).toEqual({ c1: { type: 'text', value: 'buy milk' } });
  });

  it('sends each tool as its description and a JSON Schema without the `$schema` dialect line', async () => {
    const { collection } = await createNoteCollection();
    const belt = toAiSdk([collection], { session: createSession() });
    const model = new MockLanguageModelV4({
      doGenerate: {
        content: [{ type: 'text', text: 'Done.' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } },
        warnings: [],
      },
    });
    await generateText({ model, tools: belt.tools, prompt: 'Hi.' });
    const sent = (model.doGenerateCalls[0]?.tools ?? []) as unknown as { name: string; inputSchema: Record<string, unknown> }[];
    const readNote = sent.find((tool) => tool.name === 'read_note')!;
    expect(readNote.inputSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' } } });
    expect(readNote.inputSchema).not.toHaveProperty('$schema');
  });

  it('runs a streamText loop the same way', async () => {
    const { collection, dir } = await createNoteCollection();
    await writeFile(path.join(dir, 'todo.txt'), 'call mum');
    const belt = toAiSdk([collection], { session: createSession(), mode: 'auto' });
    const { model, prompts } = scriptedModel([
      { toolCalls: [{ toolName: 'read_note', input: { name: 'todo' }, id: 'c1' }] },
      { toolCalls: [{ toolName: 'write_note', input: { name: 'done', content: 'called' }, id: 'c2' }] },
      { text: 'Called mum and noted it.' },
    ]);

    const result = streamText({ model, tools: belt.tools, prompt: 'Do my list.', stopWhen: isStepCount(5) });

    expect(await result.text).toBe('Called mum and noted it.');
    expect(await readFile(path.join(dir, 'done.txt'), 'utf8')).toBe('called');
    expect(toolResultsIn(prompts[2]!)).toEqual({ c1: { type: 'text', value: 'call mum' }, c2: { type: 'text', value: 'Wrote done.' } });
  });

  it('answers bad arguments with a message naming the field, and the run goes on', async () => {
    const { collection, dir } = await createNoteCollection();
    const belt = toAiSdk([collection], { session: createSession(), mode: 'auto' });
    const { model, prompts } = scriptedModel([
      { toolCalls: [{ toolName: 'write_note', input: { name: 'Bad Name' }, id: 'c1' }] },
      { text: 'Sorry.' },
    ]);

    const result = await generateText({ model, tools: belt.tools, prompt: 'Write it.', stopWhen: isStepCount(5) });

    expect(result.text).toBe('Sorry.');
    const { collection: fresh } = await createNoteCollection();
    const parsed = fresh.tools.find((tool) => tool.name === 'write_note')!.input.safeParse({ name: 'Bad Name' });
    const expected = formatInputError('write_note', parsed.error!);
    expect(expected).toContain('`name`');
    expect(expected).toContain('`content`');
    expect(toolResultsIn(prompts[1]!)).toEqual({ c1: { type: 'error-text', value: expected } });
    await expect(readFile(path.join(dir, 'Bad Name.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it("hands the model's input to the core as sent: a number as text, an alias, an unknown key, a second encoding (issue 26)", async () => {
    const { collection, runs, step, expected } = offContractCalls();
    const belt = toAiSdk([collection], { session: createSession() });
    const { model, prompts } = scriptedModel([step, { text: 'Done.' }]);

    await generateText({ model, tools: belt.tools, prompt: 'Repeat.', stopWhen: isStepCount(5) });

    expect(toolResultsIn(prompts[1]!)).toEqual(expected);
    expect(runs).toEqual(Object.values(OFF_CONTRACT_CALLS).flatMap((call) => (call.ran === undefined ? [] : [call.ran])));
  });

  it('survives arguments that are not JSON at all', async () => {
    const { collection } = await createNoteCollection();
    const belt = toAiSdk([collection], { session: createSession() });
    const { model, prompts } = scriptedModel([{ toolCalls: [{ toolName: 'read_note', input: '{"name": "todo"', id: 'c1' }] }, { text: 'Retrying later.' }]);

    const result = await generateText({ model, tools: belt.tools, prompt: 'Read todo.', stopWhen: isStepCount(5) });

    expect(result.text).toBe('Retrying later.');
    const output = toolResultsIn(prompts[1]!).c1!;
    expect(output.type).toBe('error-text');
    expect(String(output.value)).toMatch(/Invalid input for tool read_note/);
  });

  it('turns a thrown error into a readable result instead of crashing the run', async () => {
    const { collection } = await createNoteCollection();
    const belt = toAiSdk([collection], { session: createSession() });
    const { model, prompts } = scriptedModel([{ toolCalls: [{ toolName: 'broken', input: {}, id: 'c1' }] }, { text: 'It broke.' }]);

    const result = await generateText({ model, tools: belt.tools, prompt: 'Try it.', stopWhen: isStepCount(5) });

    expect(result.text).toBe('It broke.');
    expect(toolResultsIn(prompts[1]!).c1).toEqual({
      type: 'error-text',
      value: 'broken failed with an unexpected error: disk on fire. This is not a problem with your input; try another approach or tell the user.',
    });
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({
      text: 'broken failed with an unexpected error: disk on fire. This is not a problem with your input; try another approach or tell the user.',
      isError: true,
    });
  });

  it('gives the collections\u2019 instructions joined', async () => {
    const { collection } = await createNoteCollection();
    const other = { name: 'other', tools: [], instructions: '  Be brief.  ' };
    expect(toAiSdk([collection, other], { session: createSession() }).instructions).toBe('Keep notes short.\n\nBe brief.');
  });

  it('validates its options when created, naming the option', async () => {
    const { collection } = await createNoteCollection();
    expect(() => toAiSdk([collection], {} as never)).toThrow(
      'Expected the `session` option to be a Session from `createSession()` or `restoreSession()`.',
    );
    expect(() => toAiSdk([collection], { session: createSession(), mode: 'yolo' as never })).toThrow(
      "Expected the `mode` option to be one of 'ask', 'accept-edits', 'plan', 'auto', got `yolo`.",
    );
    expect(() => toAiSdk([collection], { session: createSession(), onApproval: 'yes' as never })).toThrow(
      'Expected the `onApproval` option to be a function, got `yes` (string).',
    );
    expect(() => toAiSdk([collection], { session: createSession(), needsApproval: { write_note: 'yes' as never } })).toThrow(
      'Expected `needsApproval.write_note` to be true, false or a function of the input, got `yes` (string).',
    );
    expect(() => toAiSdk([collection], { session: createSession(), needsApproval: { write_notes: true } })).toThrow(
      'Expected `needsApproval` to name tools of the collections, got `write_notes`; the tools are read_note, write_note, broken. A misspelt name would leave that tool\'s default in place.',
    );
    expect(() => toAiSdk([collection], { session: createSession(), background: 'run_shell' as never })).toThrow(
      "Expected the `background` option to be a list of tool names such as ['run_shell'] or withBackground() options, got `run_shell` (string).",
    );
    expect(() => toAiSdk([collection], { session: createSession(), background: ['read_note'] })).toThrow(/read_note/);
    expect(() => toAiSdk([collection, collection], { session: createSession() })).toThrow(/Two tools are named `read_note`/);
  });

  it('passes the abort signal to the tool', async () => {
    const { collection } = await createNoteCollection();
    const belt = toAiSdk([collection], { session: createSession() });
    const controller = new AbortController();
    controller.abort();
    const output = await belt.tools.read_note!.execute!({ name: 'todo' }, { toolCallId: 'c1', messages: [], abortSignal: controller.signal, context: {} });
    expect(output).toEqual({ text: 'read_note was cancelled before it started.', isError: true });
  });

  it('works with a wrapped model too (middleware leaves a quiet prompt alone)', async () => {
    const { collection } = await createNoteCollection();
    const belt = toAiSdk([collection], { session: createSession() });
    const { model, prompts } = scriptedModel([{ text: 'Hi.' }]);
    await generateText({ model: wrapLanguageModel({ model, middleware: belt.middleware }), prompt: 'Hello' });
    expect(prompts[0]).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }]);
  });
});
