import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernClient, text } from './test-support/conversation-checks.js';
import { startHttpCli, type HttpCli } from './test-support/http-cli.js';
import { startRoundRobin, type RoundRobin } from './test-support/round-robin.js';

// Background jobs across instances: with a session store, run_shell's background jobs live in
// the root's job folders (`.toolbelt/jobs/`), under runners of their own, so a job started on
// one instance is listed, read and stopped on another, outlives the instance that started it,
// and its end is announced once, whichever instance answers next.

describe('agent-toolbelt mcp --http --session-store file:DIR --background, two instances behind a round-robin balancer', () => {
  let base: string;
  const instances: HttpCli[] = [];
  let balancer: RoundRobin;

  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-jobs-'));
    await mkdir(path.join(base, 'project'));
    const args = ['--root', path.join(base, 'project'), '--session-store', `file:${path.join(base, 'sessions')}`, '--background', '--mode', 'auto'];
    instances.push(...(await Promise.all([0, 1].map(() => startHttpCli(args, { env: { TOOLBELT_MCP_STATE_KEY: 'instances-jobs-state-key-0123456789abcdef' }, timeoutMs: 60_000 })))));
    balancer = await startRoundRobin(instances.map((instance) => instance.url));
  }, 90_000);
  afterAll(async () => {
    await balancer?.close();
    await Promise.all(instances.map((instance) => instance.stop()));
    await rm(base, { recursive: true, force: true });
  });

  /** Runs `call` and says which instance answered it. */
  async function servedBy<T>(call: () => Promise<T>): Promise<{ result: T; instance: string }> {
    const before = new Map(balancer.served);
    const result = await call();
    const instance = [...balancer.served].find(([url, count]) => count > (before.get(url) ?? 0))![0];
    return { result, instance };
  }

  it('announces a job that finished once, whichever instance answers after it', async () => {
    const { client, call } = await modernClient(balancer.url, 'announced');
    try {
      const started = await call('run_shell', { command: 'echo quick-job', run_in_background: true });
      expect(text(started)).toContain('Started job b1 (echo quick-job) in the background, beside the workspace, apart from this server');
      const announcements: string[] = [];
      const answeredBy = new Set<string>();
      const deadline = Date.now() + 60_000;
      // Ten calls after it has ended, half on each instance: one of them carries the notice.
      let after = 0;
      while (after < 10 && Date.now() < deadline) {
        const { result, instance } = await servedBy(() => call('task_get', {}));
        const said = text(result);
        if (said.includes('Background jobs that finished')) announcements.push(said);
        if (announcements.length > 0) {
          after += 1;
          answeredBy.add(instance);
        } else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(announcements).toHaveLength(1);
      expect(announcements[0]).toContain('job b1 (echo quick-job) exited 0');
      expect(answeredBy.size).toBe(2);
      expect(text(await call('job_output', { job_id: 'b1' }))).toContain('quick-job');
    } finally {
      await client.close();
    }
  }, 120_000);

  it('lists, reads and stops on one instance a job started on the other, and keeps it when the starter is killed', async () => {
    const { client, call } = await modernClient(balancer.url, 'travelling');
    try {
      const command = 'for i in $(seq 1 600); do echo "beat $i"; sleep 0.1; done';
      const started = await servedBy(() => call('run_shell', { command, run_in_background: true }));
      expect(text(started.result)).toContain('Started job b1');
      expect(started.result.structuredContent).toMatchObject({ jobId: 'b1' });

      const listed = await servedBy(() => call('job_list', {}));
      expect(listed.instance).not.toBe(started.instance);
      expect(text(listed.result)).toMatch(/job b1: for i in .* — running for/);

      let output = '';
      for (const deadline = Date.now() + 30_000; !output.includes('beat 2') && Date.now() < deadline; ) {
        output += text(await call('job_output', { job_id: 'b1' }));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(output).toContain('beat 1');

      // The instance that started the job dies; the job does not.
      const starter = instances.find((instance) => instance.url.href === started.instance)!;
      const exited = new Promise((resolve) => starter.process.once('exit', resolve));
      starter.process.kill('SIGKILL');
      await exited;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const survived = await servedBy(() => call('job_list', {}));
      expect(survived.instance).not.toBe(started.instance);
      expect(text(survived.result)).toContain('running for');
      const more = text(await call('job_output', { job_id: 'b1' }));
      expect(more).toMatch(/New output:\nbeat \d+/);
      expect(more).not.toContain('beat 1\n');

      const stopped = await call('job_stop', { job_id: 'b1' });
      expect(stopped.isError, text(stopped)).toBeFalsy();
      expect(text(stopped)).toContain('Stopped job b1');
      expect(text(stopped)).toContain('was stopped after');
      expect(text(await call('job_list', {}))).toMatch(/job b1: .* — was stopped after/);
      // Another conversation sees none of it.
      const other = await modernClient(balancer.url, 'elsewhere');
      try {
        expect(text(await other.call('job_list', {}))).toBe('No background jobs in this conversation.');
      } finally {
        await other.client.close();
      }
    } finally {
      await client.close();
    }
  }, 120_000);
});
