/**
 * Background jobs live in the box: one started by a caller process keeps running after that
 * process exits, and a second process, connecting to the same root with the same session id,
 * lists it, reads its output and stops it (its whole tree). Other sessions do not see it.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withBackground } from '../../src/background/index.js';
import { createShellTools } from '../../src/collections/shell/index.js';
import { runTool } from '../../src/run-tool.js';
import { restoreSession } from '../../src/session.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import { bundleCommand, NODE, TSX_LOADER, temporaryFolder } from './support.js';

describe('background jobs in the box', () => {
  it('survive the caller process, and a second process reads and stops them', async () => {
    const root = temporaryFolder('toolbelt-jobs-');
    const command = await bundleCommand(root);
    const first = spawnSync(NODE, ['--import', TSX_LOADER, path.join(import.meta.dirname, 'fixtures/start-job.ts'), 'chat-42', ...command], { encoding: 'utf8', timeout: 20_000 });
    expect(first.status, first.stderr).toBe(0);
    const started = JSON.parse(first.stdout) as { id: string; status: string };
    expect(started).toMatchObject({ id: '1', status: 'running', label: 'count to 100' });

    // The first process has exited; the job goes on.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const second = await connectWorkspace({ command });
    try {
      const [listed] = await second.jobs.list('chat-42');
      expect(listed).toMatchObject({ id: '1', status: 'running' });
      expect(await second.jobs.list('another-chat')).toEqual([]);
      const read = await second.jobs.read('chat-42', '1', 0);
      expect(read.data.toString('utf8')).toMatch(/^tick 1\ntick 2\n/);
      const more = await second.jobs.read('chat-42', '1', read.data.length);
      expect(more.data.toString('utf8')).not.toContain('tick 1\n');

      const stopped = await second.jobs.stop('chat-42', '1');
      expect(stopped.status).toBe('stopped');
      const after = (await second.jobs.read('chat-42', '1', 0)).data.length;
      await new Promise((resolve) => setTimeout(resolve, 600));
      // Nothing of its tree writes any more.
      expect((await second.jobs.read('chat-42', '1', 0)).data.length).toBe(after);
      expect(spawnSync('pgrep', ['-f', 'tick \\$i']).status).not.toBe(0);
    } finally {
      await second.close();
    }
  });

  it('end by themselves, with their exit, and are stopped at their ceiling', async () => {
    const root = temporaryFolder('toolbelt-jobs-');
    const workspace = await connectWorkspace({ command: await bundleCommand(root) });
    try {
      const quick = await workspace.jobs.start('s', { label: 'quick', spawn: { file: '/bin/sh', args: ['-c', 'echo done; exit 3'], cwd: root, env: {} }, maxRuntimeMs: 10_000 });
      const slow = await workspace.jobs.start('s', { label: 'slow', spawn: { file: '/bin/sh', args: ['-c', 'sleep 30'], cwd: root, env: {} }, maxRuntimeMs: 500 });
      expect([quick.id, slow.id]).toEqual(['1', '2']);
      const deadline = Date.now() + 8_000;
      let jobs = await workspace.jobs.list('s');
      while (jobs.some((job) => job.status === 'running') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        jobs = await workspace.jobs.list('s');
      }
      expect(jobs[0]).toMatchObject({ label: 'quick', status: 'failed', exitCode: 3 });
      expect(jobs[1]).toMatchObject({ label: 'slow', status: 'timed-out' });
      expect((await workspace.jobs.read('s', '1', 0)).data.toString()).toBe('done\n');
      await expect(workspace.jobs.read('s', '9', 0)).rejects.toThrow('No job 9 in this session.');
    } finally {
      await workspace.close();
    }
  });

  it('through run_shell in the background and the job tools: started in one process, read and stopped in the next', async () => {
    const root = temporaryFolder('toolbelt-jobs-');
    const command = await bundleCommand(root);
    const first = spawnSync(NODE, ['--import', TSX_LOADER, path.join(import.meta.dirname, 'fixtures/start-background.ts'), ...command], { encoding: 'utf8', timeout: 20_000 });
    expect(first.status, first.stderr).toBe(0);
    const { started, session: saved } = JSON.parse(first.stdout) as { started: { text: string; data: unknown }; session: unknown };
    expect(started.data).toEqual({ jobId: 'b1' });
    expect(started.text).toContain("Started job b1 (for i in $(seq 1 100); do echo \"beat $i\"; sleep 0.2; done) in the background, in the workspace's box");

    await new Promise((resolve) => setTimeout(resolve, 800));
    const workspace = await connectWorkspace({ command });
    try {
      const session = restoreSession(saved as Parameters<typeof restoreSession>[0]);
      const collections = withBackground([createShellTools({ workspace })], { tools: ['run_shell'] });
      const jobTools = collections.find((collection) => collection.name === 'jobs')!;
      const call = (name: string, input: Record<string, unknown>) => runTool(jobTools.tools.find((tool) => tool.name === name)!, input, { session, mode: 'auto' });

      expect((await call('job_list', {})).text).toMatch(/^job b1: for i in .* — running for [\d.]+ m?s in the workspace's box$/);
      const output = await call('job_output', { job_id: 'b1' });
      expect(output.text).toMatch(/^Job b1 \(.*\): running for [\d.]+ m?s in the workspace's box\.\nNew output:\nbeat 1\nbeat 2\n/);
      const again = await call('job_output', { job_id: 'b1' });
      expect(again.text).not.toContain('beat 1\n');
      const stopped = await call('job_stop', { job_id: 'b1' });
      expect(stopped).toMatchObject({ isError: false });
      expect(stopped.text).toMatch(/^Stopped job b1 \(.*\): was stopped after [\d.]+ m?s\.$/);
      // The session remembers what was read and seen, so it announces nothing and travels in JSON.
      expect(await jobTools.context?.(session)).toBeUndefined();
      expect(JSON.parse(JSON.stringify(session.toJSON())).state.boxJobs['1']).toMatchObject({ endSeen: true });
    } finally {
      await workspace.close();
    }
  });
});
