/** Defaults every store takes, and each `withSession` call may override. */
export interface SessionStoreDefaults {
  /** @default 10_000 */
  readonly waitMs?: number;
  /** @default 5_000 */
  readonly leaseMs?: number;
  /** Idle sessions expire after this long; unset: never. */
  readonly ttlMs?: number;
  /**
   * How long one call to the storage system may take before it fails with a
   * `SessionStoreError`, so a store that stops answering is an error, not a hang.
   * @default 10_000
   */
  readonly operationTimeoutMs?: number;
}

/**
 * Default `waitMs`: long enough for a short turn to finish, short enough for a page to say
 * "busy"; twice {@link DEFAULT_SESSION_LEASE_MS}, so a turn that comes after a crashed one
 * outwaits the lease it left and runs.
 */
export const DEFAULT_SESSION_WAIT_MS = 10_000;
/**
 * Default `leaseMs`: how long a crashed holder can block its chat. A running turn renews its
 * lease every third of this (1.7 s), so it keeps it through an event-loop stall of up to
 * about two thirds of it (3.3 s).
 */
export const DEFAULT_SESSION_LEASE_MS = 5_000;
/** Default `operationTimeoutMs`. */
export const DEFAULT_SESSION_OPERATION_TIMEOUT_MS = 10_000;
/** The shortest lease: renewals every third of it must have time to reach the store. */
export const MIN_SESSION_LEASE_MS = 100;
/** The longest session id: ids are used as keys and file names. */
export const MAX_SESSION_ID_LENGTH = 512;

/** The settings one turn runs with. */
export interface ResolvedTurnOptions {
  readonly waitMs: number;
  readonly leaseMs: number;
  readonly ttlMs: number | undefined;
}

function describe(value: unknown): string {
  return `\`${typeof value === 'string' ? JSON.stringify(value) : String(value)}\` (${typeof value})`;
}

/** Checks `waitMs`, `leaseMs`, `ttlMs` and `operationTimeoutMs` where given; `where` names the call in messages. */
export function assertStoreTimings(options: Partial<Record<'waitMs' | 'leaseMs' | 'ttlMs' | 'operationTimeoutMs', unknown>>, where: string): void {
  const { waitMs, leaseMs, ttlMs, operationTimeoutMs } = options;
  if (waitMs !== undefined && !(Number.isSafeInteger(waitMs) && (waitMs as number) >= 0)) {
    throw new TypeError(`Expected the \`waitMs\` option of ${where} to be a whole number of milliseconds, 0 or more, got ${describe(waitMs)}.`);
  }
  if (leaseMs !== undefined && !(Number.isSafeInteger(leaseMs) && (leaseMs as number) >= MIN_SESSION_LEASE_MS)) {
    throw new TypeError(`Expected the \`leaseMs\` option of ${where} to be a whole number of milliseconds, at least ${MIN_SESSION_LEASE_MS}, got ${describe(leaseMs)}.`);
  }
  if (ttlMs !== undefined && !(Number.isSafeInteger(ttlMs) && (ttlMs as number) > 0)) {
    throw new TypeError(`Expected the \`ttlMs\` option of ${where} to be a positive whole number of milliseconds, or unset for no expiry, got ${describe(ttlMs)}.`);
  }
  if (operationTimeoutMs !== undefined && !(Number.isSafeInteger(operationTimeoutMs) && (operationTimeoutMs as number) > 0)) {
    throw new TypeError(`Expected the \`operationTimeoutMs\` option of ${where} to be a positive whole number of milliseconds, got ${describe(operationTimeoutMs)}.`);
  }
}

/** Checks a session id: a non-empty string of at most {@link MAX_SESSION_ID_LENGTH} characters. */
export function assertSessionId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_SESSION_ID_LENGTH) {
    throw new TypeError(`Expected the session id to be a non-empty string of at most ${MAX_SESSION_ID_LENGTH} characters, got ${describe(id)}.`);
  }
}
