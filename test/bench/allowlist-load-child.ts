/**
 * The allowlist's first check in a fresh process, for test/bench/allowlist.ts: `node --import
 * tsx test/bench/allowlist-load-child.ts`. The first check starts the parser thread, which loads
 * the bash grammar. Prints one JSON line with that check's wall time, the longest gap of a 1 ms
 * timer probe on the main thread while it ran (which on a busy machine also counts time the
 * thread waited for a core), and the main thread's event loop's active time over the check
 * (`performance.eventLoopUtilization`): no single block can be longer than that. Then the same
 * for a second check. A fresh process, because the thread and the grammar start once per process.
 */
import { performance } from 'node:perf_hooks';
import { checkCommand } from '../../src/collections/shell/policy.js';
import { measureEventLoopBlock } from '../support/event-loop.js';

const policy = { allow: ['git'] };

async function measured(command: string): Promise<{ ms: number; probeGapMs: number; activeMs: number }> {
  const before = performance.eventLoopUtilization();
  const block = await measureEventLoopBlock(() => checkCommand(command, policy));
  const utilization = performance.eventLoopUtilization(before);
  return { ms: block.elapsedMs, probeGapMs: block.maxDelayMs, activeMs: utilization.active };
}

const first = await measured(`git log --format='%h %s' -n 20 "src/a b.ts"`);
const second = await measured(`git diff --stat 'src/c d.ts'`);
console.log(JSON.stringify({ ms: first.ms, peakGrowthBytes: 0, first, second }));
process.exit(0);
