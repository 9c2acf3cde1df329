import { createSession, type Session } from '../../src/index.js';

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
}

/** The key runs without a `thread_id` share in the default in-memory store. */
const NO_THREAD = '';

/**
 * Builds the resolver the tools and the middleware share. Without `session` or `sessionFor`,
 * each `thread_id` gets its own session, kept in memory for the life of the adapter, so the
 * task list and "always" approvals of two threads never mix and follow a checkpointer's thread.
 */
export function createSessionResolver(options: SessionOptions): SessionResolver {
  if (options.session !== undefined && options.sessionFor !== undefined) {
    throw new TypeError('Expected either the `session` option or the `sessionFor` option, got both. Give `session` for one conversation or `sessionFor` to resolve one per thread.');
  }
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

/** The `thread_id` of a LangGraph run config, when it has one. */
export function threadIdOf(configurable: Record<string, unknown> | undefined): string | undefined {
  const threadId = configurable?.thread_id;
  return typeof threadId === 'string' || typeof threadId === 'number' ? String(threadId) : undefined;
}
