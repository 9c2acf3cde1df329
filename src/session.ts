import { randomUUID } from 'node:crypto';

/** The serialised form of a {@link Session}: plain JSON, safe to store anywhere. */
export interface SessionJSON {
  readonly version: 1;
  readonly id: string;
  /** Each collection's state under its own key (`files`, `tasks`, …). */
  readonly state: Record<string, unknown>;
  /** Keys of calls the user approved with "always". */
  readonly approvals: readonly string[];
}

/** JSON that was parsed for one new session and that nothing else holds: its constructor need not copy it. */
const unshared = new WeakSet<SessionJSON>();

/**
 * The state of one conversation: the task list, the undo record, read snapshots, "always"
 * approvals and background jobs. Everything but live processes survives
 * `restoreSession(JSON.parse(JSON.stringify(session)))`, so a stateless route handler can
 * keep a conversation across requests.
 */
export class Session {
  readonly id: string;
  readonly #state: Map<string, unknown>;
  readonly #approvals: Set<string>;
  readonly #closers = new Set<() => void | Promise<void>>();
  readonly #live = new Map<string, unknown>();
  #closed = false;

  /** Use {@link createSession} or {@link restoreSession}. */
  constructor(json?: SessionJSON) {
    this.id = json?.id ?? randomUUID();
    // JSON parsed for this session alone is kept as it is; anything else may still be held by its caller, so it is copied.
    const copy = json !== undefined && unshared.delete(json) ? (value: unknown) => value : structuredClone;
    this.#state = new Map(Object.entries(json?.state ?? {}).map(([key, value]) => [key, copy(value)]));
    this.#approvals = new Set(json?.approvals ?? []);
  }

  /**
   * A collection's serialisable state, created with `create` on first use. The object is
   * stored as it is: mutate it in place and it is saved with the session.
   */
  state<T>(key: string, create: () => T): T {
    if (!this.#state.has(key)) this.#state.set(key, create());
    return this.#state.get(key) as T;
  }

  /** Replaces a collection's serialisable state. */
  setState(key: string, value: unknown): void {
    this.#state.set(key, value);
  }

  /**
   * Objects that live only as long as this process (running jobs, locks), created on first
   * use and never serialised.
   */
  live<T>(key: string, create: () => T): T {
    if (!this.#live.has(key)) this.#live.set(key, create());
    return this.#live.get(key) as T;
  }

  /** True when the user answered "always" for calls with this key. */
  isApproved(key: string): boolean {
    return this.#approvals.has(key);
  }

  /** Remembers an "always" decision. */
  approve(key: string): void {
    this.#approvals.add(key);
  }

  /** Forgets an "always" decision, so calls with this key ask again. Returns false when it was not remembered. */
  revoke(key: string): boolean {
    return this.#approvals.delete(key);
  }

  /** Keys of every remembered "always" decision. */
  get approvals(): readonly string[] {
    return [...this.#approvals];
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Runs `closer` when the session is closed (background jobs register here). Returns a function that unregisters it. */
  onClose(closer: () => void | Promise<void>): () => void {
    this.#closers.add(closer);
    return () => this.#closers.delete(closer);
  }

  /** Stops everything live in the session: background jobs end here. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closers = [...this.#closers];
    this.#closers.clear();
    await Promise.allSettled(closers.map(async (closer) => closer()));
  }

  toJSON(): SessionJSON {
    return {
      version: 1,
      id: this.id,
      state: Object.fromEntries([...this.#state].map(([key, value]) => [key, structuredClone(value)])),
      approvals: [...this.#approvals],
    };
  }

  /**
   * The JSON text of {@link toJSON}, without its copy of every collection's state: for a host
   * or a store that writes the text at once, this halves the work of saving a large session
   * (the copy is the longer half). `restoreSession(text)` brings it back.
   */
  toJSONText(): string {
    const json: SessionJSON = { version: 1, id: this.id, state: Object.fromEntries(this.#state), approvals: [...this.#approvals] };
    return JSON.stringify(json);
  }
}

/** Starts a conversation's state. */
export function createSession(options: { id?: string } = {}): Session {
  return new Session(options.id === undefined ? undefined : { version: 1, id: options.id, state: {}, approvals: [] });
}

/**
 * Brings back a session from `session.toJSON()` (or its JSON text). Running jobs are not
 * restored; everything else is.
 */
export function restoreSession(json: SessionJSON | string): Session {
  const value: unknown = typeof json === 'string' ? JSON.parse(json) : json;
  if (!isSessionJSON(value)) {
    throw new TypeError('Expected the output of `session.toJSON()`: an object with `version: 1`, `id`, `state` and `approvals`.');
  }
  if (typeof json === 'string') unshared.add(value);
  return new Session(value);
}

/**
 * Like {@link restoreSession}, for JSON its caller has just parsed and hands over: the session
 * keeps those objects instead of copying them, which for a large session is the longest step
 * of a load. Session stores use it; the caller must not touch `json` afterwards.
 */
export function restoreParsedSession(json: SessionJSON): Session {
  if (!isSessionJSON(json)) {
    throw new TypeError('Expected the output of `session.toJSON()`: an object with `version: 1`, `id`, `state` and `approvals`.');
  }
  unshared.add(json);
  return new Session(json);
}

function isSessionJSON(value: unknown): value is SessionJSON {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    candidate.version === 1 &&
    typeof candidate.id === 'string' &&
    typeof candidate.state === 'object' &&
    candidate.state !== null &&
    Array.isArray(candidate.approvals)
  );
}
