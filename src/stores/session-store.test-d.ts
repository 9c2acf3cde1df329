// Type tests for the session-store contract, checked by `npm run typecheck`.
import { expectTypeOf } from 'vitest';
import type { SessionBusyError } from '../errors/session-busy-error.js';
import type { Session } from '../session.js';
import { createFileSessionStore } from './file-session-store.js';
import type { SessionStore, SessionTurn } from './session-store.js';
import type { SessionStoreBackend } from './store-backend.js';

const store = createFileSessionStore({ dir: '.sessions' });
expectTypeOf(store).toEqualTypeOf<SessionStore>();

// withSession returns what the turn returns, sync or async.
expectTypeOf(
  store.withSession('chat', (session, turn) => {
    expectTypeOf(session).toEqualTypeOf<Session>();
    expectTypeOf(turn).toEqualTypeOf<SessionTurn>();
    return 42;
  }),
).toEqualTypeOf<Promise<number>>();
expectTypeOf(store.withSession('chat', async () => 'done', { waitMs: 0, leaseMs: 5_000, ttlMs: 60_000 })).toEqualTypeOf<Promise<string>>();
expectTypeOf(store.load('chat')).toEqualTypeOf<Promise<Session | undefined>>();
expectTypeOf(store.save).returns.toEqualTypeOf<Promise<number>>();

// @ts-expect-error the turn's options have no `timeout`
void store.withSession('chat', () => undefined, { timeout: 5 });

// A busy error says what held the session, in fields a route can use (a Retry-After for a stale lease).
declare const busy: SessionBusyError;
expectTypeOf(busy.holder?.state).toEqualTypeOf<'running' | 'stale' | 'unknown' | undefined>();
expectTypeOf(busy.holder?.expiresInMs).toEqualTypeOf<number | undefined>();

// A backend's close is told how long it may take.
expectTypeOf<SessionStoreBackend['close']>().parameters.toEqualTypeOf<[timeoutMs: number]>();
