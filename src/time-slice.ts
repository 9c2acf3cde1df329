/**
 * Long loops on the main thread (diffs, large replacements, a scan of `/proc`) run in slices of a few
 * milliseconds with a turn of the event loop between them, so one big edit never stalls the
 * other conversations a server is serving.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Milliseconds of work before a loop gives the event loop a turn. */
export const SLICE_MS = 4;

/** Calls of {@link TimeSlicer.due} between two reads of the clock (reading it costs more than a loop step). */
const CHECK_EVERY = 512;

/**
 * A time budget for one slice of work: call {@link TimeSlicer.due} in the loop (cheap) and,
 * when it says so, `await` {@link TimeSlicer.pause}.
 *
 * @example
 * const slicer = new TimeSlicer();
 * for (const item of items) {
 *   if (slicer.due()) await slicer.pause();
 *   work(item);
 * }
 */
export class TimeSlicer {
  #started = performance.now();
  #calls = 0;

  constructor(private readonly sliceMs: number = SLICE_MS) {}

  /** True when the current slice has used its time; reads the clock only every few hundred calls. */
  due(): boolean {
    this.#calls += 1;
    if (this.#calls < CHECK_EVERY) return false;
    this.#calls = 0;
    return performance.now() - this.#started >= this.sliceMs;
  }

  /** True when the current slice has used its time, reading the clock now: for loops whose steps are large. */
  dueNow(): boolean {
    return performance.now() - this.#started >= this.sliceMs;
  }

  /** Gives the event loop a turn and starts a new slice. */
  async pause(): Promise<void> {
    await nextTurn();
    this.#started = performance.now();
    this.#calls = 0;
  }
}
