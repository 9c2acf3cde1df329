/**
 * Thrown when a turn's save is refused because its lease on the session was lost: it expired
 * (the holder stalled for longer than `leaseMs` without renewing) and another turn may have
 * taken it, or the session was deleted. The stored version stays as it was; the turn's
 * changes are dropped rather than written over a newer version.
 */
export class SessionLeaseLostError extends Error {
  override name = 'SessionLeaseLostError';
  /** The session id. */
  readonly id: string;
  /** The store, as its error messages name it. */
  readonly store: string;

  constructor(id: string, store: string, options?: { cause?: unknown }) {
    super(
      `The turn lost its lease on session ${JSON.stringify(id)} in ${store} (it expired or another turn took it), so its changes were not saved and the stored version stays. Run the turn again.`,
      options,
    );
    this.id = id;
    this.store = store;
  }
}
