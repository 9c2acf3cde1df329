import { mkdtempSync, realpathSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Workspace } from '../workspace/workspace.js';
import { rootWorkspaceJobs } from './root-jobs.js';

// Jobs in a root's job folders, stopped at every moment of their runner's life: a stop must
// read `stopped`, whether the runner had its signal handlers yet or not, and however the
// readers' checks interleave with its end.

const cli = fileURLToPath(new URL('../../adapters/mcp/cli.ts', import.meta.url));
const runner = [process.execPath, '--import', import.meta.resolve('tsx'), cli, 'serve-workspace'];
const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolbelt-box-jobs-')));
const jobs = rootWorkspaceJobs(new Workspace(root), runner);
const sleep = (label: string) => ({ label, spawn: { file: '/bin/sh', args: ['-c', 'echo up; sleep 30'], cwd: root, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, maxRuntimeMs: 60_000 });

afterAll(async () => {
  for (const job of await jobs.list('race')) if (job.status === 'running') await jobs.stop('race', job.id);
  await rm(root, { recursive: true, force: true });
});

describe('stopping a job in a root\'s job folders', () => {
  it('reports every stopped job `stopped`, stopped at once (its runner still starting) or once it runs, and so does every reader after', async () => {
    const stopped: string[] = [];
    // A reader on "another instance" lists the jobs all along: it never sees a stopped job failed.
    let listing = true;
    const seen = new Set<string>();
    const reader = (async () => {
      while (listing) {
        for (const job of await jobs.list('race')) seen.add(`${job.id}:${job.status}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      for (let index = 0; index < 8; index += 1) {
        const job = await jobs.start('race', sleep(`at once ${index}`));
        stopped.push((await jobs.stop('race', job.id)).status);
      }
      for (let index = 0; index < 3; index += 1) {
        const job = await jobs.start('race', sleep(`running ${index}`));
        const deadline = Date.now() + 30_000;
        while ((await jobs.read('race', job.id, 0)).data.toString() !== 'up\n' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        stopped.push((await jobs.stop('race', job.id)).status);
      }
    } finally {
      listing = false;
      await reader;
    }
    expect(stopped).toEqual(Array.from({ length: 11 }, () => 'stopped'));
    const listed = await jobs.list('race');
    expect(listed.map((job) => job.status)).toEqual(Array.from({ length: 11 }, () => 'stopped'));
    expect([...seen].filter((entry) => entry.endsWith(':failed'))).toEqual([]);
  }, 180_000);

  it('still reports a runner killed without a stop as `failed`', async () => {
    const job = await jobs.start('killed', sleep('killed'));
    const deadline = Date.now() + 30_000;
    while ((await jobs.read('killed', job.id, 0)).data.toString() !== 'up\n' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const folders = await readdir(path.join(root, '.toolbelt/jobs'));
    let pid: number | undefined;
    for (const folder of folders) {
      const record = JSON.parse(await readFile(path.join(root, '.toolbelt/jobs', folder, job.id, 'job.json'), 'utf8').catch(() => '{}')) as { label?: string; runnerPid?: number };
      if (record.label === 'killed') pid = record.runnerPid;
    }
    expect(pid).toBeTypeOf('number');
    process.kill(pid!, 'SIGKILL');
    const until = Date.now() + 10_000;
    let status = 'running';
    while (status === 'running' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await jobs.list('killed'))[0]!.status;
    }
    expect(status).toBe('failed');
  }, 60_000);
});
