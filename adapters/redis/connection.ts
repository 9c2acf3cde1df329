/**
 * The Redis store's connection: its own client made from a `url`, or a client of yours. The
 * store's own client fails a first connection at once (naming the refused address) instead of
 * retrying until the call times out, reconnects by itself once it has been connected, says in
 * words what a lost connection means for a call, and closes within the time it is given.
 */
import { createClient } from 'redis';

/** The part of a node-redis client the store uses; any `createClient()` client fits. */
export interface RedisSessionClient {
  sendCommand(args: readonly string[]): Promise<unknown>;
  readonly isOpen?: boolean;
  connect?(): Promise<unknown>;
}

/** A client and what the store needs around it. */
export interface RedisConnection {
  readonly client: RedisSessionClient;
  /** The error a failed command should report: the client's own, or a sentence about the lost connection. */
  explain(error: unknown): unknown;
  /** Closes the client if the store made it: gracefully within `timeoutMs`, else by destroying it. */
  close(timeoutMs: number): Promise<void>;
}

/** The longest pause between reconnection attempts of the store's own client. */
const RECONNECT_MAX_MS = 2_000;

function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

/** node-redis rejects a command sent while its connection is down with this, when it does not queue commands. */
function isOffline(error: unknown): boolean {
  return error instanceof Error && (error.constructor.name === 'ClientOfflineError' || error.message === 'The client is offline');
}

/** A client of yours: used as it is, its offline error put in words, never closed. */
export function givenConnection(client: RedisSessionClient): RedisConnection {
  return {
    client,
    explain: (error) =>
      isOffline(error)
        ? new Error('the Redis client you passed is offline (its connection to Redis is down, and it does not queue commands), so nothing was sent; it reconnects by its own reconnectStrategy', { cause: error })
        : error,
    close: async () => undefined,
  };
}

/** The store's own client for `url`, its calls bounded by `timeoutMs`. */
export function ownConnection(url: string, timeoutMs: number): RedisConnection {
  let everReady = false;
  let lost: { at: number; because: string } | undefined;
  let lastError = '';
  const client = createClient({
    url,
    // Fail commands while disconnected instead of queueing them, so a down server is an error, not a hang.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: Math.min(5_000, timeoutMs),
      // Until the first connection, a failed attempt ends connect() with its error, so the call that
      // needed it fails at once (the next call tries again); once connected, the client reconnects by itself.
      reconnectStrategy: (retries: number, cause: Error) => (everReady ? Math.min(50 * 2 ** retries, RECONNECT_MAX_MS) : cause),
    },
  });
  // Reported by the failing commands; without a listener an 'error' event would end the process.
  client.on('error', (error: Error) => {
    lastError = error.message;
    if (everReady && lost === undefined) lost = { at: Date.now(), because: error.message };
  });
  client.on('ready', () => {
    everReady = true;
    lost = undefined;
  });

  const explain = (error: unknown): unknown => {
    if (lost === undefined || !(error instanceof Error)) return error;
    const since = `the connection to Redis was lost ${seconds(Date.now() - lost.at)} ago (${lost.because})`;
    const still = lastError !== '' && lastError !== lost.because ? ` and is not back yet (${lastError})` : ' and is not back yet';
    const next = `the client reconnects by itself, every ${seconds(RECONNECT_MAX_MS)} at most, and the store works again once Redis answers`;
    if (isOffline(error)) return new Error(`${since}${still}, so nothing was sent; ${next}`, { cause: error });
    return new Error(`${since} while this call waited for its answer, so whether Redis did it is unknown; ${next}`, { cause: error });
  };

  const close = async (closeTimeoutMs: number): Promise<void> => {
    if (!client.isOpen) {
      client.destroy();
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), closeTimeoutMs)));
    const closed = await Promise.race([client.close().then(() => true, () => true), late]);
    clearTimeout(timer);
    // Closing waits for the answers to commands in flight, which a server that stopped answering never sends.
    if (!closed) client.destroy();
  };

  return { client: client as RedisSessionClient, explain, close };
}
