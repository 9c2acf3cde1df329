/**
 * Thrown by `store.save(session)` when the stored session changed since this copy was loaded
 * (another save came first). Nothing was written; load the session again, redo the change and
 * save that.
 */
export class SessionVersionError extends Error {
  override name = 'SessionVersionError';
  /** The session id. */
  readonly id: string;
  /** The version this copy was loaded at (0: never saved). */
  readonly expectedVersion: number;
  /** The version in the store. */
  readonly storedVersion: number;

  constructor(id: string, expectedVersion: number, storedVersion: number) {
    super(
      `Session ${JSON.stringify(id)} changed in the store since this copy was loaded (version ${storedVersion} is stored, this copy is version ${expectedVersion}), so it was not saved. Load it again, redo the change and save that, or use withSession, which does this one turn at a time.`,
    );
    this.id = id;
    this.expectedVersion = expectedVersion;
    this.storedVersion = storedVersion;
  }
}
