// Type tests for the session-store contract, checked by `npm run typecheck`.
import { expectTypeOf } from 'vitest';
import type { Session } from '../session.js';
import { createFileSessionStore } from './file-session-store.js';
import type { SessionStore, SessionTurn } from './session-store.js';

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
