/**
 * A second process holding a session: `node --import tsx holder-child.ts '<json>'` with
 * `{ config, id, leaseMs }`. It saves one turn that adds the task "saved by the child", then
 * starts a second turn that adds "unsaved" and prints `holding` and waits. A line `finish`
 * on stdin ends that turn; the outcome is printed as one JSON line. The tests kill it
 * (SIGKILL) or stop it (SIGSTOP) while it holds the lease.
 */
import { createInterface } from 'node:readline';
import { createTaskListTools } from '../../src/collections/task-list/index.js';
import { runTool } from '../../src/run-tool.js';
import { openStore, type StoreConfig } from './store-config.js';

const { config, id, leaseMs } = JSON.parse(process.argv[2]!) as { config: StoreConfig; id: string; leaseMs: number };
const store = openStore(config, { leaseMs });
const tasks = createTaskListTools();
const add = tasks.tools.find((tool) => tool.name === 'task_add')!;
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

await store.withSession(id, async (session) => {
  await runTool(add, { tasks: [{ subject: 'saved by the child' }] }, { session });
});
try {
  await store.withSession(id, async (session) => {
    await runTool(add, { tasks: [{ subject: 'unsaved' }] }, { session });
    console.log('holding');
    await lines.next();
  });
  console.log(JSON.stringify({ saved: true }));
} catch (error) {
  console.log(JSON.stringify({ saved: false, name: (error as Error).name, message: (error as Error).message }));
}
await store.close();
process.exit(0);
