/**
 * Times `runTool` on a tool that does nothing, with and without recording, in one of the setups
 * test/bench/telemetry.ts compares, and prints the median microseconds per call as JSON.
 * Usage: node --import tsx [--import test/telemetry/block-opentelemetry.mjs] telemetry-child.ts <setup>
 *   setup: `bare` (no provider registered; with the block hook, no package at all) or `provider`
 *   (the SDK registered as a host would: spans batched to memory, metrics, the context manager).
 * Each round times every variant in turn, so the machine's load falls on all of them alike.
 */
import { z } from 'zod';
import { createSession, defineTool, runTool, type RunToolOptions } from '../../src/index.js';
import { median } from './harness.js';

const setup = process.argv[2] ?? 'bare';
const CALLS = 4_000;
const ROUNDS = 15;

if (setup === 'provider') {
  // Imported here only: the `bare` setup also runs where @opentelemetry/api cannot be resolved.
  const { context, metrics, trace } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { MeterProvider, MetricReader } = await import('@opentelemetry/sdk-metrics');
  const { BatchSpanProcessor, InMemorySpanExporter, TracerProvider } = await import('@opentelemetry/sdk-trace');
  class OnDemandReader extends MetricReader {
    protected async onShutdown(): Promise<void> {}
    protected async onForceFlush(): Promise<void> {}
  }
  const exporter = new InMemorySpanExporter();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter })] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new OnDemandReader()] }));
  setInterval(() => exporter.reset(), 200).unref();
}

const input = z.object({ n: z.number() });
const other = defineTool({ name: 'noop', description: 'Does nothing.', kind: 'other', input, execute: () => 'ok' });
const edit = defineTool({ name: 'noop_edit', description: 'Changes nothing.', kind: 'edit', input, execute: () => ({ text: 'ok', data: { path: 'a.txt' } }) });
const session = createSession();
const variants = {
  default: { tool: other, options: { session } },
  off: { tool: other, options: { session, telemetry: { enabled: false } } },
  audit: { tool: edit, options: { session, onAudit: () => {} } },
} satisfies Record<string, { tool: typeof other; options: RunToolOptions }>;

const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
for (let round = -2; round < ROUNDS; round += 1) {
  for (const [name, { tool, options }] of Object.entries(variants)) {
    const started = performance.now();
    for (let call = 0; call < CALLS; call += 1) await runTool(tool, { n: call }, options);
    if (round >= 0) times[name]!.push(((performance.now() - started) * 1000) / CALLS);
  }
}
const perCall = Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]));
console.log(JSON.stringify({ ms: 0, peakGrowthBytes: 0, perCall }));
