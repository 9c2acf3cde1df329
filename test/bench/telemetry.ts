/**
 * What recording costs a `runTool` call (issue 29): a tool that does nothing, called 4,000
 * times a round, each setup in a fresh process (test/bench/telemetry-child.ts), every variant
 * timed in turn each round, medians per call.
 *
 * - Without `@opentelemetry/api` (resolution blocked) and with it but no provider registered:
 *   against `telemetry: { enabled: false }` in the same process, the target is under 1 µs
 *   added, about a function call.
 * - With the SDK registered (spans batched to memory, metrics, the context manager): the cost
 *   of a recorded span with its events and the duration metric. No target: the host asked.
 * - `onAudit` on a changing tool: the record and its input digest.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable, record, runInFreshProcess, verdict } from './harness.js';

const SUITE = 'telemetry';
const NO_PROVIDER_TARGET_US = 1;

type PerCall = Record<'default' | 'off' | 'audit', number>;
const microseconds = (value: number) => `${value.toFixed(2)} µs`;

async function measure(setup: 'bare' | 'provider', blocked = false): Promise<PerCall> {
  if (!blocked) return (await runInFreshProcess('telemetry-child.ts', [setup])).perCall as PerCall;
  // The package blocked: the hook goes before the script, so the child is started by hand.
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const bench = path.dirname(fileURLToPath(import.meta.url));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--import', path.join(bench, '..', 'telemetry', 'block-opentelemetry.mjs'), path.join(bench, 'telemetry-child.ts'), setup],
    { cwd: path.resolve(bench, '..', '..') },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!).perCall as PerCall;
}

/** Runs the cases, prints a table and records the summary rows. */
export async function run(): Promise<void> {
  const missing = await measure('bare', true);
  const bare = await measure('bare');
  const provider = await measure('provider');
  const rows: Array<[string, number, number]> = [
    ['runTool, @opentelemetry/api not installed', missing.default, missing.off],
    ['runTool, the API installed, no provider', bare.default, bare.off],
    ['runTool, the SDK registered (span, events, metric)', provider.default, provider.off],
    ['runTool with onAudit (record, sha256 of the input)', bare.audit, bare.off],
  ];
  printTable([
    ['case', 'per call', 'telemetry off', 'added'],
    ...rows.map(([name, ours, reference]) => [name, microseconds(ours), microseconds(reference), microseconds(ours - reference)]),
  ]);
  for (const [name, ours, reference] of rows.slice(0, 2)) {
    record({
      suite: SUITE,
      case: name,
      ours: microseconds(ours),
      reference: `${microseconds(reference)} (telemetry off)`,
      ratio: '-',
      target: `≤ ${microseconds(NO_PROVIDER_TARGET_US)} added`,
      verdict: verdict(ours - reference, NO_PROVIDER_TARGET_US),
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
}
