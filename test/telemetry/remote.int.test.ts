import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWorkspace, createFileTools, createSession, runTool } from '../../src/index.js';
import { parseTraceparent, traceparentOf } from '../../src/telemetry/remote-span.js';
import { inHostSpan, installOpenTelemetry, type RecordedTelemetry } from '../../src/telemetry/test-support/open-telemetry-sdk.js';
import { serverCommand, temporaryFolder, TSX_LOADER } from '../remote/support.js';

/** A span as the box exported it over OTLP/HTTP (JSON). */
interface ExportedSpan {
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
}

let otel: RecordedTelemetry;
const exported: ExportedSpan[] = [];
const receiver = createServer(async (request, response) => {
  const body = JSON.parse(await text(request));
  for (const resource of body.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) exported.push(...scope.spans);
  response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
});

beforeAll(async () => {
  otel = installOpenTelemetry();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

describe('a remote workspace in a traced call', () => {
  it("sends each request as a CLIENT span whose trace the box's SERVER span joins", async () => {
    const root = temporaryFolder();
    writeFileSync(path.join(root, 'notes.txt'), 'alpha\n');
    const { port } = receiver.address() as AddressInfo;
    const setup = fileURLToPath(new URL('./box-otel-setup.ts', import.meta.url));
    const [node, , , ...rest] = serverCommand(root);
    const workspace = await connectWorkspace({
      command: [node!, '--import', TSX_LOADER, '--import', setup, ...rest],
      env: { ...process.env, AGENT_TOOLBELT_TEST_OTLP_URL: `http://127.0.0.1:${port}/v1/traces` } as Record<string, string>,
    });
    try {
      const readFile = createFileTools({ workspace }).tools.find((tool) => tool.name === 'read_file')!;
      const result = await inHostSpan('host turn', () => runTool(readFile, { path: 'notes.txt' }, { session: createSession() }));
      expect(result.text).toContain('alpha');

      const call = otel.span('execute_tool read_file');
      const requests = otel.spans().filter((span) => span.kind === SpanKind.CLIENT);
      expect(requests.length).toBeGreaterThanOrEqual(1);
      for (const request of requests) {
        expect(request.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
        expect(request.attributes).toMatchObject({ 'rpc.system.name': 'jsonrpc', 'rpc.method': request.name });
      }
      const deadline = Date.now() + 20_000;
      while (exported.length < requests.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const served = exported.filter((span) => span.kind === 2 /* SERVER, in OTLP's numbering */);
      expect(served.map((span) => span.name).sort()).toEqual(requests.map((span) => span.name).sort());
      for (const span of served) {
        expect(span.traceId).toBe(call.spanContext().traceId);
        expect(requests.map((request) => request.spanContext().spanId)).toContain(span.parentSpanId);
      }
      // Outside a traced call nothing is sent: the handshake and later untraced calls carry no _meta.
      const before = exported.length;
      await runTool(readFile, { path: 'notes.txt' }, { session: createSession(), telemetry: { enabled: false } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(exported.length).toBe(before);
    } finally {
      await workspace.close();
    }
  }, 60_000);

  it('writes and reads W3C traceparent headers, refusing malformed and all-zero ids', () => {
    const context = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 };
    expect(traceparentOf(context)).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toEqual(context);
    expect(parseTraceparent('00-00000000000000000000000000000000-00f067aa0ba902b7-01')).toBeUndefined();
    expect(parseTraceparent('garbage')).toBeUndefined();
    expect(parseTraceparent(undefined)).toBeUndefined();
  });
});

async function text(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
