import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSession } from '../../src/index.js';
import { inHostSpan, installOpenTelemetry, type RecordedTelemetry } from '../../src/telemetry/test-support/open-telemetry-sdk.js';
import type { Driver } from '../conformance/driver.js';
import { aiSdkDriver } from '../conformance/drivers/ai-sdk.js';
import { anthropicDriver } from '../conformance/drivers/anthropic.js';
import { langChainDriver } from '../conformance/drivers/langchain.js';
import { mcpDriver } from '../conformance/drivers/mcp.js';
import { openAiDriver } from '../conformance/drivers/openai.js';
import { createProject, removeProjects } from '../conformance/project.js';

/**
 * One `execute_tool` span per call through every adapter, each a child of the host's span,
 * with the framework's call id: the conformance drivers (real frameworks, real clients against
 * local servers, an MCP client) play a read and a denied delete.
 */
let otel: RecordedTelemetry;
beforeAll(() => {
  otel = installOpenTelemetry();
});
beforeEach(() => otel.reset());
afterAll(removeProjects);

const drivers: Driver[] = [aiSdkDriver, langChainDriver, openAiDriver, anthropicDriver, mcpDriver].flatMap((driver) => [driver('callback'), driver('native')]);

describe.each(drivers)('$name', (driver) => {
  it('records one execute_tool span per call, a child of the host span, with the call id and the outcome', async () => {
    const project = await createProject();
    const view = await inHostSpan('host turn', () =>
      driver.run({
        collections: [project.files],
        session: createSession(),
        approver: () => ({ type: 'deny', reason: 'keep it' }),
        turns: [[{ tool: 'read_file', input: { path: 'notes.txt' } }], [{ tool: 'delete_file', input: { path: 'todo.txt' } }]],
      }),
    );
    expect(view.results.map((result) => [result.tool, result.isError])).toEqual([
      ['read_file', false],
      ['delete_file', true],
    ]);
    expect(await project.exists('todo.txt')).toBe(true);

    const host = otel.span('host turn');
    const read = otel.span('execute_tool read_file');
    expect(read.kind).toBe(SpanKind.INTERNAL);
    expect(read.spanContext().traceId).toBe(host.spanContext().traceId);
    expect(read.parentSpanContext?.spanId).toBe(host.spanContext().spanId);
    expect(read.attributes['gen_ai.tool.call.id']).toEqual(expect.any(String));
    expect(read.attributes['gen_ai.tool.call.id']).not.toBe('');
    expect(read.attributes['error.type']).toBeUndefined();

    // The AI SDK's own approval flow decides in the SDK: a denied call never reaches runTool,
    // so it has no span of its own (the SDK records the denial in its messages).
    const deletes = otel.spans().filter((span) => span.name === 'execute_tool delete_file');
    if (driver.approvals === 'callback' || driver.framework !== 'ai-sdk') {
      expect(deletes).toHaveLength(1);
      expect(deletes[0]!.attributes['error.type']).toBe('denied');
      expect(deletes[0]!.parentSpanContext?.spanId).toBe(host.spanContext().spanId);
    } else {
      expect(deletes).toEqual([]);
    }
  });
});
