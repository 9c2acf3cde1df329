import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';

/** How long a question put to a modern client (an approval, `ask_user_question`) stays answerable: 10 minutes. */
export const REQUEST_STATE_TTL_SECONDS = 600;

/**
 * What a modern client carries between the rounds of one call: which call it is (the tool,
 * a digest of its arguments and the conversation) and a nonce that makes it single-use in
 * this process. Signed, so the client can read it but not change it.
 */
export interface CallState {
  readonly tool: string;
  readonly arguments: string;
  readonly conversation: string;
  readonly nonce: string;
}

/** Signs and checks {@link CallState}s; `verify` goes into the SDK's `requestState.verify` hook. */
export interface CallStateCodec {
  mint(state: Omit<CallState, 'nonce'>): Promise<string>;
  verify(state: string, context: ServerContext): Promise<CallState>;
}

// A server without keys of its own signs with a key made once per process: enough for stdio
// and for one instance; several instances need a shared key (`requestStateKeys`).
let processKey: string | undefined;

/**
 * A codec for the keys given, newest first: the first one signs, every one verifies, so a
 * key can be rotated (put the new one first, keep the previous one second) without breaking
 * calls whose question is still open. Each key must be at least 32 bytes.
 */
export function createCallStateCodec(keys: readonly (string | Uint8Array)[] | undefined): CallStateCodec {
  const used = keys === undefined || keys.length === 0 ? [(processKey ??= randomBytes(32).toString('base64url'))] : keys;
  const codecs: RequestStateCodec<CallState>[] = used.map((key) => createRequestStateCodec<CallState>({ key, ttlSeconds: REQUEST_STATE_TTL_SECONDS }));
  return {
    mint: (state) => codecs[0]!.mint({ ...state, nonce: randomUUID() }),
    async verify(state, context) {
      let failure: unknown;
      for (const codec of codecs) {
        try {
          return await codec.verify(state, context);
        } catch (error) {
          failure = error;
        }
      }
      throw failure;
    },
  };
}

/** Throws a `TypeError` naming the option when the request-state keys are not usable. */
export function assertRequestStateKeys(keys: unknown): void {
  if (keys === undefined) return;
  const usable = (key: unknown) => (typeof key === 'string' ? Buffer.byteLength(key) >= 32 : key instanceof Uint8Array && key.byteLength >= 32);
  if (!Array.isArray(keys) || keys.length === 0 || !keys.every(usable)) {
    throw new TypeError('Expected the `requestStateKeys` option to be a non-empty array of keys of at least 32 bytes each, newest first (`openssl rand -hex 32`).');
  }
}

/** A digest of a call's arguments, the same for the same JSON whatever the order of its keys. */
export function argumentsDigest(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The nonces of answered questions, so one answer is acted on once: a replay of the same
 * state is refused. Kept per process for the life of a state (its TTL); a state replayed to
 * another instance within that time is still bound to its call, its arguments and its
 * conversation.
 */
export class SpentStates {
  readonly #spent = new Map<string, number>();

  /** True the first time a nonce is spent, false after. */
  spend(nonce: string): boolean {
    const now = Date.now();
    for (const [key, expires] of this.#spent) if (expires < now) this.#spent.delete(key);
    if (this.#spent.has(nonce)) return false;
    this.#spent.set(nonce, now + REQUEST_STATE_TTL_SECONDS * 1000);
    return true;
  }
}
