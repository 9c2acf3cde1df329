import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { runTool } from '../../../run-tool.js';
import { createSession } from '../../../session.js';
import { Workspace } from '../../../workspace/workspace.js';
import { createReadOnlyFileTools } from '../read-tools.js';
import { FairQueue } from './fair-queue.js';
import { acquireSearchWorker, LONG_SEARCH_MS, MAX_SEARCH_WORKERS, releaseSearchWorker, SEARCHES_AT_ONCE } from './worker-pool.js';

describe('the line of searches waiting for a worker', () => {
  it('serves callers in turn, each caller its oldest waiter first', () => {
    const queue = new FairQueue<string>();
    for (const item of ['a1', 'a2', 'a3', 'a4']) queue.push('a', item);
    queue.push('b', 'b1');
    queue.push(undefined, 'n1');
    queue.push('b', 'b2');
    expect(queue.length).toBe(7);
    expect(queue.remove('a3')).toBe(true);
    expect(queue.remove('a3')).toBe(false);
    const order: string[] = [];
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) order.push(item);
    expect(order).toEqual(['a1', 'b1', 'n1', 'a2', 'b2', 'a4']);
    expect(queue.length).toBe(0);
  });

  it("gives a session's one search the next free worker while another session has many waiting (real workers)", async () => {
    const signal = new AbortController().signal;
    // Every search that may run at once is running (each holds its worker), so the searches below wait.
    const free: Worker[] = [];
    for (let index = 0; index < SEARCHES_AT_ONCE; index += 1) free.push((await acquireSearchWorker(signal))!);
    const busy = { caller: 'busy session' };
    const other = { caller: 'other session' };
    const served: string[] = [];
    const wait = (caller: object, label: string) =>
      void acquireSearchWorker(signal, caller).then((worker) => {
        served.push(label);
        free.push(worker!);
      });
    for (let index = 1; index <= 6; index += 1) wait(busy, `busy ${index}`);
    wait(other, 'other');
    // Searches end one at a time, each giving its worker back; the next goes to the caller whose turn it is.
    while (served.length < 7) {
      const before = served.length;
      releaseSearchWorker(free.shift()!);
      for (let turn = 0; turn < 100 && served.length === before; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      expect(served.length).toBeGreaterThan(before);
    }
    expect(served.slice(0, 2)).toEqual(['busy 1', 'other']);
    expect(served.slice(2)).toEqual(['busy 2', 'busy 3', 'busy 4', 'busy 5', 'busy 6']);
    for (const worker of free) releaseSearchWorker(worker);
  });

  it.skipIf(SEARCHES_AT_ONCE >= MAX_SEARCH_WORKERS)('gives a waiting search a worker of its own once every running search has run long (real workers)', async () => {
    const signal = new AbortController().signal;
    const held: Worker[] = [];
    for (let index = 0; index < SEARCHES_AT_ONCE; index += 1) held.push((await acquireSearchWorker(signal))!);
    const started = performance.now();
    const waiter = await acquireSearchWorker(signal, 'another session');
    expect(waiter).toBeDefined();
    expect(held).not.toContain(waiter);
    expect(performance.now() - started).toBeGreaterThanOrEqual(LONG_SEARCH_MS - 50);
    for (const worker of [...held, waiter!]) releaseSearchWorker(worker);
  });

  it("finishes one session's search_files while another session has eight queued", async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-fair-')));
    try {
      for (let index = 0; index < 300; index += 1) await fs.writeFile(path.join(root, `f${index}.txt`), `${'ordinary line\n'.repeat(200)}${index === 7 ? 'fairMarker\n' : ''}`);
      const search = createReadOnlyFileTools({ workspace: new Workspace(root), ripgrep: false }).tools.find((tool) => tool.name === 'search_files')!;
      const busy = createSession();
      const other = createSession();
      let busyDone = 0;
      const many = Array.from({ length: 8 }, () => runTool(search, { pattern: 'fairMarker' }, { session: busy }).then((result) => ((busyDone += 1), result)));
      const one = await runTool(search, { pattern: 'fairMarker' }, { session: other });
      const doneWhenOneEnded = busyDone;
      const results = await Promise.all(many);
      expect(one.text).toContain('f7.txt');
      for (const result of results) expect(result.text).toContain('f7.txt');
      // First come, first served it would end ninth, after about seven of the eight; in turn, second.
      expect(doneWhenOneEnded).toBeLessThanOrEqual(4);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
