/**
 * What held a session when a turn gave up waiting for it, as far as the store could tell.
 *
 * - `running`: a turn holds it and is alive: it runs in this store, or it renewed its lease
 *   on schedule (every third of its `leaseMs`).
 * - `stale`: a lease whose turn stopped renewing it: the turn ended without releasing it (the
 *   store was unreachable then), or its process died or stalled. It expires by itself in
 *   `expiresInMs`.
 * - `unknown`: a lease the store cannot describe (taken by an older version of the store).
 */
export interface SessionHolder {
  readonly state: 'running' | 'stale' | 'unknown';
  /** True when the holder is a turn of this process. */
  readonly thisProcess: boolean;
  /** The holder's process id and host name, when its lease says. */
  readonly pid?: number;
  readonly host?: string;
  /** How long ago the lease was taken or last renewed, when known. */
  readonly renewedMsAgo?: number;
  /** How long the holder's turn has run, when it runs in this store. */
  readonly runningForMs?: number;
  /** When the lease runs out unless its holder renews it, when known. */
  readonly expiresInMs?: number;
}

/**
 * Thrown by `store.withSession` when another turn of the same session still held its lease
 * after `waitMs`. A route handler answers it with 409 (Conflict): the user sends again once
 * the other turn has finished (for a `stale` holder, once its lease has expired). Nothing was
 * loaded or saved. The message and `holder` say what held the session.
 */
export class SessionBusyError extends Error {
  override name = 'SessionBusyError';
  /** The session (chat) id. */
  readonly id: string;
  /** How long this turn waited for the lease, in milliseconds. */
  readonly waitMs: number;
  /** What held the session, when the store could tell. */
  readonly holder: SessionHolder | undefined;

  constructor(id: string, waitMs: number, options?: { cause?: unknown; holder?: SessionHolder }) {
    super(busyMessage(id, waitMs, options?.holder), options);
    this.id = id;
    this.waitMs = waitMs;
    this.holder = options?.holder;
  }
}

function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

function busyMessage(id: string, waitMs: number, holder: SessionHolder | undefined): string {
  const session = `Session ${JSON.stringify(id)} is busy`;
  const waited = `this one waited ${waitMs} ms`;
  if (holder === undefined) return `${session}: another turn held it for all of the ${waitMs} ms this one waited. Send again once that turn has finished.`;
  const who = holder.thisProcess ? 'a turn in this process' : holder.pid === undefined ? 'another turn' : `a turn in process ${holder.pid}${holder.host === undefined ? '' : ` on ${holder.host}`}`;
  if (holder.state === 'stale') {
    const silent = holder.renewedMsAgo === undefined ? '' : ` for ${seconds(holder.renewedMsAgo)}`;
    return (
      `${session}: its lease is held by ${who} that has not renewed it${silent} (the turn ended without releasing it, or its process died or stalled), ` +
      `and expires in ${seconds(holder.expiresInMs ?? 0)}; ${waited}. Send again after that.`
    );
  }
  if (holder.state === 'running') {
    const since = holder.runningForMs !== undefined ? `has been running for ${seconds(holder.runningForMs)}` : `is running (it renewed its lease ${seconds(holder.renewedMsAgo ?? 0)} ago)`;
    return `${session}: ${who} ${since}; ${waited}. Send again once that turn has finished.`;
  }
  const expiry = holder.expiresInMs === undefined ? '' : `, which expires in ${seconds(holder.expiresInMs)} unless renewed`;
  return `${session}: another turn holds its lease${expiry}; ${waited}. Send again once that turn has finished.`;
}
