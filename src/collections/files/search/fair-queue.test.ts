import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue.js';
import { acquireSearchWorker, MAX_SEARCH_WORKERS, releaseSearchWorker } from './worker-pool.js';

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
    // Every worker there may be is taken, so the searches below wait.
    const held = await Promise.all(Array.from({ length: MAX_SEARCH_WORKERS }, () => acquireSearchWorker(signal)));
    const busy = { caller: 'busy session' };
    const other = { caller: 'other session' };
    const served: string[] = [];
    const waits: Promise<Worker | undefined>[] = [];
    const wait = (caller: object, label: string) => waits.push(acquireSearchWorker(signal, caller).then((worker) => (served.push(label), worker)));
    for (let index = 1; index <= 6; index += 1) wait(busy, `busy ${index}`);
    wait(other, 'other');
    // Workers come free one at a time; each goes to the caller whose turn it is.
    const free = [...held];
    while (served.length < 7) {
      releaseSearchWorker(free.shift()!);
      const before = served.length;
      await new Promise((resolve) => setImmediate(resolve));
      expect(served.length).toBe(before + 1);
      // The worker the search just served got comes free in its turn too.
      free.push((await waits[indexOf(served.at(-1)!)]!)!);
    }
    expect(served.slice(0, 2)).toEqual(['busy 1', 'other']);
    expect(served.slice(2)).toEqual(['busy 2', 'busy 3', 'busy 4', 'busy 5', 'busy 6']);
    for (const worker of free) releaseSearchWorker(worker!);
  });
});

/** Where a label's wait sits in the order the waits were made. */
function indexOf(label: string): number {
  return label === 'other' ? 6 : Number(label.split(' ')[1]) - 1;
}
