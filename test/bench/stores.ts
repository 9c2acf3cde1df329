/**
 * `withSession` overhead per turn on loopback, for each session store, with a session of 50
 * tasks and 200 read snapshots: a turn that changes nothing, so the time is the store's
 * (lease, load, save, release). Beside it, the reference: the same load and save without a
 * lease (the JSON file the Next.js example used to write; a plain SELECT and UPDATE; GET and
 * SET), which is what a host pays without one-turn-at-a-time. Postgres and Redis are started
 * by the bench on free ports and skipped when not installed.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createClient } from 'redis';
import { createPostgresSessionStore } from '../../adapters/postgres/index.js';
import { createRedisSessionStore } from '../../adapters/redis/index.js';
import { createFileSessionStore, createSession, createTaskListTools, restoreSession, runTool, type Session, type SessionJSON, type SessionStore } from '../../src/index.js';
import { POSTGRES_MISSING, REDIS_MISSING, startPostgres, startRedis } from '../stores/servers.js';
import { compare, ms, printTable, ratio, record, verdict } from './harness.js';

const TARGETS = { file: 2, Postgres: 5, Redis: 3 } as const;
const RUNS = { warmup: 10, runs: 51 };

/** A session of the size the target names: 50 tasks and 200 read snapshots. */
async function benchSession(id: string): Promise<Session> {
  const session = createSession({ id });
  const tasks = createTaskListTools();
  const add = tasks.tools.find((tool) => tool.name === 'task_add')!;
  const result = await runTool(add, { tasks: Array.from({ length: 50 }, (_, index) => ({ subject: `Task number ${index + 1} of the bench`, description: 'Details of what done looks like.' })) }, { session });
  if (result.isError) throw new Error(result.text);
  const reads = Object.fromEntries(
    Array.from({ length: 200 }, (_, index) => [`/work/project/src/module-${index}/index.ts`, { mtimeMs: 1_700_000_000_000 + index, size: 1000 + index, whole: true }]),
  );
  session.setState('files.reads', reads);
  return session;
}

/** Times an empty turn against `reference`, a plain load and save of the same JSON from where `seed` put it. */
async function measure(name: keyof typeof TARGETS, store: SessionStore, seed: (json: string) => Promise<unknown>, reference: () => Promise<void>): Promise<string[]> {
  const id = `bench-${randomUUID()}`;
  const session = await benchSession(id);
  await store.save(session);
  const json = JSON.stringify(session);
  await seed(json);
  const result = await compare(() => store.withSession(id, () => undefined), reference, RUNS);
  record({ suite: 'session stores', case: `withSession, ${name}`, ours: ms(result.ours), reference: ms(result.reference), ratio: ratio(result.ratio), target: `≤ ${TARGETS[name]} ms`, verdict: verdict(result.ours, TARGETS[name]) });
  return [name, `${(json.length / 1024).toFixed(0)} KB`, ms(result.ours), ms(result.reference), ratio(result.ratio), `≤ ${TARGETS[name]} ms`, verdict(result.ours, TARGETS[name])];
}

export async function run(): Promise<void> {
  const rows: string[][] = [['store', 'session', 'withSession', 'load + save, no lease', 'ratio', 'target', 'verdict']];

  const folder = await mkdtemp(path.join(tmpdir(), 'toolbelt-bench-stores-'));
  const fileStore = createFileSessionStore({ dir: path.join(folder, 'sessions') });
  const plain = path.join(folder, 'plain.json');
  rows.push(
    await measure('file', fileStore, (json) => writeFile(plain, json), async () => {
      const session = restoreSession(await readFile(plain, 'utf8'));
      await writeFile(`${plain}.tmp`, JSON.stringify(session));
      await rename(`${plain}.tmp`, plain);
    }),
  );
  await fileStore.close();
  await rm(folder, { recursive: true, force: true });

  if (POSTGRES_MISSING === undefined) {
    const server = await startPostgres();
    const store = createPostgresSessionStore({ connectionString: server.connectionString });
    const pool = new pg.Pool({ connectionString: server.connectionString });
    pool.on('error', () => undefined); // a connection still closing when the server stops
    await pool.query('CREATE TABLE plain_sessions (id text PRIMARY KEY, payload jsonb)');
    rows.push(
      await measure('Postgres', store, (json) => pool.query(`INSERT INTO plain_sessions VALUES ('x', $1::jsonb)`, [json]), async () => {
        const { rows: found } = await pool.query<{ payload: SessionJSON }>('SELECT payload FROM plain_sessions WHERE id = $1', ['x']);
        const session = restoreSession(found[0]!.payload);
        await pool.query('UPDATE plain_sessions SET payload = $2::jsonb WHERE id = $1', ['x', JSON.stringify(session)]);
      }),
    );
    await store.close();
    await pool.end();
    await server.destroy();
  } else {
    console.log(`Postgres skipped: ${POSTGRES_MISSING}.`);
  }

  if (REDIS_MISSING === undefined) {
    const server = await startRedis();
    const store = createRedisSessionStore({ url: server.url });
    const client = createClient({ url: server.url });
    await client.connect();
    rows.push(
      await measure('Redis', store, (json) => client.set('plain', json), async () => {
        const session = restoreSession((await client.get('plain'))!);
        await client.set('plain', JSON.stringify(session));
      }),
    );
    await store.close();
    await client.close();
    await server.destroy();
  } else {
    console.log(`Redis skipped: ${REDIS_MISSING}.`);
  }

  printTable(rows);
}
