/**
 * The search threads (the search worker and its walker) and the ripgrep host, with the
 * ripgrep programs it starts, run at a lower scheduling priority than the event loop's
 * thread, on Linux. They do the
 * heavy reading while the event loop's thread mostly waits; when the machine's cores are
 * all busy, a timer or a request due on the event loop then gets a core first instead of
 * waiting its turn behind the search (eight concurrent searches on two cores: the longest
 * event-loop delay fell by about half, measured under load). An idle machine runs them as
 * fast as before. Linux keeps a priority per thread; elsewhere the call would lower the
 * whole process, so it is left alone.
 */
import { getPriority, setPriority } from 'node:os';

/** How much lower (in nice steps) the search threads and ripgrep run than the thread that starts them. */
export const SEARCH_NICENESS_STEP = 10;

/** The lowest priority there is (the highest nice value). */
const LOWEST = 19;

/**
 * Lowers the calling thread's priority to {@link SEARCH_NICENESS_STEP} below the process's
 * main thread, on Linux (a thread started by one already lowered starts there, and stays).
 * Programs this thread starts inherit it. A refusal changes nothing.
 */
export function lowerThisThreadsPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const target = Math.min(LOWEST, getPriority(process.pid) + SEARCH_NICENESS_STEP);
    if (getPriority() < target) setPriority(target);
  } catch {
    // Not allowed here (a sandbox): the thread runs at its usual priority.
  }
}
