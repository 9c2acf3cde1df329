/**
 * Thrown by `store.withSession` when another turn of the same session still held its lease
 * after `waitMs`. A route handler answers it with 409 (Conflict): the user sends again once
 * the other turn has finished. Nothing was loaded or saved.
 */
export class SessionBusyError extends Error {
  override name = 'SessionBusyError';
  /** The session (chat) id. */
  readonly id: string;
  /** How long this turn waited for the lease, in milliseconds. */
  readonly waitMs: number;

  constructor(id: string, waitMs: number, options?: { cause?: unknown }) {
    super(
      `Session ${JSON.stringify(id)} is busy: another turn held it for all of the ${waitMs} ms this one waited. Send again once that turn has finished.`,
      options,
    );
    this.id = id;
    this.waitMs = waitMs;
  }
}
