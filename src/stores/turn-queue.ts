import { SessionBusyError } from '../errors/session-busy-error.js';
import { describeHolder, type LeaseRefusal, runningHere } from './lease-holder.js';

/**
 * The turns of one store waiting for the same session, in the order they came: only the
 * first in line talks to the storage system, and when it is done the next one goes. Fifty
 * concurrent turns of one chat in a process are then one contender for the lease, not fifty
 * woken at once to race each other (and the turn that holds it) for the same connections.
 */
export interface TurnPlace {
  /** The lease was taken: this turn now runs. */
  running(): void;
  /** The storage system refused the lease; a turn behind this one that gives up says who held it. */
  heard(refusal: LeaseRefusal): void;
  /** Leaves the line, letting the next turn go. Call once the lease is released. */
  leave(): void;
}

interface Place {
  wake(): void;
  startedAt: number | undefined;
}

interface Line {
  readonly places: Place[];
  refusal: LeaseRefusal | undefined;
}

export class TurnQueue {
  readonly #lines = new Map<string, Line>();

  /**
   * Joins the line of session `id` and resolves when this turn is first in it. Throws
   * `SessionBusyError` when `deadline` passes first (saying what holds the session), or the
   * signal's reason when it aborts.
   */
  async enter(id: string, waitMs: number, deadline: number, signal: AbortSignal | undefined): Promise<TurnPlace> {
    signal?.throwIfAborted();
    let line = this.#lines.get(id);
    if (line === undefined) this.#lines.set(id, (line = { places: [], refusal: undefined }));
    const place: Place = { wake: () => undefined, startedAt: undefined };
    line.places.push(place);
    if (line.places[0] !== place) await this.#wait(id, line, place, waitMs, deadline, signal);
    return {
      running: () => {
        place.startedAt = Date.now();
        line.refusal = undefined;
      },
      heard: (refusal) => (line.refusal = refusal),
      leave: () => this.#leave(id, line, place),
    };
  }

  async #wait(id: string, line: Line, place: Place, waitMs: number, deadline: number, signal: AbortSignal | undefined): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        let woken = false;
        place.wake = () => {
          woken = true;
          resolve();
        };
        // Once woken this turn is first in line, and leaves it only through leave().
        const giveUp = (error: unknown) => {
          if (woken) return;
          line.places.splice(line.places.indexOf(place), 1);
          reject(error);
        };
        timer = setTimeout(() => giveUp(this.#busy(id, line, waitMs)), Math.max(0, deadline - Date.now()));
        onAbort = () => giveUp(signal!.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
    }
  }

  #busy(id: string, line: Line, waitMs: number): SessionBusyError {
    const first = line.places[0];
    const now = Date.now();
    const holder = first?.startedAt !== undefined ? runningHere(now - first.startedAt) : describeHolder(line.refusal, now);
    return new SessionBusyError(id, waitMs, { holder });
  }

  #leave(id: string, line: Line, place: Place): void {
    const index = line.places.indexOf(place);
    if (index === -1) return;
    line.places.splice(index, 1);
    if (line.places.length === 0) {
      if (this.#lines.get(id) === line) this.#lines.delete(id);
      return;
    }
    if (index === 0) line.places[0]!.wake();
  }
}
