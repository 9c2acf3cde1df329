import type { Session } from '../session.js';
import type { ToolDefinition, ToolResult } from '../tool.js';
import type { SpawnParams, WireJob, WorkspaceJobs } from '../workspace/workspace-jobs.js';
import { formatDuration } from './duration.js';

/**
 * How a tool runs in the background inside a remote workspace's box instead of in this
 * process: `run_shell` on a workspace with `jobs` registers one. Such a job outlives this
 * process (a route handler's request), and any later process with the same session id and a
 * connection to the same root sees it through `job_list`, `job_output` and `job_stop`.
 */
export interface BoxJobHost {
  readonly jobs: WorkspaceJobs;
  /** The program the tool would start for `input`, or the refusal to give the model (policy, bad folder). */
  prepare(input: Record<string, unknown>): Promise<{ readonly spawn: SpawnParams } | { readonly refusal: string }>;
}

const hosts = new WeakMap<ToolDefinition<any>, BoxJobHost>();

/** Marks `tool` as one whose background jobs run in a box (see {@link BoxJobHost}). */
export function setBoxJobHost(tool: ToolDefinition<any>, host: BoxJobHost): void {
  hosts.set(tool, host);
}

/** The box host of `tool`, if it has one. */
export function boxJobHostOf(tool: ToolDefinition<any>): BoxJobHost | undefined {
  return hosts.get(tool);
}

/** Box jobs are named `b1`, `b2`, … to the model, apart from the session's own `1`, `2`, …. */
const PREFIX = 'b';

/** The model's name for a box job, and back. */
export function boxJobName(job: WireJob): string {
  return `${PREFIX}${job.id}`;
}

/** The box's id for a name like `b3`, `job b3`, `#b3`, or `undefined`. */
export function boxJobId(name: string): string | undefined {
  const plain = String(name).trim().replace(/^(job\s*|#)/i, '');
  return new RegExp(`^${PREFIX}(\\d+)$`, 'i').exec(plain)?.[1];
}

/** What the session remembers of a box job: how far the model has read, and whether it saw the end. */
interface Seen {
  read: number;
  endSeen: boolean;
}

function seen(session: Session, job: WireJob): Seen {
  const all = session.state<Record<string, Seen>>('boxJobs', () => ({}));
  all[job.id] ??= { read: 0, endSeen: false };
  return all[job.id]!;
}

/** `running for 12 s`, `exited 0 after 41 s`, `was stopped after 3 s`. */
export function boxJobStatus(job: WireJob, now = Date.now()): string {
  const runtime = formatDuration((job.endedAt ?? now) - job.startedAt);
  switch (job.status) {
    case 'running':
      return `running for ${runtime} in the workspace's box`;
    case 'stopped':
      return `was stopped after ${runtime}`;
    case 'timed-out':
      return `was stopped at its time limit after ${runtime}`;
    default:
      if (job.exitCode !== null) return `exited ${job.exitCode} after ${runtime}`;
      if (job.signal !== null) return `ended by ${job.signal} after ${runtime}`;
      return job.endedAt === null ? 'ended without a word (its runner is gone)' : `failed after ${runtime}`;
  }
}

/** The job's status and the output the model has not read yet (at most `maxCharacters`, the newest). */
export async function readBoxJob(host: BoxJobHost, session: Session, name: string, maxCharacters: number): Promise<ToolResult | undefined> {
  const id = boxJobId(name);
  if (id === undefined) return undefined;
  const first = await host.jobs.read(session.id, id, 0, 0);
  const mark = seen(session, first.job);
  const from = Math.max(mark.read, first.job.outputBytes - maxCharacters);
  const { job, data } = await host.jobs.read(session.id, id, from, maxCharacters);
  const skipped = from - mark.read;
  mark.read = from + data.length;
  if (job.status !== 'running') mark.endSeen = true;
  const text = data.toString('utf8');
  const parts = [`Job ${boxJobName(job)} (${job.label}): ${boxJobStatus(job)}.`];
  if (skipped > 0) parts.push(`[… ${skipped.toLocaleString('en-US')} older bytes were left out; the newest output follows.]`);
  parts.push(text === '' ? 'No new output since the last read.' : `New output:\n${text.replace(/\n$/, '')}`);
  return { text: parts.join('\n'), isError: false, data: summary(job) };
}

/** Stops a box job's whole tree. */
export async function stopBoxJob(host: BoxJobHost, session: Session, name: string): Promise<ToolResult | undefined> {
  const id = boxJobId(name);
  if (id === undefined) return undefined;
  const before = (await host.jobs.read(session.id, id, 0, 0)).job;
  if (before.status !== 'running') {
    seen(session, before).endSeen = true;
    return { text: `Job ${boxJobName(before)} (${before.label}) had already ended: ${boxJobStatus(before)}. Nothing was stopped.`, isError: false, data: summary(before) };
  }
  const job = await host.jobs.stop(session.id, id);
  seen(session, job).endSeen = job.status !== 'running';
  return job.status === 'running'
    ? { text: `Job ${boxJobName(job)} (${job.label}) was asked to stop but has not ended yet; check again with job_list.`, isError: true, data: summary(job) }
    : { text: `Stopped job ${boxJobName(job)} (${job.label}): ${boxJobStatus(job)}.`, isError: false, data: summary(job) };
}

/** One line a box job for job_list. */
export async function listBoxJobs(host: BoxJobHost, session: Session): Promise<{ lines: string[]; summaries: ReturnType<typeof summary>[] }> {
  const jobs = await host.jobs.list(session.id);
  return { lines: jobs.map((job) => `job ${boxJobName(job)}: ${job.label} — ${boxJobStatus(job)}`), summaries: jobs.map(summary) };
}

/** Lines announcing box jobs that ended since the model last looked, each once. */
export async function announceBoxJobs(host: BoxJobHost, session: Session): Promise<string[]> {
  const lines: string[] = [];
  for (const job of await host.jobs.list(session.id)) {
    const mark = seen(session, job);
    if (job.status === 'running' || mark.endSeen) continue;
    mark.endSeen = true;
    lines.push(`job ${boxJobName(job)} (${job.label}) ${boxJobStatus(job)}; read it with job_output.`);
  }
  return lines;
}

function summary(job: WireJob) {
  return { id: boxJobName(job), tool: 'run_shell', label: job.label, status: boxJobStatus(job), runtimeMs: (job.endedAt ?? Date.now()) - job.startedAt };
}
