/**
 * Measures how long the event loop stays blocked while an async call runs, for tests that hold
 * heavy paths (big edits and writes, concurrent searches, output floods) to the rule that no
 * call blocks the event loop for more than 20 ms.
 */
import { performance } from 'node:perf_hooks';

/** What {@link measureEventLoopBlock} saw. */
export interface EventLoopBlock<T> {
  /** What the measured function resolved to. */
  readonly result: T;
  /**
   * The longest stretch, in milliseconds, during which the event loop could not run a timer:
   * the largest gap between two probe ticks minus the probe's own interval. A call that never
   * blocks reads about 0–2 ms on an idle machine; a 100 ms synchronous loop reads about 100.
   */
  readonly maxDelayMs: number;
  /**
   * The most CPU time this thread spent inside one such stretch, in milliseconds: the part of a
   * block that is the call's own work (and garbage collection on this thread). On a machine
   * shared with other busy processes a block also holds the time the thread waited for a core;
   * this figure leaves that out, so it tells the two apart.
   */
  readonly maxBusyMs: number;
  /** Wall time of the call, in milliseconds. */
  readonly elapsedMs: number;
}

/** The probe's timer interval. 1 ms is the finest a Node.js timer goes. */
const PROBE_INTERVAL_MS = 1;

/**
 * Runs `action` and measures the longest event-loop block while it runs, with a 1 ms timer
 * probe: each tick records the time since the previous tick, so any synchronous work that holds
 * the thread (including work done before `action`'s first `await`, and work done just before it
 * settles) shows as one long gap. The probe keeps running until one tick after `action` settles,
 * so a block at the very end is counted too.
 *
 * Why a timer probe and not `perf_hooks.monitorEventLoopDelay`: the histogram only records when
 * its own timer fires, and a block right before the measured promise settles lands after the
 * caller has already disabled it; the probe's last tick closes that gap. Bounds in tests should
 * be generous (the machine is shared): the exact figures belong in the bench.
 *
 * Rejects with `action`'s own error when it throws or rejects.
 */
export async function measureEventLoopBlock<T>(action: () => Promise<T> | T): Promise<EventLoopBlock<T>> {
  let maxGap = 0;
  let maxBusy = 0;
  let last = performance.now();
  let lastCpu = process.threadCpuUsage();
  let timer: NodeJS.Timeout | undefined;
  let stopping: (() => void) | undefined;
  const tick = (): void => {
    const now = performance.now();
    const cpu = process.threadCpuUsage(lastCpu);
    maxGap = Math.max(maxGap, now - last);
    maxBusy = Math.max(maxBusy, (cpu.user + cpu.system) / 1000);
    last = now;
    lastCpu = process.threadCpuUsage();
    if (stopping) {
      stopping();
      return;
    }
    timer = setTimeout(tick, PROBE_INTERVAL_MS);
  };
  timer = setTimeout(tick, PROBE_INTERVAL_MS);
  const started = performance.now();
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await action() };
  } catch (error) {
    outcome = { ok: false, error };
  }
  const elapsedMs = performance.now() - started;
  await new Promise<void>((resolve) => {
    stopping = resolve;
  });
  clearTimeout(timer);
  if (!outcome.ok) throw outcome.error;
  // Node.js timers fire no sooner than 1 ms after they are set, so a gap's first
  // millisecond is the probe's own wait, not a block.
  return { result: outcome.value, maxDelayMs: Math.max(0, maxGap - PROBE_INTERVAL_MS), maxBusyMs: maxBusy, elapsedMs };
}
