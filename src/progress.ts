import stripAnsi from 'strip-ansi';
import { OutputRing } from './output-ring.js';

/**
 * What a tool reports while it runs, through {@link ToolContext.onProgress}. A string is
 * output. `output` is appended to what a live view shows (a command's lines as they arrive);
 * `message` replaces the previous status line ("12 files match so far"); `progress` and
 * `total` count work done, in units the tool chooses, when it can count.
 */
export type ProgressUpdate =
  | string
  | {
      readonly output?: string;
      readonly message?: string;
      readonly progress?: number;
      readonly total?: number;
    };

/**
 * What a host receives while a call runs ({@link RunToolOptions.onProgress}): cleaned of
 * terminal escapes and control characters, bounded, and at most one every
 * {@link PROGRESS_INTERVAL_MS}. The last one is sent before the call's result.
 */
export interface ToolProgress {
  readonly toolCallId: string;
  readonly toolName: string;
  /** 1, 2, 3 … in the order the events were sent. */
  readonly sequence: number;
  /** Output that arrived since the previous event: at most {@link MAX_PROGRESS_CHARACTERS}, the newest kept. */
  readonly output: string;
  /** Characters that arrived since the previous event but were left out of `output` (it kept the newest). */
  readonly omittedCharacters: number;
  /** The newest output, up to {@link MAX_PROGRESS_CHARACTERS}: what a live view shows. */
  readonly recentOutput: string;
  /** Characters of output reported so far. */
  readonly totalCharacters: number;
  /** The latest status line, if the tool gave one. */
  readonly message?: string;
  readonly progress?: number;
  readonly total?: number;
  /** Milliseconds since the call started running. */
  readonly elapsedMs: number;
}

/** Receives a call's progress events. */
export type ProgressListener = (progress: ToolProgress) => void;

/** Shortest time between two events of one call: 4 a second keeps a user interface live and a stream small. */
export const PROGRESS_INTERVAL_MS = 250;
/** Characters of output an event carries, both `output` and `recentOutput`. */
export const MAX_PROGRESS_CHARACTERS = 4_000;
/** Characters of a status message; longer ones are cut with `…`. */
export const MAX_PROGRESS_MESSAGE_CHARACTERS = 200;

/** Escapes, carriage returns, and control characters other than tab and line feed. */
const SPECIAL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/**
 * Text cleaned for a live view as results are for the model: ANSI and terminal escapes
 * removed, `\r\n` and lone `\r` (a progress bar redrawing its line) made `\n`, other control
 * characters dropped. Text without any of them comes back as it is, after one scan.
 */
export function cleanProgressText(text: string): string {
  if (!SPECIAL.test(text)) return text;
  return stripAnsi(text).replace(/\r\n?/g, '\n').replace(CONTROL, '');
}

/** The cleaned output an update carries ('' when none). Background jobs keep exactly this. */
export function progressOutput(update: ProgressUpdate): string {
  const output = typeof update === 'string' ? update : update.output;
  return typeof output === 'string' && output !== '' ? cleanProgressText(output) : '';
}

/** How {@link ProgressReporter} is set up. */
export interface ProgressReporterOptions {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly listener: ProgressListener;
  /** @default PROGRESS_INTERVAL_MS */
  readonly intervalMs?: number;
}

/**
 * Turns a tool's reports into throttled, bounded events for one call: the first at once,
 * then at most one every `intervalMs`, each carrying what arrived since the one before.
 * {@link ProgressReporter.finish} sends what is still waiting and ignores later reports, so
 * a host sees every event of a call before its result and none after. `runTool` makes one
 * per call; a host never needs to.
 */
export class ProgressReporter {
  readonly #options: ProgressReporterOptions;
  readonly #intervalMs: number;
  readonly #started = performance.now();
  readonly #ring = new OutputRing(MAX_PROGRESS_CHARACTERS);
  #sentPosition = 0;
  #sequence = 0;
  #lastSentAt = -Infinity;
  #timer: NodeJS.Timeout | undefined;
  #waiting = false;
  #finished = false;
  #message: string | undefined;
  #progress: number | undefined;
  #total: number | undefined;

  constructor(options: ProgressReporterOptions) {
    if (typeof options.listener !== 'function') {
      throw new TypeError(`Expected the \`onProgress\` option to be a function, got \`${String(options.listener)}\` (${typeof options.listener}).`);
    }
    const interval = options.intervalMs ?? PROGRESS_INTERVAL_MS;
    if (typeof interval !== 'number' || !Number.isFinite(interval) || interval < 0) {
      throw new TypeError(`Expected the \`progressIntervalMs\` option to be a number of milliseconds (0 or more), got \`${String(interval)}\` (${typeof interval}).`);
    }
    this.#options = options;
    this.#intervalMs = interval;
  }

  /** Takes one report from the tool; bound, so it can be handed over as `onProgress`. */
  readonly report = (update: ProgressUpdate): void => {
    if (this.#finished || update === null || (typeof update !== 'string' && typeof update !== 'object')) return;
    let changed = false;
    const output = progressOutput(update);
    if (output !== '') {
      this.#ring.append(output);
      changed = true;
    }
    if (typeof update === 'object') {
      if (typeof update.message === 'string') {
        this.#message = oneLine(update.message);
        changed = true;
      }
      if (isCount(update.progress)) {
        this.#progress = update.progress;
        changed = true;
      }
      if (isCount(update.total)) {
        this.#total = update.total;
        changed = true;
      }
    }
    if (!changed) return;
    this.#waiting = true;
    if (this.#timer !== undefined) return;
    const wait = this.#lastSentAt + this.#intervalMs - performance.now();
    if (wait <= 0) {
      this.#send();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#send();
    }, wait);
    this.#timer.unref();
  };

  /** Sends whatever is waiting and stops: the call has ended. */
  finish(): void {
    if (this.#finished) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#send();
    this.#finished = true;
  }

  #send(): void {
    if (!this.#waiting || this.#finished) return;
    this.#waiting = false;
    this.#lastSentAt = performance.now();
    const { text, dropped } = this.#ring.since(this.#sentPosition);
    this.#sentPosition = this.#ring.end;
    this.#sequence += 1;
    const progress: ToolProgress = {
      toolCallId: this.#options.toolCallId,
      toolName: this.#options.toolName,
      sequence: this.#sequence,
      output: text,
      omittedCharacters: dropped,
      recentOutput: this.#ring.since(0).text,
      totalCharacters: this.#ring.end,
      ...(this.#message === undefined ? {} : { message: this.#message }),
      ...(this.#progress === undefined ? {} : { progress: this.#progress }),
      ...(this.#total === undefined ? {} : { total: this.#total }),
      elapsedMs: Math.round(this.#lastSentAt - this.#started),
    };
    try {
      this.#options.listener(progress);
    } catch {
      // A live view that fails must not fail the call: it gets no more events, the call goes on.
      this.#finished = true;
      clearTimeout(this.#timer);
    }
  }
}

/** One item of {@link streamProgress}: a progress event, or the call's result (always last). */
export type ProgressStreamItem<Result> =
  | { readonly type: 'progress'; readonly progress: ToolProgress }
  | { readonly type: 'result'; readonly result: Result };

/**
 * A call's progress events and then its result as one async iterable, for frameworks that
 * stream a tool's return value (the AI SDK's preliminary results). A consumer slower than
 * the events gets the newest one (each carries the recent output whole), so nothing piles
 * up. Errors from `start` are thrown from the iteration.
 *
 * @example
 * for await (const item of streamProgress((onProgress) => runTool(tool, input, { session, onProgress }))) {
 *   if (item.type === 'progress') render(item.progress.recentOutput);
 * }
 */
export async function* streamProgress<Result>(start: (onProgress: ProgressListener) => Promise<Result>): AsyncGenerator<ProgressStreamItem<Result>> {
  let latest: ToolProgress | undefined;
  let settled: { value: Result } | { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  start((progress) => {
    latest = progress;
    notify();
  }).then(
    (value) => {
      settled = { value };
      notify();
    },
    (error: unknown) => {
      settled = { error };
      notify();
    },
  );
  for (;;) {
    if (latest !== undefined) {
      const progress = latest;
      latest = undefined;
      yield { type: 'progress', progress };
      continue;
    }
    if (settled !== undefined) {
      if ('error' in settled) throw settled.error;
      yield { type: 'result', result: settled.value };
      return;
    }
    await new Promise<void>((resolve) => (wake = resolve));
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function oneLine(message: string): string {
  const line = cleanProgressText(message).replace(/\s+/g, ' ').trim();
  return line.length <= MAX_PROGRESS_MESSAGE_CHARACTERS ? line : `${line.slice(0, MAX_PROGRESS_MESSAGE_CHARACTERS - 1)}…`;
}
