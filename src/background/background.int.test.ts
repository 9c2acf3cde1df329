import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collectContext, collectTools } from '../context.js';
import { createShellTools } from '../collections/shell/index.js';
import { isAlive, readPids, temporaryWorkspace, waitFor } from '../collections/shell/test-support/harness.js';
import { runTool } from '../run-tool.js';
import { createSession } from '../session.js';
import { defineTool, type ToolCollection } from '../tool.js';
import { withBackground, type BackgroundOptions } from './index.js';

async function setup(options: Omit<BackgroundOptions, 'tools'> = {}) {
  const workspace = await temporaryWorkspace('jobs-');
  const collections = withBackground([createShellTools({ workspace })], { tools: ['run_shell'], ...options });
  const tools = collectTools(collections);
  const session = createSession();
  const call = (name: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    runTool(tools.get(name)!, input, { session, mode: 'auto', ...extra });
  return { workspace, collections, tools, session, call };
}

const slowCounter = 'for i in 1 2 3; do echo "tick $i"; sleep 0.2; done; sleep 30';

describe('withBackground', () => {
  it('adds run_in_background to the named tools and a jobs collection', async () => {
    const { collections, tools } = await setup();
    expect(collections.map((collection) => collection.name)).toEqual(['shell', 'jobs']);
    const shape = tools.get('run_shell')!.input.shape;
    expect(Object.keys(shape)).toEqual(['command', 'working_directory', 'timeout_seconds', 'output_filter', 'run_in_background']);
    expect(shape.run_in_background.description).toMatch(/^Start the call as a background job and get a job id at once/);
    expect([...tools.keys()]).toEqual(['run_shell', 'job_output', 'job_stop', 'job_list']);
  });

  it('returns the collections unchanged without tools', async () => {
    const shell = createShellTools({ workspace: await temporaryWorkspace() });
    expect(withBackground([shell], { tools: undefined })).toEqual([shell]);
    expect(withBackground([shell], { tools: [] })[0]).toBe(shell);
  });

  it('refuses unknown tools and tools that cannot run in the background, naming them', async () => {
    const shell = createShellTools({ workspace: await temporaryWorkspace() });
    const quick: ToolCollection = {
      name: 'quick',
      tools: [defineTool({ name: 'quick', description: 'Answers at once.', kind: 'read', input: z.object({}), execute: () => 'ok' })],
    };
    expect(() => withBackground([shell, quick], { tools: ['run_shel'] })).toThrow(
      'No tool named `run_shel` in the collections given to withBackground(); tools that can run in the background: run_shell.',
    );
    expect(() => withBackground([shell, quick], { tools: ['quick'] })).toThrow(
      'Tool `quick` cannot run in the background (it does not declare `canRunInBackground`); remove it from the `tools` option of withBackground().',
    );
    expect(() => withBackground([shell], { tools: ['run_shell'], maxRuntimeMs: 0 })).toThrow(
      'Expected the `maxRuntimeMs` option of withBackground() to be a positive integer, got `0` (number).',
    );
  });
});

describe('background jobs of run_shell', () => {
  it('starts at once, reads new output incrementally, shows a tail, lists and stops the job with its processes', async () => {
    const { call, workspace } = await setup();
    const started = Date.now();
    const start = await call('run_shell', { command: `echo $$ > pid; ${slowCounter}`, run_in_background: true });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(start.isError).toBe(false);
    expect(start.data).toEqual({ jobId: '1' });
    expect(start.text).toBe(
      `Started job 1 (echo $$ > pid; ${slowCounter}) in the background. Read its output with job_output { "job_id": "1" }, stop it with job_stop; you will be told when it finishes.`,
    );

    await waitFor(async () => (await call('job_output', { job_id: '1', tail: 5 })).text.includes('tick 1'));
    const first = await call('job_output', { job_id: '1' });
    expect(first.text).toMatch(/^Job 1 \(echo .*\): running for \d+ ms\.\nNew output:\ntick 1/);
    await waitFor(async () => (await call('job_output', { job_id: '1', tail: 5 })).text.includes('tick 3'), 5_000);
    const second = await call('job_output', { job_id: '1' });
    expect(second.text).not.toContain('tick 1');
    expect(second.text).toContain('tick 3');
    const none = await call('job_output', { job_id: 'job 1' });
    expect(none.text).toMatch(/^Job 1 \(.*\): running for [\d.]+ m?s\.\nNo new output since the last read\.$/);
    const tail = await call('job_output', { job_id: '1', tail: 2 });
    expect(tail.text).toMatch(/\nLast 2 line\(s\) of its output:\ntick 2\ntick 3$/);

    const list = await call('job_list', {});
    expect(list.text).toMatch(/^job 1: echo \$\$ > pid; .* — running for [\d.]+ m?s$/);
    expect(list.data).toMatchObject({ jobs: [{ id: '1', tool: 'run_shell', status: expect.stringMatching(/^running/) }] });

    const [pid] = await readPids(path.join(workspace.root, 'pid'));
    expect(isAlive(pid!)).toBe(true);
    const stop = await call('job_stop', { job_id: '1' });
    expect(stop.text).toMatch(/^Stopped job 1 \(.*\) after [\d.]+ m?s\.\nNo new output since the last read\.$/);
    expect(await waitFor(() => !isAlive(pid!))).toBe(true);
    expect((await call('job_list', {})).text).toMatch(/ — was stopped after [\d.]+ m?s$/);
    const again = await call('job_stop', { job_id: '1' });
    expect(again.text).toMatch(/^Job 1 \(.*\) had already ended: was stopped after [\d.]+ m?s\. Nothing was stopped\./);
  });

  it('refuses unknown job ids with the ids there are', async () => {
    const { call } = await setup();
    expect((await call('job_output', { job_id: '9' })).text).toBe('There is no job `9` in this conversation (no jobs were started). Use job_list to see them.');
    await call('run_shell', { command: 'true', run_in_background: true });
    const result = await call('job_stop', { job_id: '9' });
    expect(result).toMatchObject({ isError: true, text: 'There is no job `9` in this conversation (jobs: 1). Use job_list to see them.' });
  });

  it('announces a finished job once through the context, with its exit code', async () => {
    const { call, collections, session } = await setup();
    await call('run_shell', { command: 'echo built; exit 2', run_in_background: true });
    expect(await waitFor(async () => (await call('job_list', {})).text.includes('exited'))).toBe(true);
    const context = await collectContext(collections, session);
    expect(context).toMatch(/^Background jobs that finished:\njob 1 \(echo built; exit 2\) exited 2 after \d+ ms; read it with job_output\.$/);
    expect(await collectContext(collections, session)).toBeUndefined();
    const output = await call('job_output', { job_id: '1' });
    expect(output.text).toMatch(/^Job 1 \(echo built; exit 2\): exited 2 after \d+ ms\.\nNew output:\nbuilt$/);
  });

  it('does not announce a job whose end the model already read', async () => {
    const { call, collections, session } = await setup();
    await call('run_shell', { command: 'echo quick', run_in_background: true });
    expect(await waitFor(async () => (await call('job_output', { job_id: '1', tail: 1 })).text.includes('exited 0'))).toBe(true);
    expect(await collectContext(collections, session)).toBeUndefined();
  });

  it('keeps the newest output when a job overflows, saying how much was dropped', async () => {
    const { call } = await setup({ maxOutputCharacters: 1_000 });
    await call('run_shell', { command: 'seq 1 20000', run_in_background: true });
    expect(await waitFor(async () => (await call('job_list', {})).text.includes('exited 0'))).toBe(true);
    const output = await call('job_output', { job_id: '1' });
    expect(output.text).toMatch(/^Job 1 \(seq 1 20000\): exited 0 after \d+ ms\.\n\[… [\d,]+ older characters were dropped before they were read; the job keeps only its newest output\.\]\nNew output:\n/);
    expect(output.text).toMatch(/\n19999\n20000\nThe whole output is saved in \.toolbelt\/output\/shell-[\w-]+\.txt; read it with read_file\.$/);
    expect(output.text).not.toMatch(/\n1\n/);
  });

  it('stops a job at its own ceiling, not at the foreground timeout', async () => {
    const { call } = await setup({ maxRuntimeMs: 700 });
    await call('run_shell', { command: 'echo waiting; sleep 30', run_in_background: true });
    expect(await waitFor(async () => (await call('job_list', {})).text.includes('time limit'), 5_000)).toBe(true);
    const output = await call('job_output', { job_id: '1' });
    expect(output.text).toMatch(/^Job 1 \(echo waiting; sleep 30\): was stopped at its time limit of 700 ms\.\nNew output:\nwaiting$/);
  });

  it("ignores the turn's abort signal", async () => {
    const { call, workspace } = await setup();
    const turn = new AbortController();
    await call('run_shell', { command: 'echo $$ > pid; sleep 30', run_in_background: true }, { signal: turn.signal });
    turn.abort();
    const pidFile = path.join(workspace.root, 'pid');
    expect(await waitFor(async () => (await fs.readFile(pidFile, 'utf8').catch(() => '')).trim() !== '')).toBe(true);
    const [pid] = await readPids(pidFile);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(isAlive(pid!)).toBe(true);
    expect((await call('job_list', {})).text).toMatch(/running/);
    await call('job_stop', { job_id: '1' });
  });

  it('ends every job, process tree included, when the session closes', async () => {
    const { call, workspace, session } = await setup();
    await call('run_shell', { command: 'sleep 30 & echo $! >> pids; echo $$ >> pids; sleep 30', run_in_background: true });
    await call('run_shell', { command: 'echo $$ >> pids; sleep 30', run_in_background: true });
    const pidFile = path.join(workspace.root, 'pids');
    expect(await waitFor(async () => (await readPids(pidFile).catch(() => [])).length === 3)).toBe(true);
    const pids = await readPids(pidFile);
    await session.close();
    expect(await waitFor(() => pids.every((pid) => !isAlive(pid)))).toBe(true);
    const late = await call('run_shell', { command: 'echo late', run_in_background: true });
    expect(late).toMatchObject({ isError: true, text: "This conversation's session is closed, so no background job was started for run_shell." });
  });

  it('still applies the policy and approval when starting in the background', async () => {
    const workspace = await temporaryWorkspace('jobs-');
    const tools = collectTools(withBackground([createShellTools({ workspace, allow: ['echo'] })], { tools: ['run_shell'] }));
    const tool = tools.get('run_shell')!;
    const session = createSession();
    const asked: Array<{ description: string }> = [];
    const refused = await runTool(tool, { command: 'touch x', run_in_background: true }, { session, approve: () => 'approve' });
    expect(refused.text).toMatch(/^Refused: `touch x` is not an allowed command on this host/);
    const denied = await runTool(tool, { command: 'echo hi', run_in_background: true }, { session, approve: (request) => (asked.push(request), 'deny') });
    expect(denied.text).toBe('Action denied by the user: run_shell was not run. Do not retry the same call; ask or change approach.');
    expect(asked[0]).toMatchObject({ description: 'Run: echo hi (in the background: it keeps running after this turn)' });
    const always = await runTool(tool, { command: 'echo hi', run_in_background: true }, { session, approve: () => 'always' });
    expect(always.data).toEqual({ jobId: '1' });
    expect(session.approvals).toEqual(['run_shell:background:echo hi']);
    const foreground = await runTool(tool, { command: 'echo hi' }, { session });
    expect(foreground.isError).toBe(true);
    await session.close();
  });

  it('runs any tool with canRunInBackground and shows its result when it does not stream', async () => {
    const slow = defineTool({
      name: 'slow_sum',
      description: 'Adds slowly.',
      kind: 'other',
      canRunInBackground: true,
      input: z.object({ a: z.number(), b: z.number() }),
      execute: async ({ a, b }, { signal }) => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (signal.aborted) return { text: 'aborted', isError: true };
        return `sum: ${a + b}`;
      },
    });
    const collections = withBackground([{ name: 'math', tools: [slow] }], { tools: ['slow_sum'] });
    const tools = collectTools(collections);
    const session = createSession();
    const start = await runTool(tools.get('slow_sum')!, { a: 2, b: 3, run_in_background: true }, { session });
    expect(start.text).toMatch(/^Started job 1 \(slow_sum \{"a":2,"b":3\}\) in the background\./);
    expect(await waitFor(async () => (await runTool(tools.get('job_list')!, {}, { session })).text.includes('finished'))).toBe(true);
    const output = await runTool(tools.get('job_output')!, { job_id: '1' }, { session });
    expect(output.text).toMatch(/^Job 1 \(slow_sum \{"a":2,"b":3\}\): finished after \d+ ms\.\nNew output:\nsum: 5$/);
    const direct = await runTool(tools.get('slow_sum')!, { a: 1, b: 1 }, { session });
    expect(direct.text).toBe('sum: 2');
  });
});
