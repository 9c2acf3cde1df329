/**
 * Registers OpenTelemetry tracing for any process that runs agent-toolbelt's tools: load it
 * before the program with `node --import`, and every tool call becomes a span sent over
 * OTLP/HTTP to `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (default `http://localhost:4318/v1/traces`:
 * a local collector, Jaeger, or your backend's endpoint).
 *
 *   node --import tsx --import ./examples/observability/otel-setup.ts examples/demo/index.ts
 *   node --import tsx --import ./examples/observability/otel-setup.ts adapters/mcp/cli.ts mcp --root .
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

const url = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? 'http://localhost:4318/v1/traces';
const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) })] });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(provider);
// Spans still in the batch go out before the process ends.
process.once('beforeExit', () => void provider.shutdown());
