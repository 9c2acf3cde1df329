import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSession, defineTool, runTool } from '../../src/index.js';

const echo = defineTool({ name: 'echo_text', description: 'Says the text back.', kind: 'other', input: z.object({ text: z.string() }), execute: ({ text }) => text });

describe('recording without a provider, to an OTLP receiver, and without the package', () => {
  it('records no span while no provider is registered, and spans once one is', async () => {
    const session = createSession();
    expect((await runTool(echo, { text: 'before' }, { session })).text).toBe('before');
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
    try {
      expect(exporter.getFinishedSpans()).toEqual([]);
      await runTool(echo, { text: 'after' }, { session });
      expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['execute_tool echo_text']);
    } finally {
      trace.disable();
    }
  });

  it('exports the span over OTLP/HTTP to a receiver on loopback', async () => {
    const received: Array<{ url: string; type: string; body: any }> = [];
    const receiver = createServer(async (request, response) => {
      received.push({ url: request.url ?? '', type: request.headers['content-type'] ?? '', body: JSON.parse(await text(request)) });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` }) })] });
    try {
      await runTool(echo, { text: 'hello' }, { session: createSession(), toolCallId: 'otlp-1', telemetry: { tracerProvider } });
      await tracerProvider.forceFlush();
      expect(received.map(({ url, type }) => [url, type])).toEqual([['/v1/traces', 'application/json']]);
      const scope = received[0]!.body.resourceSpans[0].scopeSpans[0];
      expect(scope.scope.name).toBe('agent-toolbelt');
      const span = scope.spans[0];
      expect(span.name).toBe('execute_tool echo_text');
      const attributes = Object.fromEntries(span.attributes.map((attribute: any) => [attribute.key, attribute.value.stringValue]));
      expect(attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'echo_text', 'gen_ai.tool.call.id': 'otlp-1', 'gen_ai.tool.type': 'function' });
    } finally {
      await tracerProvider.shutdown();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('runs calls and writes audit records when @opentelemetry/api is not installed', async () => {
    const child = fileURLToPath(new URL('./without-package-child.ts', import.meta.url));
    const block = fileURLToPath(new URL('./block-opentelemetry.mjs', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--import', block, child], { cwd: fileURLToPath(new URL('../../', import.meta.url)) });
    expect(JSON.parse(stdout)).toEqual({ results: ['changed', 'changed'], records: [['change', 'ok', ['a.txt']]], api: null, importable: false });
  }, 60_000);
});

async function text(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
