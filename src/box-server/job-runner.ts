import { createWriteStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { spawnProcess } from '../workspace/spawn-process.js';
import { JOB_FILES, type JobExit } from './box-jobs.js';
import type { SpawnParams } from '../workspace/workspace-jobs.js';

/** After SIGTERM, how long the job's tree gets before SIGKILL. */
const KILL_GRACE_MS = 1_000;

/**
 * The runner of one background job in the box (`serve-workspace --run-job DIR`): reads the
 * job from stdin, runs it with its output appended to `DIR/output`, stops its whole process
 * tree at the ceiling or on SIGTERM (which is how `jobs/stop` reaches it), and writes
 * `DIR/exit.json` atomically when it is over. It is detached from the server, so it outlives
 * the connection that started it.
 */
export async function runJob(directory: string, input: NodeJS.ReadableStream = process.stdin): Promise<void> {
  // The stop's signal may come while the job is still being read: it is handled from here on
  // (before, it ends this process, and the stopper records the stop; see `box-jobs.ts`).
  let ending: 'stopped' | 'timed-out' | undefined;
  let end = (reason: 'stopped' | 'timed-out') => void (ending ??= reason);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => end('stopped'));
  let text = '';
  for await (const chunk of input) text += String(chunk);
  const { spawn, maxRuntimeMs } = JSON.parse(text) as { spawn: SpawnParams; maxRuntimeMs: number };
  if (ending !== undefined) return writeExit(directory, { status: ending, endedAt: Date.now(), exitCode: null, signal: null });
  const output = createWriteStream(path.join(directory, JOB_FILES.output), { flags: 'a' });
  const child = spawnProcess(spawn.file, spawn.args, { cwd: spawn.cwd, env: spawn.env });

  let killTimer: NodeJS.Timeout | undefined;
  end = (reason) => {
    if (ending !== undefined) return;
    ending = reason;
    child.stop('SIGTERM');
    killTimer = setTimeout(() => child.stop('SIGKILL'), KILL_GRACE_MS);
  };
  const ceiling = setTimeout(() => end('timed-out'), maxRuntimeMs);

  const pipe = (stream: NodeJS.ReadableStream) =>
    new Promise<void>((resolve) => {
      stream.on('data', (chunk: Buffer) => {
        if (!output.write(chunk)) {
          stream.pause();
          output.once('drain', () => stream.resume());
        }
      });
      stream.once('close', () => resolve());
      stream.once('error', () => resolve());
    });
  const drained = Promise.all([pipe(child.stdout), pipe(child.stderr)]);
  const exit = await child.exited;
  // A leftover child holding the pipes is not waited for long: the job is over.
  const grace = setTimeout(() => {
    child.stop('SIGKILL');
    child.releaseOutput();
  }, 2_000);
  await drained;
  clearTimeout(grace);
  clearTimeout(ceiling);
  clearTimeout(killTimer);
  if (ending !== undefined) child.stop('SIGKILL');
  if (exit.startError !== undefined) output.write(`Could not start the job: ${exit.startError.message}\n`);
  await new Promise<void>((resolve) => output.end(resolve));

  await writeExit(directory, {
    status: ending ?? (exit.startError !== undefined || exit.exitCode !== 0 ? 'failed' : 'finished'),
    endedAt: Date.now(),
    exitCode: exit.exitCode,
    signal: exit.signal,
    ...(exit.startError === undefined ? {} : { startError: exit.startError.message }),
  });
}

/** Writes `exit.json` atomically: a reader sees all of it or none. */
async function writeExit(directory: string, record: JobExit): Promise<void> {
  const temporary = path.join(directory, `.exit-${process.pid}.tmp`);
  await fs.writeFile(temporary, JSON.stringify(record));
  await fs.rename(temporary, path.join(directory, JOB_FILES.exit));
}
