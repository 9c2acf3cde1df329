/**
 * `withSession` overhead per turn on loopback, for each session store, with a session of 50
 * tasks and 200 read snapshots: a turn that changes nothing, so the time is the store's
 * (lease, load, save, release). Beside it, the reference: the same load and save without a
 * lease (the JSON file the Next.js example used to write; a plain SELECT and UPDATE; GET and
 * SET), which is what a host pays without one-turn-at-a-time. For the file store, a row with
 * the difference of the two medians: what the lease itself costs. Postgres and Redis are
 * started by the bench on free ports and skipped when not installed.
 *
 * Then the file store with a 1 MB session, twice: one large text (cheap JSON, so the time is
 * the store's file work) and 9,000 read snapshots (many small objects, so the time is the
 * session's own copying and JSON, which every store pays); with the longest event-loop block
 * of a turn, which the synchronous file calls must keep far below 20 ms.
 *
 * Then contention, as issue 27 measured it: two processes, each opening the store with
 * default options, start 50 concurrent turns each on one chat at the same moment; the time
 * from go to the last turn's end, divided by 100, is the time of a turn under contention (the
 * median of a few rounds, each in fresh processes warmed up with 30 turns), beside how many
 * of the 100 landed.
 *
 *   node --import tsx -e "await (await import('./test/bench/stores.ts')).run()"
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
import { startTurns } from '../stores/children.js';
import { POSTGRES_MISSING, REDIS_MISSING, startPostgres, startRedis } from '../stores/servers.js';
import type { StoreConfig } from '../stores/store-config.js';
import { measureEventLoopBlock } from '../support/event-loop.js';
import { compare, median, ms, printTable, ratio, record, verdict } from './harness.js';

const TARGETS = { file: 2, Postgres: 5, Redis: 3 } as const;
const RUNS = { warmup: 20, runs: 201 };
/** Turns of a 1 MB session, after two of warm-up. */
const LARGE_RUNS = 21;
/** Rounds of the contention case: each two fresh processes of 50 concurrent turns. */
const CONTENTION_ROUNDS = 5;
/** Issue 27: a turn under contention within a few ms of Redis. */
const CONTENTION_TARGET_OVER_REDIS_MS = 3;

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
async function measure(name: keyof typeof TARGETS, store: SessionStore, seed: (json: string) => Promise<unknown>, reference: () => Promise<void>): Promise<string[][]> {
  const id = `bench-${randomUUID()}`;
  const session = await benchSession(id);
  await store.save(session);
  const json = JSON.stringify(session);
  await seed(json);
  const result = await compare(() => store.withSession(id, () => undefined), reference, RUNS);
  record({ suite: 'session stores', case: `withSession, ${name}`, ours: ms(result.ours), reference: ms(result.reference), ratio: ratio(result.ratio), target: `≤ ${TARGETS[name]} ms`, verdict: verdict(result.ours, TARGETS[name]) });
  const size = `${(json.length / 1024).toFixed(0)} KB`;
  const rows = [[name, size, ms(result.ours), ms(result.reference), ratio(result.ratio), `≤ ${TARGETS[name]} ms`, verdict(result.ours, TARGETS[name])]];
  if (name === 'file') rows.push(['file, the lease alone', size, ms(result.ours - result.reference), '-', '-', '-', '-']);
  return rows;
}

/** A 1 MB session: one large text, or many small read snapshots. */
function largeSession(id: string, shape: 'text' | 'snapshots'): Session {
  const session = createSession({ id });
  if (shape === 'text') session.setState('notes', { text: 'a line of notes. '.repeat(65_536) });
  else session.setState('files.reads', Object.fromEntries(Array.from({ length: 9_000 }, (_, index) => [`/work/project/src/module-${index}/index.ts`, { mtimeMs: 1_700_000_000_000 + index, size: 1000 + index, whole: true }])));
  return session;
}

/** Turns of a 1 MB session in the file store: the median time and the median of each turn's longest event-loop block. */
async function measureLarge(dir: string, shape: 'text' | 'snapshots'): Promise<string[]> {
  const store = createFileSessionStore({ dir });
  const session = largeSession(shape, shape);
  await store.save(session);
  const times: number[] = [];
  const blocks: number[] = [];
  for (let turn = 0; turn < LARGE_RUNS + 2; turn += 1) {
    const { maxDelayMs, elapsedMs } = await measureEventLoopBlock(() => store.withSession(shape, () => undefined));
    if (turn < 2) continue;
    times.push(elapsedMs);
    blocks.push(maxDelayMs);
  }
  await store.close();
  const label = shape === 'text' ? 'one large text' : '9,000 read snapshots';
  return [`file, ${label}`, `${(JSON.stringify(session).length / 1e6).toFixed(2)} MB`, ms(median(times)), ms(median(blocks)), shape === 'text' ? 'far below 20 ms' : '-'];
}

/** One round: two processes, 50 concurrent turns each on one chat, started together. */
async function contentionRound(config: StoreConfig): Promise<{ perTurnMs: number; landed: number }> {
  const id = `contention-${randomUUID()}`;
  const children = [startTurns(config, id, 'first', 50, 30), startTurns(config, id, 'second', 50, 30)];
  try {
    await Promise.all(children.map((child) => child.ready));
    for (const child of children) child.go();
    const outcomes = await Promise.all(children.map((child) => child.outcome));
    return { perTurnMs: Math.max(...outcomes.map((outcome) => outcome.elapsedMs)) / 100, landed: outcomes.reduce((sum, outcome) => sum + outcome.landed, 0) };
  } finally {
    for (const child of children) child.process.kill('SIGKILL');
  }
}

/** The contention case for one store: the median time of a turn over the rounds, its range, and the fewest turns that landed. */
async function measureContention(name: string, config: StoreConfig): Promise<{ name: string; median: number; row: string[] }> {
  const rounds: Array<{ perTurnMs: number; landed: number }> = [];
  for (let round = 0; round < CONTENTION_ROUNDS; round += 1) rounds.push(await contentionRound(config));
  const times = rounds.map((round) => round.perTurnMs);
  const landed = Math.min(...rounds.map((round) => round.landed));
  return { name, median: median(times), row: [name, ms(median(times)), `${ms(Math.min(...times))}–${ms(Math.max(...times))}`, `${landed} of 100`] };
}

/** The contention table, with Postgres's target set by Redis's figure. */
function contentionTable(results: Array<{ name: string; median: number; row: string[] }>): string[][] {
  const redis = results.find((result) => result.name === 'Redis');
  const rows = [['store', 'a turn, 2 processes × 50 on one chat', 'range of rounds', 'landed (worst round)', 'target', 'verdict']];
  for (const result of results) {
    const target = result.name === 'Postgres' && redis !== undefined ? redis.median + CONTENTION_TARGET_OVER_REDIS_MS : undefined;
    rows.push([...result.row, target === undefined ? '-' : `≤ ${ms(target)} (Redis + ${CONTENTION_TARGET_OVER_REDIS_MS} ms)`, target === undefined ? '-' : verdict(result.median, target)]);
    if (target !== undefined) record({ suite: 'session stores', case: 'a turn under contention, Postgres', ours: ms(result.median), reference: ms(redis!.median), ratio: ratio(result.median / redis!.median), target: `≤ Redis + ${CONTENTION_TARGET_OVER_REDIS_MS} ms`, verdict: verdict(result.median, target) });
  }
  return rows;
}

export async function run(): Promise<void> {
  const rows: string[][] = [['store', 'session', 'withSession', 'load + save, no lease', 'ratio', 'target', 'verdict']];

  const folder = await mkdtemp(path.join(tmpdir(), 'toolbelt-bench-stores-'));
  const fileStore = createFileSessionStore({ dir: path.join(folder, 'sessions') });
  const plain = path.join(folder, 'plain.json');
  rows.push(
    ...await measure('file', fileStore, (json) => writeFile(plain, json), async () => {
      const session = restoreSession(await readFile(plain, 'utf8'));
      await writeFile(`${plain}.tmp`, JSON.stringify(session));
      await rename(`${plain}.tmp`, plain);
    }),
  );
  await fileStore.close();
  const contention = [await measureContention('file', { kind: 'file', dir: path.join(folder, 'contention') })];
  const large = [
    ['store', 'session', 'withSession', 'longest event-loop block', 'target'],
    await measureLarge(path.join(folder, 'large'), 'text'),
    await measureLarge(path.join(folder, 'large'), 'snapshots'),
  ];
  await rm(folder, { recursive: true, force: true });

  if (POSTGRES_MISSING === undefined) {
    const server = await startPostgres();
    const store = createPostgresSessionStore({ connectionString: server.connectionString });
    const pool = new pg.Pool({ connectionString: server.connectionString });
    pool.on('error', () => undefined); // a connection still closing when the server stops
    await pool.query('CREATE TABLE plain_sessions (id text PRIMARY KEY, payload jsonb)');
    rows.push(
      ...await measure('Postgres', store, (json) => pool.query(`INSERT INTO plain_sessions VALUES ('x', $1::jsonb)`, [json]), async () => {
        const { rows: found } = await pool.query<{ payload: SessionJSON }>('SELECT payload FROM plain_sessions WHERE id = $1', ['x']);
        const session = restoreSession(found[0]!.payload);
        await pool.query('UPDATE plain_sessions SET payload = $2::jsonb WHERE id = $1', ['x', JSON.stringify(session)]);
      }),
    );
    await store.close();
    await pool.end();
    contention.push(await measureContention('Postgres', { kind: 'postgres', connectionString: server.connectionString }));
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
      ...await measure('Redis', store, (json) => client.set('plain', json), async () => {
        const session = restoreSession((await client.get('plain'))!);
        await client.set('plain', JSON.stringify(session));
      }),
    );
    await store.close();
    await client.close();
    contention.push(await measureContention('Redis', { kind: 'redis', url: server.url }));
    await server.destroy();
  } else {
    console.log(`Redis skipped: ${REDIS_MISSING}.`);
  }

  printTable(rows);
  console.log('');
  printTable(large);
  console.log('');
  printTable(contentionTable(contention));
}
