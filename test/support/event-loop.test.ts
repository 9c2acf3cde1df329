import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { measureEventLoopBlock } from './event-loop.js';

/** Holds the thread for `ms` milliseconds, as a synchronous diff or parse would. */
function holdThread(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('measureEventLoopBlock', () => {
  it('reads near zero for a call that only waits', async () => {
    const { result, maxDelayMs, maxBusyMs } = await measureEventLoopBlock(() => new Promise<string>((resolve) => setTimeout(() => resolve('done'), 200)));
    expect(result).toBe('done');
    // The thread's own work in any gap is near zero. The wall gap also holds any wait for a
    // core on a busy machine (28 ms seen in CI with two test files at once), so its bound only
    // tells a probe that counts the 200 ms wait apart from one that does not.
    expect(maxBusyMs).toBeLessThan(15);
    expect(maxDelayMs).toBeLessThan(100);
  });

  it('counts synchronous work before the first await', async () => {
    const { maxDelayMs } = await measureEventLoopBlock(async () => holdThread(60));
    expect(maxDelayMs).toBeGreaterThan(50);
  });

  it('counts a block just before the call settles', async () => {
    const { maxDelayMs, elapsedMs } = await measureEventLoopBlock(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      holdThread(40);
    });
    expect(maxDelayMs).toBeGreaterThan(30);
    expect(elapsedMs).toBeGreaterThan(55);
  });

  it("rejects with the call's own error", async () => {
    await expect(measureEventLoopBlock(async () => { throw new Error('broken on purpose'); })).rejects.toThrow('broken on purpose');
  });
});
