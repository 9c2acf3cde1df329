import { describe, expect, it } from 'vitest';
import { collectTools } from '../context.js';
import { createShellTools } from '../collections/shell/index.js';
import { temporaryWorkspace } from '../collections/shell/test-support/harness.js';
import { runTool } from '../run-tool.js';
import { createSession } from '../session.js';
import { withBackground } from './index.js';

async function setup() {
  const collections = withBackground([createShellTools({ workspace: await temporaryWorkspace('jobs-') })], { tools: ['run_shell'] });
  const tools = collectTools(collections);
  const session = createSession();
  const call = (name: string, input: Record<string, unknown>) => runTool(tools.get(name)!, input, { session, mode: 'auto' });
  return { session, call };
}

describe('background jobs called with another harness’s fields', () => {
  it('starts a job for Cursor’s `is_background`, and reads and stops it by Claude Code’s ids', async () => {
    const { session, call } = await setup();
    try {
      const started = await call('run_shell', { command: 'echo started; sleep 30', is_background: true });
      expect(started.text).toMatch(/^Started job 1 \(echo started; sleep 30\) in the background\./);
      expect(started.text).toContain('(Read `is_background` as `run_in_background`: send the fields by these names next time.)');
      for (const key of ['bash_id', 'jobId', 'id', 'task_id']) {
        const read = await call('job_output', { [key]: '1', tail: 5 });
        expect(read.isError).toBe(false);
        expect(read.text).toMatch(/^Job 1 \(echo started; sleep 30\)/);
      }
      const stopped = await call('job_stop', { shell_id: '1' });
      expect(stopped.text).toMatch(/^Stopped job 1 /);
      expect(stopped.text).toContain('(Read `shell_id` as `job_id`');
    } finally {
      await session.close();
    }
  });

  it('refuses BashOutput’s `filter` and TaskOutput’s `block`, saying what to send', async () => {
    const { call } = await setup();
    expect((await call('job_output', { job_id: '1', filter: 'error' })).text).toMatch(/^job_output has no `filter`: send the call without it to read the new output/);
    expect((await call('job_output', { task_id: '1', block: true, timeout: 30000 })).text).toMatch(
      /^job_output does not wait for the job: send the call without `block` to read what arrived so far; you are told when the job finishes\. job_output does not wait for the job: send the call without `timeout`/,
    );
  });
});
