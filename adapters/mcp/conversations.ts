import { createHash } from 'node:crypto';
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import { createSession, type Session, type SessionStore } from '../../src/index.js';

/**
 * The `_meta` key a modern (2026-07-28) client may set on its requests to name the
 * conversation they belong to, when one user runs several at once:
 * `_meta: { 'agent-toolbelt/conversation': 'chat-42' }`. Without it, all of a user's
 * requests share one conversation.
 */
export const CONVERSATION_META_KEY = 'agent-toolbelt/conversation';

/** Where the sessions of the conversations a server serves live, one turn at a time. */
export interface Conversations {
  /** Runs `fn` with the conversation's session and keeps what it changed. */
  turn<T>(key: string, fn: (session: Session) => Promise<T>): Promise<T>;
}

/** Every conversation is the one session given (stdio, an embedded server). */
export function oneSession(session: Session): Conversations {
  return { turn: (_key, fn) => fn(session) };
}

/**
 * The conversations' sessions in this process's memory: one instance, nothing saved. At most
 * `limit` are kept; beyond it the one used longest ago is closed (its background jobs end).
 */
export function memoryConversations(limit: number): Conversations & { close(): Promise<void> } {
  const sessions = new Map<string, Session>();
  return {
    turn(key, fn) {
      let session = sessions.get(key);
      if (session === undefined) session = createSession();
      // Map order is use order: the first entry is the one used longest ago.
      sessions.delete(key);
      sessions.set(key, session);
      if (sessions.size > limit) {
        const [oldestKey, oldest] = sessions.entries().next().value!;
        sessions.delete(oldestKey);
        void oldest.close();
      }
      return fn(session);
    },
    async close() {
      await Promise.all([...sessions.values()].map((session) => session.close()));
      sessions.clear();
    },
  };
}

/** The conversations' sessions in a session store: any instance serves any request, one turn at a time. */
export function storeConversations(store: SessionStore): Conversations {
  return { turn: (key, fn) => store.withSession(key, (session) => fn(session)) };
}

/**
 * Who is calling, as a key: the OAuth subject or client the host verified (`authInfo`), else
 * `anonymous` (one shared bearer token, or none, is one user). Hashed, so no identifier or
 * token ends up in a store's keys.
 */
export function principalKey(authInfo: AuthInfo | undefined): string {
  const subject = callerOf(authInfo);
  return subject === undefined ? 'anonymous' : createHash('sha256').update(subject).digest('base64url').slice(0, 32);
}

/** Who the host verified the caller to be, as `sub:…` or `client:…`; `undefined` for no one (or one shared token). */
export function callerOf(authInfo: AuthInfo | undefined): string | undefined {
  return authInfo === undefined ? undefined : typeof authInfo.extra?.sub === 'string' ? `sub:${authInfo.extra.sub}` : `client:${authInfo.clientId}`;
}

/**
 * The key of the conversation a request belongs to. A 2025-era request over HTTP belongs to
 * its MCP session (`Mcp-Session-Id`). The 2026-07-28 revision has no session: a request
 * belongs to its user ({@link principalKey}) and the conversation it names in `_meta`
 * ({@link CONVERSATION_META_KEY}), `default` when it names none.
 */
export function conversationKey(context: ServerContext, modern: boolean, legacySessionId?: string): string {
  const sessionId = legacySessionId ?? context.sessionId;
  if (!modern && sessionId !== undefined) return legacySessionKey(sessionId, context.http?.authInfo);
  const named = context.mcpReq._meta?.[CONVERSATION_META_KEY];
  const conversation = typeof named === 'string' && named !== '' && named.length <= 200 ? named : 'default';
  return `mcp:${principalKey(context.http?.authInfo)}:${conversation}`;
}

/** The key of a 2025-era MCP session's conversation: its id, within its user's (an id reached by another user is another key). */
export function legacySessionKey(sessionId: string, authInfo: AuthInfo | undefined): string {
  return `mcp-session:${principalKey(authInfo)}:${sessionId}`;
}
