import type { ProgressUpdate } from '../progress.js';
import type { StepProgressWire } from '../workspace/remote/protocol.js';

/** Progress of one step is sent at most this often; the caller's reporter throttles further. */
const PROGRESS_INTERVAL_MS = 100;
/** Output characters one progress notification carries at most (the newest kept). */
const MAX_PROGRESS_OUTPUT = 16_000;

/** Gathers a step's progress updates and sends them together, at most every {@link PROGRESS_INTERVAL_MS}. */
export class ProgressCoalescer {
  readonly #send: (update: StepProgressWire) => void;
  #pending: { output?: string; message?: string; progress?: number; total?: number } | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(send: (update: StepProgressWire) => void) {
    this.#send = send;
  }

  readonly report = (update: ProgressUpdate): void => {
    const pending = (this.#pending ??= {});
    const { output, ...status } = typeof update === 'string' ? { output: update } : update;
    if (output !== undefined) pending.output = ((pending.output ?? '') + output).slice(-MAX_PROGRESS_OUTPUT);
    Object.assign(pending, status);
    this.#timer ??= setTimeout(() => this.flush(), PROGRESS_INTERVAL_MS);
  };

  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending !== undefined) this.#send(this.#pending);
    this.#pending = undefined;
  }
}
