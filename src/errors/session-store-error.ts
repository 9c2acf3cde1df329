/**
 * A session store that could not do what was asked: the database or server is down or
 * refused the request, or the folder cannot be written. The message names the store and the
 * operation; `cause` is the client's own error. The stored data is left as the last
 * successful save wrote it.
 */
export class SessionStoreError extends Error {
  override name = 'SessionStoreError';
  /** The store, e.g. `the Postgres session store (table toolbelt_sessions at 127.0.0.1:5432)`. */
  readonly store: string;
  /** What was being done: `load`, `save`, `delete`, `lease`, `renew` or `release`. */
  readonly operation: string;
  /** The session id, when the operation had one. */
  readonly id: string | undefined;

  constructor(store: string, operation: string, id: string | undefined, cause: unknown) {
    const what = id === undefined ? operation : `${operation} session ${JSON.stringify(id)}`;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`${capitalise(store)} failed to ${what}: ${reason || 'no reason given'}`, { cause });
    this.store = store;
    this.operation = operation;
    this.id = id;
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
