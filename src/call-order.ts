import type { Session } from './session.js';
import type { ToolKind } from './tool.js';

/** Kinds that only look: calls of these kinds run side by side. */
const SHARED_KINDS: ReadonlySet<ToolKind> = new Set(['read', 'search', 'think', 'fetch']);

/** A place in the queue: wait for `ready`, call `release` when done (also when never started). */
export interface CallTurn {
  readonly ready: Promise<void>;
  readonly release: () => void;
}

/**
 * Keeps one session's tool calls in the order they arrive, as the model gave them: calls that
 * only look (read, search, think, fetch) run side by side; a call that may change something
 * (edit, delete, move, execute, other) waits for every call before it and holds back every
 * call after it, including while a person decides about its approval. So a `read_file`
 * placed after an approved `edit_file` in one batch reads the edit, even in frameworks that
 * start all calls of a step at once.
 */
export class CallQueue {
  /** Done when the newest changing call is done. */
  #lastChange: Promise<void> = Promise.resolve();
  /** The looking calls since that changing call. */
  #looks: Promise<void>[] = [];

  /** Takes the next place. Call synchronously, in arrival order. */
  enter(kind: ToolKind): CallTurn {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let ready: Promise<void>;
    if (SHARED_KINDS.has(kind)) {
      ready = this.#lastChange;
      this.#looks.push(ready.then(() => released));
    } else {
      ready = Promise.all([this.#lastChange, ...this.#looks]).then(() => undefined);
      // Done only after its turn came and it finished: a cancelled call never lets a later one jump ahead.
      this.#lastChange = ready.then(() => released);
      this.#looks = [];
    }
    return { ready, release };
  }
}

/** The session's queue. */
export function callQueueOf(session: Session): CallQueue {
  return session.live('call-order', () => new CallQueue());
}

/**
 * Runs `task` in its place in the session's call order (see {@link CallQueue}), or answers
 * `undefined` when `signal` aborts before its turn comes. `runTool` does this itself; an
 * adapter that does work of its own before `runTool` (an interrupt, a question) wraps that
 * work and passes `queued: true` to `runTool`, so the call keeps the place it took when the
 * framework started it.
 */
export async function withCallOrder<T>(
  session: Session,
  kind: ToolKind,
  signal: AbortSignal | undefined,
  task: () => Promise<T>,
): Promise<T | undefined> {
  // Taken before the first await, so calls keep the order in which they were started.
  const turn = callQueueOf(session).enter(kind);
  try {
    if (!(await waitForTurn(turn.ready, signal))) return undefined;
    return await task();
  } finally {
    turn.release();
  }
}

/** Waits for a turn; false when the signal aborts first. */
async function waitForTurn(ready: Promise<void>, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal === undefined) {
    await ready;
    return true;
  }
  if (signal.aborted) return false;
  let onAbort!: () => void;
  const aborted = new Promise<false>((resolve) => {
    onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([ready.then(() => true as const), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
