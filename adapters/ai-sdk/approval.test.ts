import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { generateText, isStepCount, ToolLoopAgent, wrapLanguageModel, type ModelMessage } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { createSession, denialText, notAskedText, type ApprovalRequest } from '../../src/index.js';
import { createNoteCollection } from './test-support/note-tools.js';
import { scriptedModel, toolResultsIn } from './test-support/scripted-model.js';
import { APPROVE_ALWAYS_REASON, toAiSdk } from './index.js';

const writeCall = (id: string, name = 'plan') => ({ toolCalls: [{ toolName: 'write_note', input: { name, content: 'step one' }, id }] });

/** Runs one turn, and answers the approval request it ends with like a UI would, then resumes. */
async function approveAndResume(
  options: { approved: boolean; reason?: string; toolApproval?: boolean },
  setup: Awaited<ReturnType<typeof createNoteCollection>>,
  session = createSession(),
) {
  const belt = toAiSdk([setup.collection], { session });
  const { model, prompts } = scriptedModel([writeCall('c1'), { text: 'Finished.' }]);
  const wrapped = wrapLanguageModel({ model, middleware: belt.middleware });
  const settings = { model: wrapped, tools: belt.tools, stopWhen: isStepCount(5), ...(options.toolApproval ? { toolApproval: belt.toolApproval } : {}) };
  const messages: ModelMessage[] = [{ role: 'user', content: 'Write the plan.' }];

  const first = await generateText({ ...settings, messages });
  const request = first.content.find((part) => part.type === 'tool-approval-request');
  expect(request).toBeDefined();
  await expect(readFile(path.join(setup.dir, 'plan.txt'), 'utf8')).rejects.toThrow(/ENOENT/);

  messages.push(...first.response.messages, {
    role: 'tool',
    content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: options.approved, ...(options.reason ? { reason: options.reason } : {}) }],
  });
  const second = await generateText({ ...settings, messages });
  return { first, second, request: request!, prompts, session };
}

describe('approval through the SDK flow', () => {
  it('stops with a tool-approval-request and runs the call once approved', async () => {
    const setup = await createNoteCollection();
    const { second, request, prompts } = await approveAndResume({ approved: true }, setup);

    expect(request.toolCall).toMatchObject({ toolName: 'write_note', toolCallId: 'c1', input: { name: 'plan', content: 'step one' } });
    expect(await readFile(path.join(setup.dir, 'plan.txt'), 'utf8')).toBe('step one');
    expect(second.text).toBe('Finished.');
    expect(toolResultsIn(prompts[1]!)).toEqual({ c1: { type: 'text', value: 'Wrote plan.' } });
  });

  it('words a denial as the core denial text, with the reason, and runs nothing', async () => {
    const setup = await createNoteCollection();
    const { prompts } = await approveAndResume({ approved: false, reason: 'not now' }, setup);

    await expect(readFile(path.join(setup.dir, 'plan.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
    expect(toolResultsIn(prompts[1]!)).toEqual({ c1: { type: 'error-text', value: denialText('write_note', 'not now') } });
    expect(denialText('write_note', 'not now')).toBe(
      'Action denied by the user: write_note was not run. Do not retry the same call; ask or change approach. The user said: not now',
    );
  });

  it('remembers "always" in the session so the next call runs unasked', async () => {
    const setup = await createNoteCollection();
    const { session } = await approveAndResume({ approved: true, reason: APPROVE_ALWAYS_REASON }, setup);
    expect(session.isApproved('write_note')).toBe(true);

    const belt = toAiSdk([setup.collection], { session });
    const { model } = scriptedModel([writeCall('c2', 'later'), { text: 'Done again.' }]);
    const result = await generateText({ model, tools: belt.tools, prompt: 'Write another.', stopWhen: isStepCount(5) });
    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
    expect(await readFile(path.join(setup.dir, 'later.txt'), 'utf8')).toBe('step one');
  });

  it('does not remember a plain approval', async () => {
    const setup = await createNoteCollection();
    const { session } = await approveAndResume({ approved: true }, setup);
    expect(session.approvals).toEqual([]);
  });

  it('works with ai v7 `toolApproval`, whose request carries the call description', async () => {
    const setup = await createNoteCollection();
    const { request } = await approveAndResume({ approved: true, toolApproval: true }, setup);
    expect(request.reason).toBe('Write note plan');
    expect(await readFile(path.join(setup.dir, 'plan.txt'), 'utf8')).toBe('step one');
  });

  it('works in a ToolLoopAgent with instructions, middleware and toolApproval', async () => {
    const setup = await createNoteCollection();
    const belt = toAiSdk([setup.collection], { session: createSession() });
    const { model, prompts } = scriptedModel([writeCall('c1'), { text: 'Finished.' }]);
    const agent = new ToolLoopAgent({
      model: wrapLanguageModel({ model, middleware: belt.middleware }),
      instructions: belt.instructions,
      tools: belt.tools,
      toolApproval: belt.toolApproval,
    });
    const messages: ModelMessage[] = [{ role: 'user', content: 'Write the plan.' }];

    const first = await agent.generate({ messages });
    const request = first.content.find((part) => part.type === 'tool-approval-request')!;
    expect(request.reason).toBe('Write note plan');
    expect(prompts[0]![0]).toEqual({ role: 'system', content: 'Keep notes short.' });
    messages.push(...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] });
    const second = await agent.generate({ messages });

    expect(second.text).toBe('Finished.');
    expect(await readFile(path.join(setup.dir, 'plan.txt'), 'utf8')).toBe('step one');
  });

  it('refuses a call that needs approval when the host’s own toolApproval skipped the question', async () => {
    const setup = await createNoteCollection();
    const belt = toAiSdk([setup.collection], { session: createSession() });
    const { model, prompts } = scriptedModel([writeCall('c1'), { text: 'OK.' }]);

    await generateText({ model, tools: belt.tools, toolApproval: { write_note: 'not-applicable' }, prompt: 'Write it.', stopWhen: isStepCount(5) });

    await expect(readFile(path.join(setup.dir, 'plan.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
    expect(toolResultsIn(prompts[1]!)).toEqual({ c1: { type: 'error-text', value: notAskedText('write_note', false) } });
  });

  it('never asks about a call the policy refuses', async () => {
    const setup = await createNoteCollection();
    const belt = toAiSdk([setup.collection], { session: createSession() });
    const { model, prompts } = scriptedModel([writeCall('c1', 'secret-plan'), { text: 'Understood.' }]);

    const result = await generateText({ model, tools: belt.tools, toolApproval: belt.toolApproval, prompt: 'Write it.', stopWhen: isStepCount(5) });

    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
    expect(toolResultsIn(prompts[1]!)).toEqual({ c1: { type: 'error-text', value: 'Notes named secret-plan are off limits; pick another name.' } });
  });

  it('refuses edits in plan mode without asking', async () => {
    const setup = await createNoteCollection();
    const belt = toAiSdk([setup.collection], { session: createSession(), mode: 'plan' });
    const { model, prompts } = scriptedModel([writeCall('c1'), { text: 'Here is my plan instead.' }]);

    const result = await generateText({ model, tools: belt.tools, prompt: 'Write it.', stopWhen: isStepCount(5) });

    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
    expect(toolResultsIn(prompts[1]!).c1).toEqual({
      type: 'error-text',
      value: 'write_note is not available in plan mode: edit tools are switched off until the user leaves plan mode. Describe the change you would make instead.',
    });
  });

  it('lets per-tool overrides switch approval off', async () => {
    const setup = await createNoteCollection();
    const belt = toAiSdk([setup.collection], { session: createSession(), needsApproval: { write_note: false } });
    const { model } = scriptedModel([writeCall('c1'), { text: 'Done.' }]);
    await generateText({ model, tools: belt.tools, toolApproval: belt.toolApproval, prompt: 'Write it.', stopWhen: isStepCount(5) });
    expect(await readFile(path.join(setup.dir, 'plan.txt'), 'utf8')).toBe('step one');
  });
});

describe('approval through onApproval', () => {
  it('waits for the answer inside execute and runs the call when approved', async () => {
    const setup = await createNoteCollection();
    const onApproval = vi.fn(async (_request: ApprovalRequest) => 'approve' as const);
    const belt = toAiSdk([setup.collection], { session: createSession(), onApproval });
    const { model, prompts } = scriptedModel([writeCall('c1'), { text: 'Written.' }]);

    const result = await generateText({ model, tools: belt.tools, toolApproval: belt.toolApproval, prompt: 'Write it.', stopWhen: isStepCount(5) });

    expect(result.text).toBe('Written.');
    expect(onApproval).toHaveBeenCalledTimes(1);
    expect(onApproval.mock.calls[0]![0]).toEqual({
      toolName: 'write_note',
      toolCallId: 'c1',
      kind: 'edit',
      input: { name: 'plan', content: 'step one' },
      description: 'Write note plan',
      canAlwaysApprove: true,
    });
    expect(await readFile(path.join(setup.dir, 'plan.txt'), 'utf8')).toBe('step one');
    expect(toolResultsIn(prompts[1]!)).toEqual({ c1: { type: 'text', value: 'Wrote plan.' } });
  });

  it('reports a denial with its reason to the model and writes nothing', async () => {
    const setup = await createNoteCollection();
    const belt = toAiSdk([setup.collection], { session: createSession(), onApproval: () => ({ type: 'deny', reason: 'use the wiki' }) });
    const { model, prompts } = scriptedModel([writeCall('c1'), { text: 'OK.' }]);

    await generateText({ model, tools: belt.tools, prompt: 'Write it.', stopWhen: isStepCount(5) });

    await expect(readFile(path.join(setup.dir, 'plan.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
    expect(toolResultsIn(prompts[1]!)).toEqual({ c1: { type: 'error-text', value: denialText('write_note', 'use the wiki') } });
  });

  it('remembers "always" and never asks about a policy refusal', async () => {
    const setup = await createNoteCollection();
    const session = createSession();
    const onApproval = vi.fn(() => 'always' as const);
    const belt = toAiSdk([setup.collection], { session, onApproval });
    const { model } = scriptedModel([
      { toolCalls: [{ toolName: 'write_note', input: { name: 'a', content: '1' }, id: 'c1' }] },
      { toolCalls: [{ toolName: 'write_note', input: { name: 'b', content: '2' }, id: 'c2' }] },
      { toolCalls: [{ toolName: 'write_note', input: { name: 'secret', content: '3' }, id: 'c3' }] },
      { text: 'All done.' },
    ]);

    await generateText({ model, tools: belt.tools, prompt: 'Write three.', stopWhen: isStepCount(6) });

    expect(onApproval).toHaveBeenCalledTimes(1);
    expect(session.approvals).toEqual(['write_note']);
    expect(await readFile(path.join(setup.dir, 'b.txt'), 'utf8')).toBe('2');
    await expect(readFile(path.join(setup.dir, 'secret.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('gives an empty toolApproval map, since execute asks', async () => {
    const setup = await createNoteCollection();
    expect(toAiSdk([setup.collection], { session: createSession(), onApproval: () => 'deny' }).toolApproval).toEqual({});
  });
});
