/**
 * Real database servers for tests: PostgreSQL and Redis started in temp folders on free
 * loopback ports, stopped after. Shared by the session-store suites, the LangGraph test and
 * the Next.js two-server test.
 *
 * @example
 * describe.skipIf(POSTGRES_MISSING !== undefined)('…', () => {
 *   let postgres: PostgresServer;
 *   beforeAll(async () => { postgres = await startPostgres(); });
 *   afterAll(() => postgres?.stop());
 * });
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from '../support/free-port.js';

const POSTGRES_DIRS = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin', '/usr/local/bin', '/usr/bin'];

function findProgram(name: string, dirs: readonly string[]): string | undefined {
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

const postgresBin = (() => {
  for (const dir of POSTGRES_DIRS) if (existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'postgres'))) return dir;
  return undefined;
})();
const redisServer = findProgram('redis-server', ['/usr/bin', '/usr/local/bin', '/usr/sbin']);
const isRoot = userInfo().uid === 0;
/** Postgres refuses to run as root; as root the tests run it as this user. */
const postgresUser = isRoot ? systemUser('postgres') : undefined;

function systemUser(name: string): { uid: number; gid: number } | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/** Why the Postgres tests skip, or `undefined` when a server can be started here. */
export const POSTGRES_MISSING: string | undefined =
  postgresBin === undefined
    ? `PostgreSQL is not installed (no initdb/postgres in ${POSTGRES_DIRS.join(', ')}; apt-get install postgresql)`
    : isRoot && postgresUser === undefined
      ? 'PostgreSQL cannot run as root and there is no "postgres" user to run it as (useradd postgres)'
      : undefined;

/** Why the Redis tests skip, or `undefined` when a server can be started here. */
export const REDIS_MISSING: string | undefined = redisServer === undefined ? 'redis-server is not installed (apt-get install redis-server)' : undefined;

/** Resolves once something accepts TCP connections on the port, or rejects after `timeoutMs` or when `child` exits. */
async function waitForPort(port: number, child: ChildProcess, log: () => string, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before listening:\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not listen on 127.0.0.1:${port} within ${timeoutMs} ms:\n${log()}`);
}

function capture(child: ChildProcess): () => string {
  let output = '';
  child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  return () => output;
}

async function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** The process `pid` and every process below it (Linux: read from /proc). */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The fields after the command name, which may itself hold spaces and parentheses.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [pid];
  for (let index = 0; index < tree.length; index += 1) tree.push(...(children.get(tree[index]!) ?? []));
  return tree;
}

/** Sends `signal` to the server `child` and every process it started (Postgres serves each connection from a process of its own). */
function signalTree(child: ChildProcess | undefined, signal: NodeJS.Signals): void {
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  for (const pid of processTree(child.pid)) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** A running PostgreSQL server of a test. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  readonly connectionString: string;
  readonly port: number;
  /** Stops the server (a fast shutdown: the data stays on disk). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  restart(): Promise<void>;
  /** Freezes the server and every backend process with SIGSTOP: connections stay open, nothing answers. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

/** Starts a throwaway PostgreSQL (initdb in a temp folder, fsync off) on a free loopback port. */
export async function startPostgres(): Promise<PostgresServer> {
  if (POSTGRES_MISSING !== undefined) throw new Error(POSTGRES_MISSING);
  const root = await mkdtemp(path.join(tmpdir(), 'toolbelt-postgres-'));
  const data = path.join(root, 'data');
  if (postgresUser !== undefined) chownSync(root, postgresUser.uid, postgresUser.gid);
  const spawnOptions = postgresUser === undefined ? {} : { uid: postgresUser.uid, gid: postgresUser.gid };
  execFileSync(path.join(postgresBin!, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'], {
    ...spawnOptions,
    stdio: 'pipe',
    cwd: root,
  });
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      path.join(postgresBin!, 'postgres'),
      ['-D', data, '-p', String(port), '-k', root, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
      { ...spawnOptions, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await waitForPort(port, child, capture(child), 'postgres');
    // The port opens a moment before the server accepts logins; wait for "ready".
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const pid = await readFile(path.join(data, 'postmaster.pid'), 'utf8').catch(() => '');
      if (pid.split('\n')[7]?.trim() === 'ready') return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  await start();
  const stop = () => stopChild(child, 'SIGINT');
  return {
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    restart: start,
    pause: () => signalTree(child, 'SIGSTOP'),
    resume: () => signalTree(child, 'SIGCONT'),
    destroy: async () => {
      signalTree(child, 'SIGCONT');
      await stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** A running Redis server of a test. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server; with `save`, it writes its data first (`SHUTDOWN SAVE`), so `restart()` brings it back. */
  stop(options?: { save?: boolean }): Promise<void>;
  /** Starts it again on the same port and folder. */
  restart(): Promise<void>;
  /** Freezes the server with SIGSTOP: connections stay open, nothing answers. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

/** Starts a throwaway redis-server (no persistence unless asked) on a free loopback port. */
export async function startRedis(): Promise<RedisServer> {
  if (REDIS_MISSING !== undefined) throw new Error(REDIS_MISSING);
  const root = await mkdtemp(path.join(tmpdir(), 'toolbelt-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(redisServer!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', root], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await waitForPort(port, child, capture(child), 'redis-server');
  };
  await start();
  const stop = async (options: { save?: boolean } = {}) => {
    if (options.save === true && child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      await new Promise<void>((resolve) => {
        const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write('SHUTDOWN SAVE\r\n'));
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
      await exited;
      return;
    }
    await stopChild(child, 'SIGTERM');
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    restart: start,
    pause: () => signalTree(child, 'SIGSTOP'),
    resume: () => signalTree(child, 'SIGCONT'),
    destroy: async () => {
      signalTree(child, 'SIGCONT');
      await stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}
