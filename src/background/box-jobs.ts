import type { Session } from '../session.js';
import type { ToolDefinition, ToolResult } from '../tool.js';
import type { Workspace } from '../workspace/workspace.js';
import type { SpawnParams, WireJob, WorkspaceJobs } from '../workspace/workspace-jobs.js';
import { formatDuration } from './duration.js';

/**
 * What a tool registers to be startable as a job that lives where its workspace's files are,
 * apart from any process: the workspace, and how to turn an input into the program to start.
 * `run_shell` registers one. Whether such jobs are offered depends on where they can live: a
 * remote workspace's box keeps them (its `jobs`); a local workspace keeps them only when the
 * host says where (`jobsFor`, see {@link withBackground}'s wiring).
 */
export interface BoxJobSource {
  readonly workspace: Workspace;
  /** The program the tool would start for `input`, or the refusal to give the model (policy, bad folder). */
  prepare(input: Record<string, unknown>): Promise<{ readonly spawn: SpawnParams } | { readonly refusal: string }>;
}

/**
 * How a tool runs in the background outside this process: in a remote workspace's box, or in
 * a local root's job folders. Such a job outlives this process (a route handler's request), and
 * any later process with the same session id that reaches the same root sees it through
 * `job_list`, `job_output` and `job_stop`.
 */
export interface BoxJobHost {
  readonly jobs: WorkspaceJobs;
  readonly prepare: BoxJobSource['prepare'];
  /** Where its jobs run, for the model: `in the workspace's box`. */
  readonly where: string;
}

/** Where the jobs of a workspace that keeps none of its own (a local one) may live, if anywhere. */
export type JobsFor = (workspace: Workspace) => WorkspaceJobs | undefined;

const sources = new WeakMap<ToolDefinition<any>, BoxJobSource>();

/** Marks `tool` as one that can run as a job beside its workspace's files (see {@link BoxJobSource}). */
export function setBoxJobSource(tool: ToolDefinition<any>, source: BoxJobSource): void {
  sources.set(tool, source);
}

/**
 * Where `tool`'s background jobs run outside this process: its workspace's own jobs (a remote
 * box's), else those `jobsFor` gives for its workspace; `undefined` when neither, and they run
 * in the session.
 */
export function boxJobHostOf(tool: ToolDefinition<any>, jobsFor?: JobsFor): BoxJobHost | undefined {
  const source = sources.get(tool);
  if (source === undefined) return undefined;
  const own = (source.workspace as { jobs?: WorkspaceJobs }).jobs;
  if (own !== undefined) return { jobs: own, prepare: source.prepare, where: "in the workspace's box" };
  const given = jobsFor?.(source.workspace);
  return given === undefined ? undefined : { jobs: given, prepare: source.prepare, where: 'beside the workspace, apart from this server' };
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
export function boxJobStatus(job: WireJob, where = "in the workspace's box", now = Date.now()): string {
  const runtime = formatDuration((job.endedAt ?? now) - job.startedAt);
  switch (job.status) {
    case 'running':
      return `running for ${runtime} ${where}`;
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
  const parts = [`Job ${boxJobName(job)} (${job.label}): ${boxJobStatus(job, host.where)}.`];
  if (skipped > 0) parts.push(`[… ${skipped.toLocaleString('en-US')} older bytes were left out; the newest output follows.]`);
  parts.push(text === '' ? 'No new output since the last read.' : `New output:\n${text.replace(/\n$/, '')}`);
  return { text: parts.join('\n'), isError: false, data: summary(job, host.where) };
}

/** Stops a box job's whole tree. */
export async function stopBoxJob(host: BoxJobHost, session: Session, name: string): Promise<ToolResult | undefined> {
  const id = boxJobId(name);
  if (id === undefined) return undefined;
  const before = (await host.jobs.read(session.id, id, 0, 0)).job;
  if (before.status !== 'running') {
    seen(session, before).endSeen = true;
    return { text: `Job ${boxJobName(before)} (${before.label}) had already ended: ${boxJobStatus(before, host.where)}. Nothing was stopped.`, isError: false, data: summary(before, host.where) };
  }
  const job = await host.jobs.stop(session.id, id);
  seen(session, job).endSeen = job.status !== 'running';
  return job.status === 'running'
    ? { text: `Job ${boxJobName(job)} (${job.label}) was asked to stop but has not ended yet; check again with job_list.`, isError: true, data: summary(job, host.where) }
    : { text: `Stopped job ${boxJobName(job)} (${job.label}): ${boxJobStatus(job, host.where)}.`, isError: false, data: summary(job, host.where) };
}

/** One line a box job for job_list. */
export async function listBoxJobs(host: BoxJobHost, session: Session): Promise<{ lines: string[]; summaries: ReturnType<typeof summary>[] }> {
  const jobs = await host.jobs.list(session.id);
  return { lines: jobs.map((job) => `job ${boxJobName(job)}: ${job.label} — ${boxJobStatus(job, host.where)}`), summaries: jobs.map((job) => summary(job, host.where)) };
}

/** Lines announcing box jobs that ended since the model last looked, each once. */
export async function announceBoxJobs(host: BoxJobHost, session: Session): Promise<string[]> {
  const lines: string[] = [];
  for (const job of await host.jobs.list(session.id)) {
    const mark = seen(session, job);
    if (job.status === 'running' || mark.endSeen) continue;
    mark.endSeen = true;
    lines.push(`job ${boxJobName(job)} (${job.label}) ${boxJobStatus(job, host.where)}; read it with job_output.`);
  }
  return lines;
}

function summary(job: WireJob, where: string) {
  return { id: boxJobName(job), tool: 'run_shell', label: job.label, status: boxJobStatus(job, where), runtimeMs: (job.endedAt ?? Date.now()) - job.startedAt };
}
