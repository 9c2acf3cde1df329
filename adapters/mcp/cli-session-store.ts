import path from 'node:path';
import { createFileSessionStore, type SessionStore } from '../../src/index.js';
import type { SessionStoreSpec } from './cli-options.js';

/** The Postgres and Redis stores, as the package's own subpaths export them. */
interface DatabaseStores {
  createPostgresSessionStore?: (options: { connectionString: string }) => SessionStore;
  createRedisSessionStore?: (options: { url: string }) => SessionStore;
}

/**
 * Opens the store `--session-store` names. The database stores are loaded through the
 * package's own subpaths (`agent-toolbelt/stores/postgres`, `/stores/redis`), so their client
 * (`pg`, `redis`) is needed only by those who use them; a missing one is named with the
 * command that installs it.
 */
export async function openCliSessionStore(spec: SessionStoreSpec): Promise<SessionStore> {
  if (spec.kind === 'file') return createFileSessionStore({ dir: path.resolve(spec.dir) });
  const [subpath, client] = spec.kind === 'postgres' ? ['agent-toolbelt/stores/postgres', 'pg'] : ['agent-toolbelt/stores/redis', 'redis'];
  let stores: DatabaseStores;
  try {
    stores = (await import(subpath)) as DatabaseStores;
  } catch (error) {
    const missing = (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND';
    if (!missing) throw error;
    throw Object.assign(new Error(`\`--session-store ${spec.kind}://…\` needs the \`${client}\` package next to agent-toolbelt: \`npm install ${client}\` (or add \`-p ${client}\` to npx).`), { name: 'MissingDependencyError' });
  }
  return spec.kind === 'postgres' ? stores.createPostgresSessionStore!({ connectionString: spec.connectionString }) : stores.createRedisSessionStore!({ url: spec.url });
}

/**
 * The keys that sign modern clients' `requestState`, from `TOOLBELT_MCP_STATE_KEY` (signs) and
 * `TOOLBELT_MCP_STATE_KEY_PREVIOUS` (still accepted, for a rotation); none when unset (a key per
 * process, enough for one instance).
 */
export function requestStateKeysFromEnvironment(environment: NodeJS.ProcessEnv): string[] | undefined {
  const keys = [environment.TOOLBELT_MCP_STATE_KEY, environment.TOOLBELT_MCP_STATE_KEY_PREVIOUS].filter((key): key is string => key !== undefined && key !== '');
  if (keys.length === 0) return undefined;
  if (keys.some((key) => Buffer.byteLength(key) < 32)) {
    throw new TypeError('TOOLBELT_MCP_STATE_KEY and TOOLBELT_MCP_STATE_KEY_PREVIOUS must be at least 32 characters each (`openssl rand -hex 32`).');
  }
  return keys;
}
