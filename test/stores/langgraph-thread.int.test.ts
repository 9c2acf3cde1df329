import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSessionStore } from '../../adapters/postgres/index.js';
import { createTaskListTools } from '../../src/index.js';
import { POSTGRES_MISSING, startPostgres, type PostgresServer } from './servers.js';

if (POSTGRES_MISSING !== undefined) console.warn(`Skipping the LangGraph thread-across-processes test: ${POSTGRES_MISSING}.`);

const child = path.join(import.meta.dirname, 'langgraph-thread-child.ts');
const repository = path.resolve(import.meta.dirname, '../..');

async function step(input: { step: 'start' | 'resume'; connectionString: string; threadId: string }): Promise<any> {
  const { stdout } = await execa(process.execPath, ['--import', 'tsx', child, JSON.stringify(input)], { cwd: repository, timeout: 90_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe.skipIf(POSTGRES_MISSING !== undefined)('a LangGraph thread resumed in another process, with the Postgres session store', () => {
  let postgres: PostgresServer | undefined;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.destroy());

  it('keeps the thread’s tasks and "always" approvals across processes', async () => {
    const threadId = `thread-${randomUUID()}`;
    const connectionString = postgres!.connectionString;

    const started = await step({ step: 'start', connectionString, threadId });
    expect(started.interrupts).toHaveLength(1);
    expect(started.interrupts[0].value).toMatchObject({ type: 'approval', toolCall: { name: 'write_note', args: { text: 'first' } } });
    expect(started.runs).toEqual([]);

    // Between the processes, the store holds what the first one did: the task, no approval yet.
    const store = createPostgresSessionStore({ connectionString });
    try {
      const between = await store.load(threadId);
      expect((await createTaskListTools().getTasks(between!)).map((task) => task.subject)).toEqual(['Write the notes']);
      expect(between!.approvals).toEqual([]);

      const resumed = await step({ step: 'resume', connectionString, threadId });
      expect(resumed.resumedWith, JSON.stringify(resumed)).toBe(1);
      expect(resumed.runs).toEqual(['write first', 'write second']);
      expect(resumed.interruptsAfter).toBe(0);
      expect(resumed.last).toEqual(['First note written.', 'Second note written.']);

      const after = await store.load(threadId);
      expect((await createTaskListTools().getTasks(after!)).map((task) => task.subject)).toEqual(['Write the notes']);
      expect(after!.approvals).toEqual(['write_note']);
    } finally {
      await store.close();
    }
  }, 180_000);
});
