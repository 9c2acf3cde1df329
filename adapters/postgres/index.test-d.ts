// Type tests for agent-toolbelt/stores/postgres, checked by `npm run typecheck`.
import pg from 'pg';
import { expectTypeOf } from 'vitest';
import type { SessionStore } from '../../src/index.js';
import { createPostgresSessionStore, type PostgresSessionStoreOptions } from './index.js';

expectTypeOf(createPostgresSessionStore({ connectionString: 'postgres://localhost/app' })).toEqualTypeOf<SessionStore>();
expectTypeOf(createPostgresSessionStore({ pool: new pg.Pool(), table: 'chat.sessions', leaseMs: 10_000 })).toEqualTypeOf<SessionStore>();
expectTypeOf<PostgresSessionStoreOptions['pool']>().toEqualTypeOf<pg.Pool | undefined>();
// @ts-expect-error the Postgres store takes a connectionString or a pool, not a url
createPostgresSessionStore({ url: 'postgres://localhost/app' });
