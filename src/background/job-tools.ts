import { z } from 'zod';
import type { InputAliases } from '../model-inputs/aliases.js';
import { defineTool, type ToolCollection } from '../tool.js';
import type { Session } from '../session.js';
import {
  JOB_ID_DESCRIPTION,
  JOB_LIST_DESCRIPTION,
  JOB_OUTPUT_DESCRIPTION,
  JOB_STOP_DESCRIPTION,
  JOBS_INSTRUCTIONS,
  TAIL_DESCRIPTION,
} from './descriptions.js';
import { announceBoxJobs, listBoxJobs, readBoxJob, stopBoxJob, type BoxJobHost } from './box-jobs.js';
import { formatDuration } from './duration.js';
import { JobRegistry, type Job } from './job-registry.js';
import { jobListOutput, jobSummaryOutput } from './output-schemas.js';

/** The most lines `tail` may ask for. */
export const MAX_TAIL_LINES = 1_000;

/** What `job_list` returns as `data`, one entry a job. */
export interface JobSummary {
  readonly id: string;
  readonly tool: string;
  readonly label: string;
  readonly status: string;
  readonly runtimeMs: number;
}

/** What the job tools share. */
interface JobToolSettings {
  readonly maxRuntimeMs: number;
  /** The most characters of a box job's output one `job_output` call returns. */
  readonly boxOutputCharacters: number;
  /** Where jobs run in a remote workspace's box, when they do. */
  readonly boxHost: BoxJobHost | undefined;
}

const jobIdField = z.string().describe(JOB_ID_DESCRIPTION);

/**
 * The job tools' alias table: other harnesses' names for the job id (Claude Code's BashOutput
 * `bash_id`, KillShell `shell_id`, TaskOutput `task_id`; `jobId` is read by the core as `job_id`).
 */
const JOB_ID_ALIASES: InputAliases = {
  id: 'job_id',
  job: 'job_id',
  bash_id: 'job_id',
  shell_id: 'job_id',
  shellId: 'job_id',
  task_id: 'job_id',
  taskId: 'job_id',
};

/** job_output's table: the job id's names, and Claude Code's BashOutput and TaskOutput options it has no equal for. */
const JOB_OUTPUT_ALIASES: InputAliases = {
  ...JOB_ID_ALIASES,
  filter: {
    refuse:
      'job_output has no `filter`: send the call without it to read the new output (search the whole of it with search_files in the file job_output names, when it names one)',
  },
  block: {
    refuse: 'job_output does not wait for the job: send the call without `block` to read what arrived so far; you are told when the job finishes',
  },
  timeout: {
    refuse: 'job_output does not wait for the job: send the call without `timeout` to read what arrived so far; you are told when the job finishes',
  },
};

/**
 * The `jobs` collection: `job_output`, `job_stop` and `job_list`, and a `context` that
 * announces each finished job once. Made by {@link withBackground}.
 */
export function createJobTools(options: { maxRuntimeMs: number; maxOutputCharacters?: number; boxHost?: BoxJobHost }): ToolCollection {
  const { boxHost, maxRuntimeMs } = options;
  const settings: JobToolSettings = { maxRuntimeMs, boxOutputCharacters: options.maxOutputCharacters ?? 30_000, boxHost };
  return {
    name: 'jobs',
    tools: [jobOutputTool(settings), jobStopTool(settings), jobListTool(settings)],
    instructions: JOBS_INSTRUCTIONS,
    // Synchronous unless a box must be asked (the session's own jobs are in memory).
    context: boxHost === undefined
      ? (session: Session) => announceFinishedJobs(session, [], maxRuntimeMs)
      : async (session: Session) => announceFinishedJobs(session, await announceBoxJobs(boxHost, session).catch(() => []), maxRuntimeMs),
  };
}

function jobOutputTool({ maxRuntimeMs, boxOutputCharacters, boxHost }: JobToolSettings) {
  return defineTool({
    name: 'job_output',
    description: JOB_OUTPUT_DESCRIPTION,
    kind: 'read',
    output: jobSummaryOutput,
    input: z.object({
      job_id: jobIdField,
      tail: z.number().int().min(1).max(MAX_TAIL_LINES).optional().describe(TAIL_DESCRIPTION),
    }),
    aliases: JOB_OUTPUT_ALIASES,
    execute: async ({ job_id, tail }, { session }) => {
      // A job in a remote workspace's box (`b1`): read there, from where the session last read.
      const inBox = boxHost === undefined ? undefined : await readBoxJob(boxHost, session, job_id, boxOutputCharacters);
      if (inBox !== undefined) return inBox;
      const job = JobRegistry.of(session).get(job_id);
      if (job === undefined) return unknownJob(job_id, session);
      if (tail !== undefined) {
        const text = job.output.tail(tail);
        if (job.status !== 'running') job.endSeen = true;
        return {
          text: `${headline(job, maxRuntimeMs)}\nLast ${tail} line(s) of its output:\n${text === '' ? '(none)' : text}${savedNote(job)}`,
          data: summary(job, maxRuntimeMs),
        };
      }
      return { text: readNew(job, maxRuntimeMs), data: summary(job, maxRuntimeMs) };
    },
  });
}

function jobStopTool({ maxRuntimeMs, boxHost }: JobToolSettings) {
  return defineTool({
    name: 'job_stop',
    description: JOB_STOP_DESCRIPTION,
    kind: 'other',
    effects: { idempotent: true, openWorld: false },
    output: jobSummaryOutput,
    input: z.object({ job_id: jobIdField }),
    aliases: JOB_ID_ALIASES,
    execute: async ({ job_id }, { session }) => {
      const inBox = boxHost === undefined ? undefined : await stopBoxJob(boxHost, session, job_id);
      if (inBox !== undefined) return inBox;
      const job = JobRegistry.of(session).get(job_id);
      if (job === undefined) return unknownJob(job_id, session);
      if (job.status !== 'running') {
        return { text: `Job ${job.id} (${job.label}) had already ended: ${status(job, maxRuntimeMs)}. Nothing was stopped.\n${readNew(job, maxRuntimeMs, false)}`, data: summary(job, maxRuntimeMs) };
      }
      await job.stop('stopped');
      const text = job.status === 'running'
        ? `Job ${job.id} (${job.label}) was asked to stop but has not ended yet; check again with job_list.`
        : `Stopped job ${job.id} (${job.label}) after ${formatDuration(job.runtimeMs)}.\n${readNew(job, maxRuntimeMs, false)}`;
      return { text, isError: job.status === 'running', data: summary(job, maxRuntimeMs) };
    },
  });
}

function jobListTool({ maxRuntimeMs, boxHost }: JobToolSettings) {
  return defineTool({
    name: 'job_list',
    description: JOB_LIST_DESCRIPTION,
    kind: 'read',
    output: jobListOutput,
    input: z.object({}),
    execute: async (_input, { session }) => {
      const jobs = JobRegistry.of(session).list();
      // Jobs in the box were maybe started by another process: the box is asked, not the session.
      const inBox = boxHost === undefined ? { lines: [], summaries: [] } : await listBoxJobs(boxHost, session);
      if (jobs.length === 0 && inBox.lines.length === 0) return { text: 'No background jobs in this conversation.', data: { jobs: [] } };
      const lines = [...jobs.map((job) => `job ${job.id}: ${job.label} — ${status(job, maxRuntimeMs)}`), ...inBox.lines];
      return { text: lines.join('\n'), data: { jobs: [...jobs.map((job) => summary(job, maxRuntimeMs)), ...inBox.summaries] } };
    },
  });
}

/** Each finished job once: the session's own, then `fromBox` (already marked as seen). */
function announceFinishedJobs(session: Session, fromBox: readonly string[], maxRuntimeMs: number): string | undefined {
  const registry = JobRegistry.of(session);
  const lines: string[] = [];
  for (const job of registry.list()) {
    if (job.status === 'running' || job.endSeen) continue;
    job.endSeen = true;
    lines.push(`job ${job.id} (${job.label}) ${status(job, maxRuntimeMs)}; read it with job_output.`);
  }
  lines.push(...fromBox);
  return lines.length === 0 ? undefined : `Background jobs that finished:\n${lines.join('\n')}`;
}

/** `exited 0 after 41 s`, `running for 12 s`, `was stopped after 3 s`. */
function status(job: Job, maxRuntimeMs: number): string {
  const runtime = formatDuration(job.runtimeMs);
  switch (job.status) {
    case 'running':
      return `running for ${runtime}`;
    case 'stopped':
      return `was stopped after ${runtime}`;
    case 'timed-out':
      return `was stopped at its time limit of ${formatDuration(maxRuntimeMs)}`;
    default: {
      const data = job.result?.data as { status?: unknown; exitCode?: unknown; signal?: unknown } | undefined;
      if (data?.status === 'exited' && typeof data.exitCode === 'number') return `exited ${data.exitCode} after ${runtime}`;
      if (data?.status === 'exited' && typeof data.signal === 'string') return `ended by ${data.signal} after ${runtime}`;
      if (data?.status === 'failed-to-start') return 'failed to start';
      if (data?.status === 'lost') return `was lost with its machine after ${runtime}`;
      return `${job.status === 'failed' ? 'failed' : 'finished'} after ${runtime}`;
    }
  }
}

function headline(job: Job, maxRuntimeMs: number): string {
  return `Job ${job.id} (${job.label}): ${status(job, maxRuntimeMs)}.`;
}

/** The job's status and its unread output; marks it read. */
function readNew(job: Job, maxRuntimeMs: number, withHeadline = true): string {
  const { text, dropped } = job.output.since(job.readPosition);
  job.readPosition = job.output.end;
  if (job.status !== 'running') job.endSeen = true;
  const parts = withHeadline ? [headline(job, maxRuntimeMs)] : [];
  if (dropped > 0) {
    parts.push(`[… ${dropped.toLocaleString('en-US')} older characters were dropped before they were read; the job keeps only its newest output.]`);
  }
  parts.push(text === '' ? 'No new output since the last read.' : `New output:\n${text.replace(/\n$/, '')}`);
  return parts.join('\n') + savedNote(job);
}

function savedNote(job: Job): string {
  const data = job.result?.data as { spillFile?: unknown } | undefined;
  return typeof data?.spillFile === 'string' ? `\nThe whole output is saved in ${data.spillFile}; read it with read_file.` : '';
}

function summary(job: Job, maxRuntimeMs: number): JobSummary {
  return { id: job.id, tool: job.toolName, label: job.label, status: status(job, maxRuntimeMs), runtimeMs: job.runtimeMs };
}

function unknownJob(id: string, session: Session): { text: string; isError: true } {
  const known = JobRegistry.of(session).list().map((job) => job.id);
  return {
    text: `There is no job \`${id}\` in this conversation${known.length === 0 ? ' (no jobs were started)' : ` (jobs: ${known.join(', ')})`}. Use job_list to see them.`,
    isError: true,
  };
}
