import { progressOutput, type ProgressUpdate } from '../progress.js';
import { errorResult } from '../run-tool.js';
import type { Session } from '../session.js';
import { normalizeOutput, type ToolDefinition, type ToolResult } from '../tool.js';
import { OutputRing } from '../output-ring.js';

/** Where a job is. */
export type JobStatus = 'running' | 'finished' | 'failed' | 'stopped' | 'timed-out';

/** How long `job_stop` and `session.close()` wait for a stopped job to end. */
export const STOP_WAIT_MS = 5_000;

/** One background job: a tool call that runs on after its turn. */
export class Job {
  readonly id: string;
  readonly toolName: string;
  /** What it runs, for people and the model (`npm run build`). */
  readonly label: string;
  readonly startedAt = Date.now();
  endedAt: number | undefined;
  status: JobStatus = 'running';
  result: ToolResult | undefined;
  readonly output: OutputRing;
  /** Position in the output up to which the model has read. */
  readPosition = 0;
  /** The model has seen that the job ended (through job_output, job_stop or the context). */
  endSeen = false;
  /** The tool reported output as it arrived, so its final result need not be appended. */
  streamed = false;
  readonly #controller = new AbortController();
  #ending: 'stopped' | 'timed-out' | undefined;
  readonly done: Promise<void>;

  constructor(options: {
    id: string;
    tool: ToolDefinition<any>;
    input: Record<string, unknown>;
    label: string;
    session: Session;
    maxRuntimeMs: number;
    maxOutputCharacters: number;
  }) {
    this.id = options.id;
    this.toolName = options.tool.name;
    this.label = options.label;
    this.output = new OutputRing(options.maxOutputCharacters);
    const ceiling = setTimeout(() => this.stop('timed-out'), options.maxRuntimeMs);
    ceiling.unref();
    this.done = this.#run(options.tool, options.input, options.session).finally(() => clearTimeout(ceiling));
  }

  /** Milliseconds it has run (so far, or in all). */
  get runtimeMs(): number {
    return (this.endedAt ?? Date.now()) - this.startedAt;
  }

  /** Asks the job to end (its tool sees the abort); resolves once it has, or after {@link STOP_WAIT_MS}. */
  async stop(reason: 'stopped' | 'timed-out' = 'stopped'): Promise<void> {
    if (this.status !== 'running') return;
    this.#ending ??= reason;
    this.#controller.abort(new Error(`Job ${this.id} was ${reason === 'stopped' ? 'stopped' : 'stopped at its time limit'}.`));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
    clearTimeout(timer);
  }

  async #run(tool: ToolDefinition<any>, input: Record<string, unknown>, session: Session): Promise<void> {
    let result: ToolResult;
    try {
      // The same channel a live view gets, cleaned the same way, so job_output shows what it would.
      const onProgress = (update: ProgressUpdate) => {
        const text = progressOutput(update);
        if (text === '') return;
        this.streamed = true;
        this.output.append(text);
      };
      const output = await tool.execute(input, {
        toolCallId: `job-${this.id}`,
        signal: this.#controller.signal,
        session,
        onProgress,
        background: { onOutput: onProgress },
      });
      result = normalizeOutput(output);
    } catch (error) {
      result = errorResult(tool.name, error);
    }
    if (!this.streamed) this.output.append(result.text.endsWith('\n') ? result.text : result.text + '\n');
    this.result = result;
    this.endedAt = Date.now();
    this.status = this.#ending ?? (result.isError ? 'failed' : 'finished');
  }
}

/**
 * The jobs of one session, numbered from 1. Created with the session's live objects and
 * stopped when the session closes.
 */
export class JobRegistry {
  readonly #jobs = new Map<string, Job>();
  readonly #session: Session;
  #next = 1;

  constructor(session: Session) {
    this.#session = session;
    session.onClose(() => this.stopAll());
  }

  /** The registry of `session`, created on first use. */
  static of(session: Session): JobRegistry {
    return session.live('jobs', () => new JobRegistry(session));
  }

  start(options: { tool: ToolDefinition<any>; input: Record<string, unknown>; label: string; maxRuntimeMs: number; maxOutputCharacters: number }): Job {
    const job = new Job({ ...options, id: String(this.#next), session: this.#session });
    this.#next += 1;
    this.#jobs.set(job.id, job);
    return job;
  }

  /** The job with this id; accepts `3`, `"3"`, `job 3` and `#3`. */
  get(id: string): Job | undefined {
    const plain = String(id).trim().replace(/^(job\s*|#)/i, '');
    return this.#jobs.get(plain);
  }

  list(): Job[] {
    return [...this.#jobs.values()];
  }

  /** Stops every running job and waits for them. */
  async stopAll(): Promise<void> {
    await Promise.all(this.list().map((job) => job.stop('stopped')));
  }
}
