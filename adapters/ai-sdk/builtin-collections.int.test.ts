import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateText, isStepCount, wrapLanguageModel, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { createDateTimeTools, createSession, createShellTools, createTaskListTools, JobRegistry, Workspace } from '../../src/index.js';
import { lastMessageText, scriptedModel, toolResultsIn } from './test-support/scripted-model.js';
import { toAiSdk } from './index.js';

async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('toAiSdk with the built-in collections', () => {
  it('puts the date and, after task_add, the open tasks in the message at the end of the prompt', async () => {
    const session = createSession();
    const dates = createDateTimeTools({ now: () => new Date('2026-11-30T09:15:00Z'), timeZone: 'UTC' });
    const tasks = createTaskListTools();
    const belt = toAiSdk([dates, tasks], { session });
    const dateLine = (await dates.context!(session))!;
    expect(dateLine).toContain('2026');
    const { model, prompts } = scriptedModel([
      { toolCalls: [{ toolName: 'task_add', input: { tasks: [{ subject: 'Fix the parser' }, { subject: 'Run the tests', blocked_by: ['@1'] }] }, id: 'c1' }] },
      { text: 'Planned.' },
    ]);

    await generateText({ model: wrapLanguageModel({ model, middleware: belt.middleware }), tools: belt.tools, prompt: 'Plan it.', stopWhen: isStepCount(4) });

    expect(lastMessageText(prompts[0]!)).toBe(dateLine);
    const after = lastMessageText(prompts[1]!);
    expect(after.startsWith(`${dateLine}\n\n`)).toBe(true);
    expect(after.slice(dateLine.length + 2)).toBe((await tasks.context!(session))!);
    expect(after).toContain('Fix the parser');
    expect(after).toContain('Run the tests');
  });

  it('starts a shell command in the background and announces it once when it has finished', async () => {
    const workspace = new Workspace(await mkdtemp(path.join(tmpdir(), 'toolbelt-ai-sdk-jobs-')));
    const session = createSession();
    const belt = toAiSdk([createShellTools({ workspace })], { session, background: ['run_shell'], onApproval: () => 'approve' });
    expect(Object.keys(belt.tools).sort()).toEqual(['job_list', 'job_output', 'job_stop', 'run_shell']);

    const first = scriptedModel([
      { toolCalls: [{ toolName: 'run_shell', input: { command: 'sleep 1; echo built-ok', run_in_background: true }, id: 'c1' }] },
      { text: 'Started the build.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Build it in the background.' }];
    const turn = await generateText({ model: wrapLanguageModel({ model: first.model, middleware: belt.middleware }), tools: belt.tools, messages, stopWhen: isStepCount(4) });
    const started = turn.steps[0]!.toolResults[0]!.output as { text: string; data: { jobId: string } };
    const jobId = started.data.jobId;
    expect(started.text).toContain(`Started job ${jobId} (sleep 1; echo built-ok) in the background.`);
    // Still running when the model was called again: nothing to announce yet.
    expect(first.prompts[1]!.at(-1).role).toBe('tool');

    await waitUntil(() => JobRegistry.of(session).list().every((job) => job.status !== 'running'), 'the job to finish');
    messages.push(...turn.response.messages, { role: 'user', content: 'Is it done?' });
    const second = scriptedModel([
      { toolCalls: [{ toolName: 'job_output', input: { job_id: jobId }, id: 'c2' }] },
      { text: 'It printed built-ok.' },
    ]);
    await generateText({ model: wrapLanguageModel({ model: second.model, middleware: belt.middleware }), tools: belt.tools, messages, stopWhen: isStepCount(4) });

    expect(lastMessageText(second.prompts[0]!)).toMatch(
      new RegExp(`^Background jobs that finished:\\njob ${jobId} \\(sleep 1; echo built-ok\\) exited 0 after .+; read it with job_output\\.$`),
    );
    expect(String(toolResultsIn(second.prompts[1]!).c2!.value)).toContain('built-ok');
    // Announced once: the next call's prompt ends with the tool result, not another notice.
    expect(second.prompts[1]!.at(-1).role).toBe('tool');
    await session.close();
  });

  it('refuses an unknown background tool when created', () => {
    expect(() => toAiSdk([createTaskListTools()], { session: createSession(), background: ['task_add'] })).toThrow(/task_add/);
  });
});

describe('ask_user_question without a callback', () => {
  it('is answered by the user interface: no execute, and the addToolOutput answer becomes the text the model reads', async () => {
    const { convertToModelMessages } = await import('ai');
    const { createAskUserTools } = await import('../../src/index.js');
    const belt = toAiSdk([createAskUserTools()], { session: createSession() });
    expect(belt.tools.ask_user_question!.execute).toBeUndefined();

    const input = { questions: [{ question: 'Which database?', header: 'Database', options: [{ label: 'Postgres' }, { label: 'SQLite' }] }] };
    const answered = (output: unknown) =>
      convertToModelMessages(
        [
          { role: 'user', parts: [{ type: 'text', text: 'Set it up.' }] },
          { role: 'assistant', parts: [{ type: 'tool-ask_user_question', toolCallId: 'q1', state: 'output-available', input, output } as any] },
        ],
        { tools: belt.tools },
      );
    const good = toolResultsIn(await answered({ answers: [{ selected: ['SQLite'] }] })).q1!;
    expect(good.type).toBe('text');
    expect(String(good.value)).toContain('SQLite');
    const bad = toolResultsIn(await answered({ answers: [] })).q1!;
    expect(bad.type).toBe('error-text');
  });
});
