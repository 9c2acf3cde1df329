import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSession, defineTool, runTool, useOpenTelemetryApi } from '../index.js';

const echo = defineTool({ name: 'echo_text', description: 'Says it back.', kind: 'other', input: z.object({}), execute: () => 'ok' });

describe('useOpenTelemetryApi', () => {
  it('switches recording off for the process with null, and on again with the module', async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = { tracerProvider: new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }) };
    useOpenTelemetryApi(null);
    await runTool(echo, {}, { session: createSession(), telemetry });
    expect(exporter.getFinishedSpans()).toEqual([]);
    useOpenTelemetryApi(await import('@opentelemetry/api'));
    await runTool(echo, {}, { session: createSession(), telemetry });
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['execute_tool echo_text']);
  });

  it('refuses what is not the API, saying what it takes', () => {
    expect(() => useOpenTelemetryApi({ trace: {} })).toThrow("Expected the `@opentelemetry/api` module (`import * as otel from '@opentelemetry/api'`) or null, got object.");
  });
});
