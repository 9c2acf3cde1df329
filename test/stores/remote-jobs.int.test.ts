/**
 * Session stores beside a remote workspace: a background job started in the box during one
 * instance's turn keeps running after that turn closed its session, and a later turn of the
 * same chat on another instance (another store instance, another connection to the box)
 * finds it by the session id and stops it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileSessionStore } from '../../src/index.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import { bundleCommand, temporaryFolder } from '../remote/support.js';

describe('a session store with a remote workspace', () => {
  it('lets a later turn on another instance see and stop a job an earlier turn started', async () => {
    const root = temporaryFolder('toolbelt-store-jobs-');
    const sessions = await mkdtemp(path.join(tmpdir(), 'toolbelt-store-jobs-sessions-'));
    const command = await bundleCommand(root);
    const instances = [0, 1].map(() => ({ store: createFileSessionStore({ dir: sessions }) }));
    const first = await connectWorkspace({ command });
    try {
      const started = await instances[0]!.store.withSession('chat-7', async (session) => {
        const job = await first.jobs.start(session.id, { label: 'sleep', spawn: { file: '/bin/sh', args: ['-c', 'echo started; sleep 30'], cwd: root, env: {} }, maxRuntimeMs: 60_000 });
        session.setState('notes', { job: job.id });
        return job;
      });
      expect(started).toMatchObject({ id: '1', status: 'running' });
    } finally {
      await first.close(); // the first instance goes away
    }

    const second = await connectWorkspace({ command });
    try {
      const stopped = await instances[1]!.store.withSession('chat-7', async (session) => {
        const { job } = session.state<{ job: string }>('notes', () => ({ job: '' }));
        const [listed] = await second.jobs.list(session.id);
        expect(listed).toMatchObject({ id: job, status: 'running', label: 'sleep' });
        return second.jobs.stop(session.id, job);
      });
      expect(stopped.status).toBe('stopped');
      expect(await second.jobs.list('another-chat')).toEqual([]);
    } finally {
      await second.close();
      await rm(sessions, { recursive: true, force: true });
    }
  }, 120_000);
});
