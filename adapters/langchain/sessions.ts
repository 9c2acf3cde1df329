import { createSession, type Session, type SessionStore } from '../../src/index.js';

/** Finds the session of a LangGraph thread: the run's `thread_id`, or `undefined` when the run has none. */
export type SessionResolver = (threadId: string | undefined) => Session | Promise<Session>;

/** How the adapter finds a run's session; see {@link toLangChain}. */
export interface SessionOptions {
  /** One session for every run, whatever its thread. */
  readonly session?: Session;
  /**
   * The session of a thread, for hosts that keep sessions in a store next to their
   * checkpointer (load it here, save `session.toJSON()` after the run).
   */
  readonly sessionFor?: SessionResolver;
  /**
   * Keeps each thread's session in a store (`createFileSessionStore`,
   * `createPostgresSessionStore`, `createRedisSessionStore`) under its `thread_id`, next to
   * your checkpointer: loaded at the start of each run (or the first call that needs it),
   * saved after each tool call and at the end of the run, so a thread resumed in another
   * process keeps its task list and "always" approvals. Saves are versioned: a save over a
   * version another process wrote in the meantime fails with `SessionVersionError` instead
   * of losing it. Runs without a `thread_id` get a session kept in memory.
   */
  readonly sessionStore?: SessionStore;
}

/**
 * The resolver the tools and the middleware share; with a `sessionStore`, also the points
 * where a thread's session is loaded again and saved.
 */
export interface ThreadSessions {
  (threadId: string | undefined): Session | Promise<Session>;
  /** Saves the thread's session (after a tool call, at the end of a run); only with a store. */
  readonly persist?: (threadId: string | undefined) => Promise<void>;
  /** Drops this process's copy, so the run about to start loads the stored version; only with a store. */
  readonly refresh?: (threadId: string | undefined) => Promise<void>;
}

/** The key runs without a `thread_id` share in the default in-memory store. */
const NO_THREAD = '';

/**
 * Builds the resolver the tools and the middleware share. Without `session` or `sessionFor`,
 * each `thread_id` gets its own session, kept in memory for the life of the adapter, so the
 * task list and "always" approvals of two threads never mix and follow a checkpointer's thread.
 */
export function createSessionResolver(options: SessionOptions): ThreadSessions {
  if (options.session !== undefined && options.sessionFor !== undefined) {
    throw new TypeError('Expected either the `session` option or the `sessionFor` option, got both. Give `session` for one conversation or `sessionFor` to resolve one per thread.');
  }
  if (options.sessionStore !== undefined && (options.session !== undefined || options.sessionFor !== undefined)) {
    throw new TypeError(
      `Expected either the \`sessionStore\` option or the \`${options.session === undefined ? 'sessionFor' : 'session'}\` option, got both. Give \`sessionStore\` to keep one session per thread in a store, or leave it out.`,
    );
  }
  if (options.sessionStore !== undefined) return storedSessions(options.sessionStore);
  if (options.session !== undefined) {
    const session = options.session;
    if (typeof session !== 'object' || session === null || typeof session.state !== 'function') {
      throw new TypeError(`Expected the \`session\` option to be a Session from \`createSession()\`, got \`${String(session)}\` (${typeof session}).`);
    }
    return () => session;
  }
  if (options.sessionFor !== undefined) {
    if (typeof options.sessionFor !== 'function') {
      throw new TypeError(`Expected the \`sessionFor\` option to be a function of the thread id, got \`${String(options.sessionFor)}\` (${typeof options.sessionFor}).`);
    }
    const resolve = options.sessionFor;
    return async (threadId) => {
      const session = await resolve(threadId);
      if (typeof session !== 'object' || session === null || typeof session.state !== 'function') {
        throw new TypeError(`Expected \`sessionFor(${JSON.stringify(threadId)})\` to return a Session, got \`${String(session)}\`.`);
      }
      return session;
    };
  }
  const sessions = new Map<string, Session>();
  return (threadId) => {
    const key = threadId ?? NO_THREAD;
    let session = sessions.get(key);
    if (session === undefined) {
      session = threadId === undefined ? createSession() : createSession({ id: threadId });
      sessions.set(key, session);
    }
    return session;
  };
}

/** One session per thread, loaded from the store and saved back to it, one save at a time per thread. */
function storedSessions(store: SessionStore): ThreadSessions {
  if (typeof store !== 'object' || store === null || typeof store.load !== 'function' || typeof store.save !== 'function') {
    throw new TypeError(`Expected the \`sessionStore\` option to be a session store such as createFileSessionStore({ dir }), got \`${String(store)}\` (${typeof store}).`);
  }
  const threads = new Map<string, { session: Promise<Session>; saving: Promise<void> }>();
  const unthreaded = createSession();
  const entry = (threadId: string) => {
    let found = threads.get(threadId);
    if (found === undefined) {
      const session = store.load(threadId).then((loaded) => loaded ?? createSession({ id: threadId }));
      found = { session, saving: Promise.resolve() };
      threads.set(threadId, found);
      // A failed load is not kept: the next call tries again.
      session.catch(() => threads.get(threadId) === found && threads.delete(threadId));
    }
    return found;
  };
  const resolve = (threadId: string | undefined) => (threadId === undefined ? unthreaded : entry(threadId).session);
  return Object.assign(resolve, {
    persist: async (threadId: string | undefined) => {
      const found = threadId === undefined ? undefined : threads.get(threadId);
      if (found === undefined) return;
      const saved = found.saving.then(async () => {
        await store.save(await found.session);
      });
      found.saving = saved.catch(() => undefined);
      await saved;
    },
    refresh: async (threadId: string | undefined) => {
      const found = threadId === undefined ? undefined : threads.get(threadId);
      if (found === undefined) return;
      await found.saving;
      if (threads.get(threadId!) === found) threads.delete(threadId!);
    },
  });
}

/** The `thread_id` of a LangGraph run config, when it has one. */
export function threadIdOf(configurable: Record<string, unknown> | undefined): string | undefined {
  const threadId = configurable?.thread_id;
  return typeof threadId === 'string' || typeof threadId === 'number' ? String(threadId) : undefined;
}
