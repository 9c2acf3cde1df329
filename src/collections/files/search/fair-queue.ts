/**
 * The line of searches waiting for a search worker, fair between callers (issue 30): each
 * caller (a session) has its own line, and a worker that comes free goes to the caller whose
 * turn it is, in rotation, its oldest waiter first. A session that sends ten searches at once
 * then waits behind them itself, while another session's one search waits for at most one
 * search of each other caller, not for all ten.
 */

/** Waiters of type `T` grouped by caller (any value; `undefined` is one caller too), served round-robin. */
export class FairQueue<T> {
  /** Each caller's waiters, oldest first; the map's order is the rotation (the next caller first). */
  readonly #lines = new Map<unknown, T[]>();
  #length = 0;

  /** Waiters of every caller. */
  get length(): number {
    return this.#length;
  }

  /** Adds `item` at the end of `caller`'s line; a caller with no line yet joins the rotation last. */
  push(caller: unknown, item: T): void {
    const line = this.#lines.get(caller);
    if (line === undefined) this.#lines.set(caller, [item]);
    else line.push(item);
    this.#length += 1;
  }

  /** The oldest waiter of the caller whose turn it is, that caller moved to the end of the rotation. */
  shift(): T | undefined {
    const next = this.#lines.entries().next();
    if (next.done === true) return undefined;
    const [caller, line] = next.value;
    const item = line.shift()!;
    this.#lines.delete(caller);
    if (line.length > 0) this.#lines.set(caller, line);
    this.#length -= 1;
    return item;
  }

  /** Takes `item` out of its line (a wait given up); false when it is not waiting. */
  remove(item: T): boolean {
    for (const [caller, line] of this.#lines) {
      const index = line.indexOf(item);
      if (index === -1) continue;
      line.splice(index, 1);
      if (line.length === 0) this.#lines.delete(caller);
      this.#length -= 1;
      return true;
    }
    return false;
  }
}
