/**
 * The real OpenTelemetry SDK for tests: spans into an in-memory exporter, metrics read on
 * demand, and Node's AsyncLocalStorage context manager, registered globally as a host would.
 */
import { context, metrics, trace, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader, type DataPoint } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';

/** A metric reader that only reads when asked. */
class OnDemandReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

/** What {@link installOpenTelemetry} registered, to read what was recorded. */
export interface RecordedTelemetry {
  readonly exporter: InMemorySpanExporter;
  readonly tracerProvider: TracerProvider;
  /** The finished spans so far. */
  spans(): ReadableSpan[];
  /** The finished span of this name (fails the test when there is none or more than one). */
  span(name: string): ReadableSpan;
  /** The data points of a metric, by its name. */
  points(name: string): Promise<Array<DataPoint<unknown> & { attributes: Attributes }>>;
  /** Forgets the spans so far. */
  reset(): void;
}

/** Registers the SDK as the global providers (once per test file: the API keeps the first). */
export function installOpenTelemetry(): RecordedTelemetry {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  const spans = () => exporter.getFinishedSpans();
  return {
    exporter,
    tracerProvider,
    spans,
    span(name) {
      const found = spans().filter((span) => span.name === name);
      if (found.length !== 1) throw new Error(`Expected one span named ${name}, found ${found.length}: ${spans().map((span) => span.name).join(', ')}`);
      return found[0]!;
    },
    async points(name) {
      const { resourceMetrics } = await reader.collect();
      const metric = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((candidate) => candidate.descriptor.name === name);
      return (metric?.dataPoints ?? []) as Array<DataPoint<unknown> & { attributes: Attributes }>;
    },
    reset: () => exporter.reset(),
  };
}

/** Runs `work` inside a host's own active span, as a web framework's instrumentation would. */
export function inHostSpan<T>(name: string, work: () => Promise<T>): Promise<T> {
  return trace.getTracer('host').startActiveSpan(name, async (span) => {
    try {
      return await work();
    } finally {
      span.end();
    }
  });
}
