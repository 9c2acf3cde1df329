/**
 * The box's thread pool is sized to the box (see `src/box-server/thread-pool.ts`): as many
 * threads as cores, between two and four, unless `UV_THREADPOOL_SIZE` says otherwise; and the
 * programs the box runs never see a variable the box set for itself. A real server process
 * (the single-file build), its threads counted in /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { threadPoolSize } from '../../src/box-server/thread-pool.js';
import { createShellTools } from '../../src/collections/shell/index.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import type { RemoteWorkspace } from '../../src/workspace/remote/remote-workspace.js';
import { bundleCommand, serverPid, temporaryFolder } from './support.js';

const open: RemoteWorkspace[] = [];
/** This process's environment without `UV_THREADPOOL_SIZE`, should the runner have set one. */
const withoutPoolSize = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[0] !== 'UV_THREADPOOL_SIZE' && entry[1] !== undefined));
afterEach(async () => {
  await Promise.all(open.splice(0).map((workspace) => workspace.close()));
});

/** The box's pool threads, and what a command run in the box sees of `UV_THREADPOOL_SIZE`. */
async function poolAndCommand(env: Record<string, string>): Promise<{ threads: number; seen: string }> {
  const root = temporaryFolder();
  const workspace = await connectWorkspace({ command: await bundleCommand(root), env });
  open.push(workspace);
  const shell = createShellTools({ workspace });
  const result = await runTool(shell.tools.find((tool) => tool.name === 'run_shell')!, { command: 'echo "pool=[${UV_THREADPOOL_SIZE-unset}]"' }, { session: createSession(), mode: 'auto' });
  expect(result.isError, result.text).toBe(false);
  const pid = serverPid(root);
  const threads = readdirSync(`/proc/${pid}/task`).filter((task) => readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim() === 'libuv-worker').length;
  return { threads, seen: /pool=\[([^\]]*)\]/.exec(result.text)?.[1] ?? `no answer in ${result.text}` };
}

describe('the box’s thread pool', () => {
  it('chooses between two and four threads by the cores', () => {
    expect([1, 2, 3, 4, 8, 64].map(threadPoolSize)).toEqual([2, 2, 3, 4, 4, 4]);
  });

  it('has as many threads as the box has cores (two to four), and its commands see no UV_THREADPOOL_SIZE', async () => {
    const { threads, seen } = await poolAndCommand(withoutPoolSize);
    expect(threads).toBe(threadPoolSize(availableParallelism()));
    expect(seen).toBe('unset');
  });

  it('keeps the size UV_THREADPOOL_SIZE gives, and hands the variable on to its commands', async () => {
    const { threads, seen } = await poolAndCommand({ ...withoutPoolSize, UV_THREADPOOL_SIZE: '5' });
    expect(threads).toBe(5);
    expect(seen).toBe('5');
  });
});
