import { z } from 'zod';
import { defineTool, type ToolCollection, type ToolDefinition, type ToolOutput } from '../tool.js';
import { RUN_IN_BACKGROUND_DESCRIPTION } from './descriptions.js';
import type { Session } from '../session.js';
import { boxJobHostOf, boxJobName, type BoxJobHost, type JobsFor } from './box-jobs.js';
import { JobRegistry } from './job-registry.js';
import { createJobTools } from './job-tools.js';
import { startedJobOutput } from './output-schemas.js';

/** Default ceiling of a background job: 30 minutes. */
export const DEFAULT_JOB_MAX_RUNTIME_MS = 30 * 60 * 1000;
/** Default output a job keeps (the newest): 30,000 characters, one reply's worth. */
export const DEFAULT_JOB_MAX_OUTPUT_CHARACTERS = 30_000;

/** Options of {@link withBackground}. */
export interface BackgroundOptions {
  /**
   * Names of the tools the model may start in the background; each must declare
   * `canRunInBackground`. Empty or left out: the collections are returned unchanged.
   */
  readonly tools?: readonly string[];
  /** A job is stopped after this long. @default 1_800_000 (30 min) */
  readonly maxRuntimeMs?: number;
  /** Output a job keeps; older output is dropped first. @default 30_000 */
  readonly maxOutputCharacters?: number;
}

/** How a host wires {@link withBackground} (the package's adapters): not for the model's options. */
export interface BackgroundWiring {
  /**
   * Where the jobs of a tool whose workspace keeps none of its own (a local one) live instead
   * of in the session: the MCP server with a session store keeps them in the root's job
   * folders, so they outlive the instance and the turn that started them.
   */
  readonly jobsFor?: JobsFor;
}

/**
 * Lets the model start the named tools as background jobs: their schemas gain
 * `run_in_background`, such a call returns a job id at once (in `text` and as
 * `data.jobId`), and a `jobs` collection is added with `job_output`, `job_stop` and
 * `job_list`, whose `context` announces each finished job once.
 *
 * Starting a job goes through the tool's own policy and approval (the approval prompt says
 * it runs in the background, and "always" for it is remembered apart from foreground calls).
 * Jobs live in the session, ignore the turn's abort signal, have their own time limit and
 * end with `session.close()`.
 *
 * @throws {TypeError} when a named tool is unknown or cannot run in the background, or an option is wrong.
 *
 * @example
 * const collections = withBackground([files, shell], { tools: ['run_shell'] });
 */
export function withBackground(collections: readonly ToolCollection[], options: BackgroundOptions = {}, wiring: BackgroundWiring = {}): ToolCollection[] {
  if (!Array.isArray(collections as unknown)) {
    throw new TypeError(`Expected withBackground() to get an array of tool collections, got \`${String(collections)}\`.`);
  }
  const names = validateNames(options.tools);
  const maxRuntimeMs = positiveInteger('maxRuntimeMs', options.maxRuntimeMs, DEFAULT_JOB_MAX_RUNTIME_MS);
  const maxOutputCharacters = positiveInteger('maxOutputCharacters', options.maxOutputCharacters, DEFAULT_JOB_MAX_OUTPUT_CHARACTERS);
  if (names.length === 0) return [...collections];

  const found = new Set<string>();
  let boxHost: BoxJobHost | undefined;
  const wrapped = collections.map((collection) => {
    if (!collection.tools.some((tool) => names.includes(tool.name))) return collection;
    return {
      ...collection,
      tools: collection.tools.map((tool) => {
        if (!names.includes(tool.name)) return tool;
        if (!tool.canRunInBackground) {
          throw new TypeError(
            `Tool \`${tool.name}\` cannot run in the background (it does not declare \`canRunInBackground\`); remove it from the \`tools\` option of withBackground().`,
          );
        }
        found.add(tool.name);
        const host = boxJobHostOf(tool, wiring.jobsFor);
        boxHost ??= host;
        return backgroundable(tool, { maxRuntimeMs, maxOutputCharacters }, host);
      }),
    };
  });
  const missing = names.filter((name) => !found.has(name));
  if (missing.length > 0) {
    const known = collections.flatMap((collection) => collection.tools.filter((tool) => tool.canRunInBackground).map((tool) => tool.name));
    throw new TypeError(
      `No tool named ${missing.map((name) => `\`${name}\``).join(', ')} in the collections given to withBackground()` +
        (known.length === 0 ? '.' : `; tools that can run in the background: ${known.join(', ')}.`),
    );
  }
  return [...wrapped, createJobTools({ maxRuntimeMs, maxOutputCharacters, ...(boxHost === undefined ? {} : { boxHost }) })];
}

/** The tool with `run_in_background` added; everything else is handed the input without it. */
function backgroundable(tool: ToolDefinition<any>, limits: { maxRuntimeMs: number; maxOutputCharacters: number }, host: BoxJobHost | undefined): ToolDefinition<any> {
  const input = tool.input.extend({ run_in_background: z.boolean().optional().describe(RUN_IN_BACKGROUND_DESCRIPTION) });
  const split = (value: Record<string, unknown>) => {
    const { run_in_background: background, ...rest } = value;
    return { background: background === true, rest };
  };
  const { needsApproval, checkPolicy, describeCall, approvalKey } = tool;
  return defineTool({
    ...tool,
    input,
    // Cursor's name for the field (run_terminal_cmd); run_shell's own table refuses it when no background is offered.
    aliases: { ...tool.aliases, is_background: 'run_in_background' },
    // A call started in the background answers with its job id instead of the tool's data.
    ...(tool.output === undefined ? {} : { output: tool.output.partial().extend(startedJobOutput) }),
    ...(typeof needsApproval === 'function'
      ? { needsApproval: (value: Record<string, unknown>, context: Parameters<typeof needsApproval>[1]) => needsApproval(split(value).rest, context) }
      : {}),
    ...(checkPolicy === undefined ? {} : { checkPolicy: (value: Record<string, unknown>, context: Parameters<typeof checkPolicy>[1]) => checkPolicy(split(value).rest, context) }),
    describeCall: (value: Record<string, unknown>) => {
      const { background, rest } = split(value);
      const text = describeCall?.(rest) ?? `${tool.name} ${JSON.stringify(rest)}`;
      return background ? `${text} (in the background: it keeps running after this turn)` : text;
    },
    approvalKey: (value: Record<string, unknown>) => {
      const { background, rest } = split(value);
      const key = approvalKey === undefined ? tool.name : approvalKey(rest);
      if (key === undefined) return undefined;
      return background ? `background:${key}` : key;
    },
    execute: (value: Record<string, unknown>, context) => {
      const { background, rest } = split(value);
      if (!background) return tool.execute(rest, context);
      if (context.session.closed) {
        return { text: `This conversation's session is closed, so no background job was started for ${tool.name}.`, isError: true };
      }
      const label = shorten(typeof rest.command === 'string' ? rest.command : (describeCall?.(rest) ?? `${tool.name} ${JSON.stringify(rest)}`));
      if (host !== undefined) return startInBox(host, rest, label, limits.maxRuntimeMs, context.session);
      const job = JobRegistry.of(context.session).start({ tool, input: rest, label, ...limits });
      return {
        text:
          `Started job ${job.id} (${label}) in the background. Read its output with job_output { "job_id": "${job.id}" }, ` +
          'stop it with job_stop; you will be told when it finishes.',
        data: { jobId: job.id },
      };
    },
  });
}

/**
 * Starts the job in the remote workspace's box, where it outlives this process; the session
 * keeps only how far the model has read (see `box-jobs.ts`).
 */
async function startInBox(host: BoxJobHost, input: Record<string, unknown>, label: string, maxRuntimeMs: number, session: Session): Promise<ToolOutput> {
  const prepared = await host.prepare(input);
  if ('refusal' in prepared) return { text: prepared.refusal, isError: true };
  const job = await host.jobs.start(session.id, { label, spawn: prepared.spawn, maxRuntimeMs });
  const name = boxJobName(job);
  return {
    text:
      `Started job ${name} (${label}) in the background, ${host.where}: it keeps running after this turn. Read its output with job_output { "job_id": "${name}" }, ` +
      'stop it with job_stop; you will be told when it finishes.',
    data: { jobId: name },
  };
}

/** Labels longer than this are cut: they appear in every listing and announcement. */
const MAX_LABEL_CHARACTERS = 100;

function shorten(label: string): string {
  const line = label.replace(/\s+/g, ' ').trim();
  return line.length <= MAX_LABEL_CHARACTERS ? line : `${line.slice(0, MAX_LABEL_CHARACTERS - 1)}…`;
}

function validateNames(tools: unknown): string[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools) || tools.some((name) => typeof name !== 'string')) {
    throw new TypeError(`Expected the \`tools\` option of withBackground() to be an array of tool names, got \`${String(tools)}\`.`);
  }
  return [...new Set(tools as string[])];
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`Expected the \`${name}\` option of withBackground() to be a positive integer, got \`${String(value)}\` (${value === null ? 'null' : typeof value}).`);
  }
  return value;
}

export { JobRegistry, Job } from './job-registry.js';
export { setBoxJobSource } from './box-jobs.js';
export type { BoxJobHost, BoxJobSource, JobsFor } from './box-jobs.js';
export type { JobStatus } from './job-registry.js';
export type { JobSummary } from './job-tools.js';
