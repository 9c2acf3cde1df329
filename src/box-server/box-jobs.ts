import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ResponseError } from 'vscode-jsonrpc/node';
import { errorCode } from '../workspace/file-system-errors.js';
import { PROCESS_MARKER_VARIABLE } from '../workspace/process-tree.js';
import type { Workspace } from '../workspace/workspace.js';
import { RemoteErrorCode } from '../workspace/remote/protocol.js';
import type { SpawnParams, WireJob } from '../workspace/workspace-jobs.js';

/** The folder under `.toolbelt/` that holds one folder per session, one per job inside it. */
export const JOBS_FOLDER = 'jobs';
/** What a job folder holds: the job as started, its output, and how it ended. */
export const JOB_FILES = { job: 'job.json', output: 'output', exit: 'exit.json', stop: 'stop.json' } as const;

/** `job.json`: written by the server when it starts the runner. */
export interface JobRecord {
  readonly id: string;
  readonly label: string;
  readonly startedAt: number;
  readonly maxRuntimeMs: number;
  /** The runner's process id; it is checked to still be this job's runner before it is signalled. */
  readonly runnerPid: number | null;
}

/** `stop.json`: written by whoever stops the job, before the runner is signalled. */
export interface JobStopRequest {
  readonly requestedAt: number;
}

/**
 * `exit.json`: written by the runner when the job ends, or, when a stop was asked for and the
 * runner died before it could say so (a signal that came before its handlers), by the stopper.
 */
export interface JobExit {
  readonly status: 'finished' | 'failed' | 'stopped' | 'timed-out';
  readonly endedAt: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly startError?: string;
}

/**
 * Background jobs that live in the box, not in the connection: each runs under a small
 * runner process of its own (`serve-workspace --run-job DIR`), detached from the server, which
 * writes the program's output to `.toolbelt/jobs/<session>/<id>/output` and how it ended to
 * `exit.json`, and stops it at its ceiling. So a job outlives the caller's process and the
 * server that started it; any later server for the same root reads the same folder, which is
 * how a second connection with the same session id lists, reads and stops it. There is no
 * daemon: the file system is the shared state. A runner that died without a word is reported
 * as `stopped` when a stop was asked for (`stop.json`: the stop's signal can reach a runner
 * still starting, before it can handle it), else as `failed`.
 */
export class BoxJobs {
  readonly #workspace: Workspace;
  readonly #runner: readonly string[];

  constructor(workspace: Workspace, runner: readonly string[]) {
    this.#workspace = workspace;
    this.#runner = runner;
  }

  async start(sessionId: string, label: string, spawnParams: SpawnParams, maxRuntimeMs: number): Promise<WireJob> {
    const folder = await this.#sessionFolder(sessionId);
    let number = (await this.#ids(folder)).reduce((highest, id) => Math.max(highest, Number(id)), 0) + 1;
    let directory: string;
    for (;;) {
      directory = path.join(folder, String(number));
      try {
        await fs.mkdir(directory);
        break;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
        number += 1;
      }
    }
    const [program, ...args] = this.#runner;
    // The spec, environment included, goes through the runner's stdin: no secret is written to
    // disk. Without this process's tree marker, so stopping whatever started this server does
    // not reach a job that is meant to outlive it.
    const environment = { ...process.env };
    delete environment[PROCESS_MARKER_VARIABLE];
    const runner = spawn(program!, [...args, '--run-job', directory], { detached: true, stdio: ['pipe', 'ignore', 'ignore'], cwd: this.#workspace.root, env: environment });
    const started = new Promise<void>((resolve, reject) => {
      runner.once('spawn', resolve);
      runner.once('error', reject);
    });
    await started;
    runner.stdin!.end(JSON.stringify({ spawn: spawnParams, maxRuntimeMs }));
    runner.unref();
    const record: JobRecord = { id: String(number), label, startedAt: Date.now(), maxRuntimeMs, runnerPid: runner.pid ?? null };
    await this.#workspace.writeFileAtomic(path.join(directory, JOB_FILES.job), JSON.stringify(record));
    return this.#describe(directory, record);
  }

  async list(sessionId: string): Promise<WireJob[]> {
    const folder = await this.#sessionFolder(sessionId);
    const jobs: WireJob[] = [];
    for (const id of (await this.#ids(folder)).sort((a, b) => Number(a) - Number(b))) {
      const record = await readJson<JobRecord>(path.join(folder, id, JOB_FILES.job));
      if (record !== undefined) jobs.push(await this.#describe(path.join(folder, id), record));
    }
    return jobs;
  }

  async read(sessionId: string, id: string, position: number, length: number): Promise<{ job: WireJob; data: string }> {
    const { directory, record } = await this.#find(sessionId, id);
    // The job first, then the output: a job seen ended has all its output in the file already.
    const job = await this.#describe(directory, record);
    let data = Buffer.alloc(0);
    const file = await fs.open(path.join(directory, JOB_FILES.output), 'r').catch(() => undefined);
    if (file !== undefined) {
      try {
        const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, 8 * 1024 * 1024)));
        const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
        data = buffer.subarray(0, bytesRead);
      } finally {
        await file.close();
      }
    }
    return { job, data: data.toString('base64') };
  }

  /**
   * Signals the runner, which stops the program's whole tree and records `stopped`; waits up to
   * 5 s for that. The stop is written down first (`stop.json`), so a runner that dies of the
   * signal before it can record anything is still reported `stopped`, by every reader.
   */
  async stop(sessionId: string, id: string): Promise<WireJob> {
    const { directory, record } = await this.#find(sessionId, id);
    if (record.runnerPid !== null && isRunner(record.runnerPid, directory)) {
      const request: JobStopRequest = { requestedAt: Date.now() };
      await this.#workspace.writeFileAtomic(path.join(directory, JOB_FILES.stop), JSON.stringify(request));
      try {
        process.kill(record.runnerPid, 'SIGTERM');
      } catch {
        // It ended on its own meanwhile.
      }
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && (await readJson<JobExit>(path.join(directory, JOB_FILES.exit))) === undefined && isRunner(record.runnerPid, directory)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Gone without a word: it died of the stop, so the stop is how it ended.
      if (!isRunner(record.runnerPid, directory) && (await readJson<JobExit>(path.join(directory, JOB_FILES.exit))) === undefined) {
        const exit: JobExit = { status: 'stopped', endedAt: Date.now(), exitCode: null, signal: 'SIGTERM' };
        await this.#workspace.writeFileAtomic(path.join(directory, JOB_FILES.exit), JSON.stringify(exit));
      }
    }
    return this.#describe(directory, record);
  }

  async #describe(directory: string, record: JobRecord): Promise<WireJob> {
    // Whether the runner lives is asked before its exit is read: a runner that writes its exit
    // and ends between the two is then seen with its exit, never as gone without one.
    const alive = record.runnerPid !== null && isRunner(record.runnerPid, directory);
    const exit = await readJson<JobExit>(path.join(directory, JOB_FILES.exit));
    const outputBytes = (await fs.stat(path.join(directory, JOB_FILES.output)).catch(() => undefined))?.size ?? 0;
    const base = { id: record.id, label: record.label, startedAt: record.startedAt, outputBytes };
    if (exit !== undefined) return { ...base, status: exit.status, endedAt: exit.endedAt, exitCode: exit.exitCode, signal: exit.signal };
    if (alive) return { ...base, status: 'running', endedAt: null, exitCode: null, signal: null };
    // Gone without writing how it ended: stopped when a stop was asked for (it died of the
    // signal), else failed (the box rebooted, someone killed the runner).
    const stop = await readJson<JobStopRequest>(path.join(directory, JOB_FILES.stop));
    if (stop !== undefined) return { ...base, status: 'stopped', endedAt: stop.requestedAt, exitCode: null, signal: null };
    return { ...base, status: 'failed', endedAt: null, exitCode: null, signal: null };
  }

  async #find(sessionId: string, id: string): Promise<{ directory: string; record: JobRecord }> {
    const plain = String(id).trim().replace(/^(job\s*|#)/i, '');
    if (!/^\d+$/.test(plain)) throw new ResponseError(RemoteErrorCode.failed, `No job ${JSON.stringify(id)} in this session.`);
    const directory = path.join(await this.#sessionFolder(sessionId), plain);
    const record = await readJson<JobRecord>(path.join(directory, JOB_FILES.job));
    if (record === undefined) throw new ResponseError(RemoteErrorCode.failed, `No job ${plain} in this session.`);
    return { directory, record };
  }

  /** One folder per session, named by a hash of its id, so any id is a safe folder name. */
  #sessionFolder(sessionId: string): Promise<string> {
    const name = createHash('sha256').update(String(sessionId)).digest('hex').slice(0, 32);
    return this.#workspace.privateDir(JOBS_FOLDER, name);
  }

  async #ids(folder: string): Promise<string[]> {
    return (await fs.readdir(folder)).filter((name) => /^\d+$/.test(name));
  }
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** True when `pid` is alive and is the runner of `directory` (not a process that reused the number). */
function isRunner(pid: number, directory: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
  try {
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!commandLine.includes(directory)) return false;
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) [ZX] /.test(state);
  } catch {
    // No /proc (not Linux): the signal check is all there is.
    return true;
  }
}
