/**
 * Another process running a batch of turns on one chat: `node --import tsx turns-child.ts
 * '<json>'` with `{ config, id, label, turns, warmup? }`. It opens the store with default
 * options, runs `warmup` turns of a chat of its own (so a bench times warm code), prints
 * `ready`, and on a line `go` on stdin starts `turns` concurrent `withSession` calls,
 * each adding the task `<label> <n>`. Then it prints one JSON line: how many landed, the
 * messages of those that failed, and the milliseconds from go to the last one's end.
 */
import { createInterface } from 'node:readline';
import { createTaskListTools } from '../../src/collections/task-list/index.js';
import { runTool } from '../../src/run-tool.js';
import { openStore, type StoreConfig } from './store-config.js';

const { config, id, label, turns, warmup = 0 } = JSON.parse(process.argv[2]!) as { config: StoreConfig; id: string; label: string; turns: number; warmup?: number };
const store = openStore(config);
const add = createTaskListTools().tools.find((tool) => tool.name === 'task_add')!;
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

// One load first, so connecting (and creating the table) is not part of the timed batch.
await store.load(id);
for (let turn = 0; turn < warmup; turn += 1) {
  await store.withSession(`${id}-warmup-${label}`, (session) => runTool(add, { tasks: [{ subject: `warm-up ${turn}` }] }, { session }));
}
console.log('ready');
await lines.next();
const began = performance.now();
const outcomes = await Promise.allSettled(
  Array.from({ length: turns }, (_, index) =>
    store.withSession(id, async (session) => {
      const result = await runTool(add, { tasks: [{ subject: `${label} ${index}` }] }, { session });
      if (result.isError) throw new Error(result.text);
    }),
  ),
);
const elapsedMs = performance.now() - began;
const errors = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String((outcome.reason as Error)?.message ?? outcome.reason)] : []));
console.log(JSON.stringify({ landed: turns - errors.length, errors, elapsedMs }));
await store.close();
process.exit(0);
