/**
 * The smallest LangGraph checkpointer that survives a process, for tests: `@langchain/langgraph`'s
 * own MemorySaver (its checkpoint and pending-write logic unchanged) whose per-thread storage
 * is loaded from and written back to one Postgres row per thread. `PostgresSaver`
 * (`@langchain/langgraph-checkpoint-postgres`) is not installed here; this stands in for it.
 */
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  MemorySaver,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from '@langchain/langgraph-checkpoint';
import pg from 'pg';

type Storage = MemorySaver['storage'];
type Writes = MemorySaver['writes'];

/** Uint8Arrays (the serialised checkpoints) as base64 inside JSON. */
const encode = (value: unknown) => JSON.stringify(value, (_key, item: unknown) => (item instanceof Uint8Array ? { $bytes: Buffer.from(item).toString('base64') } : item));
const decode = <T>(text: string): T =>
  JSON.parse(text, (_key, item: unknown) =>
    typeof item === 'object' && item !== null && '$bytes' in item ? new Uint8Array(Buffer.from((item as { $bytes: string }).$bytes, 'base64')) : item,
  ) as T;

/** A MemorySaver whose threads live in Postgres, so a second process resumes them. */
export class PostgresCheckpointSaver extends MemorySaver {
  readonly #pool: pg.Pool;
  readonly #loaded = new Set<string>();
  #ready: Promise<unknown> | undefined;

  constructor(connectionString: string) {
    super();
    this.#pool = new pg.Pool({ connectionString, max: 2 });
  }

  async #table(): Promise<void> {
    this.#ready ??= this.#pool.query('CREATE TABLE IF NOT EXISTS test_langgraph_threads (thread_id text PRIMARY KEY, storage text NOT NULL, writes text NOT NULL)');
    await this.#ready;
  }

  async #load(threadId: unknown): Promise<void> {
    if (typeof threadId !== 'string' || this.#loaded.has(threadId)) return;
    await this.#table();
    const { rows } = await this.#pool.query<{ storage: string; writes: string }>('SELECT storage, writes FROM test_langgraph_threads WHERE thread_id = $1', [threadId]);
    if (rows[0] !== undefined) {
      this.storage[threadId] = decode<Storage[string]>(rows[0].storage);
      Object.assign(this.writes, decode<Writes>(rows[0].writes));
    }
    this.#loaded.add(threadId);
  }

  async #save(threadId: unknown): Promise<void> {
    if (typeof threadId !== 'string') return;
    // MemorySaver keys writes by JSON [threadId, namespace, checkpointId].
    const writes = Object.fromEntries(Object.entries(this.writes).filter(([key]) => (JSON.parse(key) as unknown[])[0] === threadId));
    await this.#pool.query(
      `INSERT INTO test_langgraph_threads (thread_id, storage, writes) VALUES ($1, $2, $3)
       ON CONFLICT (thread_id) DO UPDATE SET storage = EXCLUDED.storage, writes = EXCLUDED.writes`,
      [threadId, encode(this.storage[threadId] ?? {}), encode(writes)],
    );
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    await this.#load(config.configurable?.thread_id);
    return super.getTuple(config);
  }

  override async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    await this.#load(config.configurable?.thread_id);
    yield* super.list(config, options);
  }

  override async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata): Promise<RunnableConfig> {
    await this.#load(config.configurable?.thread_id);
    const saved = await super.put(config, checkpoint, metadata);
    await this.#save(config.configurable?.thread_id);
    return saved;
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    await this.#load(config.configurable?.thread_id);
    await super.putWrites(config, writes, taskId, taskPath);
    await this.#save(config.configurable?.thread_id);
  }

  async end(): Promise<void> {
    await this.#pool.end();
  }
}
