/**
 * How a test (or a child process of one) opens a store by plain JSON, so the same store can
 * be opened in another process.
 */
import type { SessionStore } from '../../src/stores/session-store.js';
import { createFileSessionStore } from '../../src/stores/file-session-store.js';
import type { SessionStoreDefaults } from '../../src/stores/store-options.js';
import { createPostgresSessionStore } from '../../adapters/postgres/index.js';
import { createRedisSessionStore } from '../../adapters/redis/index.js';

export type StoreConfig =
  | { readonly kind: 'file'; readonly dir: string }
  | { readonly kind: 'postgres'; readonly connectionString: string; readonly table?: string }
  | { readonly kind: 'redis'; readonly url: string; readonly prefix?: string };

/** Opens a new instance of the store `config` describes: another "server" sharing the same data. */
export function openStore(config: StoreConfig, defaults: SessionStoreDefaults = {}): SessionStore {
  switch (config.kind) {
    case 'file':
      return createFileSessionStore({ dir: config.dir, ...defaults });
    case 'postgres':
      return createPostgresSessionStore({ connectionString: config.connectionString, table: config.table, ...defaults });
    case 'redis':
      return createRedisSessionStore({ url: config.url, prefix: config.prefix, ...defaults });
  }
}
