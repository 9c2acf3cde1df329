// Type tests for agent-toolbelt/stores/redis, checked by `npm run typecheck`.
import { createClient } from 'redis';
import { expectTypeOf } from 'vitest';
import type { SessionStore } from '../../src/index.js';
import { createRedisSessionStore } from './index.js';

expectTypeOf(createRedisSessionStore({ url: 'redis://localhost' })).toEqualTypeOf<SessionStore>();
// Any createClient() client fits, with or without modules.
expectTypeOf(createRedisSessionStore({ client: createClient(), prefix: 'app:', ttlMs: 60_000 })).toEqualTypeOf<SessionStore>();
// @ts-expect-error the Redis store takes a url or a client, not a pool
createRedisSessionStore({ pool: {} });
