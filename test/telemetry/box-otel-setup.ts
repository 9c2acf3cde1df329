/**
 * Loaded with `node --import` into a test's `serve-workspace`: registers the OpenTelemetry SDK
 * in the box, exporting every span over OTLP/HTTP to the test's receiver
 * (`AGENT_TOOLBELT_TEST_OTLP_URL`), as a box with its own tracing would.
 */
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

const url = process.env.AGENT_TOOLBELT_TEST_OTLP_URL;
if (url !== undefined) {
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url }) })] }));
}
