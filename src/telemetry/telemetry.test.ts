import { mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { skillText, writeSkill } from '../collections/skills/test-support/skill-folders.js';
import {
  createFileTools,
  createSession,
  createShellTools,
  createSkillTools,
  defineTool,
  runTool,
  withBackground,
  Workspace,
  type ToolCollection,
  type ToolDefinition,
} from '../index.js';
import { inHostSpan, installOpenTelemetry, type RecordedTelemetry } from './test-support/open-telemetry-sdk.js';

let otel: RecordedTelemetry;
let workspace: Workspace;
let files: ToolCollection;
let shell: ToolCollection;

const tool = (collection: ToolCollection, name: string): ToolDefinition<any> => collection.tools.find((candidate) => candidate.name === name)!;

beforeAll(async () => {
  otel = installOpenTelemetry();
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolbelt-telemetry-')));
  await writeFile(path.join(root, 'notes.txt'), 'alpha\nbeta\n');
  workspace = new Workspace(root);
  files = createFileTools({ workspace });
  shell = createShellTools({ workspace });
});

beforeEach(() => otel.reset());

describe('the execute_tool span of runTool', () => {
  it('is an INTERNAL child of the active span, named and attributed by the GenAI conventions', async () => {
    const session = createSession();
    const result = await inHostSpan('host request', () => runTool(tool(files, 'read_file'), { path: 'notes.txt' }, { session, toolCallId: 'call-1' }));
    expect(result.isError).toBe(false);

    const span = otel.span('execute_tool read_file');
    const host = otel.span('host request');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.parentSpanContext?.spanId).toBe(host.spanContext().spanId);
    expect(span.spanContext().traceId).toBe(host.spanContext().traceId);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'read_file',
      'gen_ai.tool.call.id': 'call-1',
      'gen_ai.tool.type': 'function',
      'gen_ai.conversation.id': session.id,
      'agent_toolbelt.tool.kind': 'read',
    });
    expect(span.attributes['gen_ai.tool.description']).toBe(tool(files, 'read_file').description);
    expect(span.attributes['error.type']).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.events.map((event) => [event.name, event.attributes])).toEqual([['agent_toolbelt.policy', { 'agent_toolbelt.policy.verdict': 'run' }]]);

    const durations = await otel.points('gen_ai.execute_tool.duration');
    const point = durations.find((candidate) => candidate.attributes['gen_ai.tool.name'] === 'read_file' && candidate.attributes['error.type'] === undefined);
    expect(point?.attributes).toEqual({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'read_file' });
    expect((point?.value as { count: number }).count).toBeGreaterThanOrEqual(1);
  });

  it('marks a refused call with error.type refused, status ERROR, the verdict, and counts it', async () => {
    const guarded = createShellTools({ workspace, allow: ['echo'] });
    const result = await runTool(tool(guarded, 'run_shell'), { command: 'rm -rf build' }, { session: createSession(), mode: 'auto' });
    expect(result.isError).toBe(true);
    const span = otel.span('execute_tool run_shell');
    expect(span.attributes['error.type']).toBe('refused');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.events.map((event) => event.attributes)).toEqual([{ 'agent_toolbelt.policy.verdict': 'refused', 'agent_toolbelt.refused_by': 'policy' }]);
    expect(otel.spans().map((recorded) => recorded.name)).toEqual(['execute_tool run_shell']);

    await runTool(tool(files, 'create_file'), { path: 'new.txt', content: 'x' }, { session: createSession(), mode: 'plan' });
    expect(otel.span('execute_tool create_file').events[0]?.attributes).toEqual({ 'agent_toolbelt.policy.verdict': 'refused', 'agent_toolbelt.refused_by': 'mode' });
    const refusals = await otel.points('agent_toolbelt.tool.refusals');
    const count = (name: string, by: string) => refusals.find((point) => point.attributes['gen_ai.tool.name'] === name && point.attributes['agent_toolbelt.refused_by'] === by)?.value;
    expect(count('run_shell', 'policy')).toBe(1);
    expect(count('create_file', 'mode')).toBe(1);
  });

  it('tells bad input from a policy refusal', async () => {
    await runTool(tool(files, 'read_file'), { path: 'notes.txt', start_line: 0 }, { session: createSession() });
    const span = otel.span('execute_tool read_file');
    expect(span.attributes['error.type']).toBe('invalid_input');
    expect(span.events[0]?.attributes).toEqual({ 'agent_toolbelt.policy.verdict': 'refused', 'agent_toolbelt.refused_by': 'input' });
  });

  it('records a denied approval as events, without the reason unless the host opts in, and counts it', async () => {
    const deny = () => ({ type: 'deny' as const, reason: 'my password is hunter2' });
    const write = tool(files, 'delete_file');
    await runTool(write, { path: 'notes.txt' }, { session: createSession(), approve: deny });
    const span = otel.span('execute_tool delete_file');
    expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
      ['agent_toolbelt.policy', { 'agent_toolbelt.policy.verdict': 'ask' }],
      ['agent_toolbelt.approval.asked', undefined],
      ['agent_toolbelt.approval.decided', { 'agent_toolbelt.approval.decision': 'deny' }],
    ]);
    expect(span.attributes['error.type']).toBe('denied');
    expect(JSON.stringify([span.attributes, span.events])).not.toContain('hunter2');

    otel.reset();
    await runTool(write, { path: 'notes.txt' }, { session: createSession(), approve: deny, telemetry: { recordApprovalReasons: true } });
    expect(otel.span('execute_tool delete_file').events.at(-1)?.attributes).toEqual({ 'agent_toolbelt.approval.decision': 'deny', 'agent_toolbelt.approval.reason': 'my password is hunter2' });

    const asked = await otel.points('agent_toolbelt.approval.requests');
    const denied = await otel.points('agent_toolbelt.approval.denials');
    expect(asked.find((point) => point.attributes['gen_ai.tool.name'] === 'delete_file')?.value).toBe(2);
    expect(denied.find((point) => point.attributes['gen_ai.tool.name'] === 'delete_file')?.value).toBe(2);
  });

  it('gives an unexpected error its class as error.type and the exception event', async () => {
    const broken = defineTool({ name: 'broken', description: 'Fails.', kind: 'other', input: z.object({}), execute: () => { throw new RangeError('out of range'); } });
    const result = await runTool(broken, {}, { session: createSession() });
    expect(result.isError).toBe(true);
    const span = otel.span('execute_tool broken');
    expect(span.attributes['error.type']).toBe('RangeError');
    const exception = span.events.find((event) => event.name === 'gen_ai.execute_tool.exception');
    expect(exception?.attributes).toMatchObject({ 'exception.type': 'RangeError', 'exception.message': 'out of range' });
    expect(String(exception?.attributes?.['exception.stacktrace'])).toContain('RangeError: out of range');
  });

  it('records nothing for a call with telemetry switched off, and uses a provider the host passes', async () => {
    await runTool(tool(files, 'read_file'), { path: 'notes.txt' }, { session: createSession(), telemetry: { enabled: false } });
    expect(otel.spans()).toEqual([]);

    const own = new InMemorySpanExporter();
    const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: own })] });
    await runTool(tool(files, 'read_file'), { path: 'notes.txt' }, { session: createSession(), telemetry: { tracerProvider } });
    expect(own.getFinishedSpans().map((span) => span.name)).toEqual(['execute_tool read_file']);
    expect(otel.spans()).toEqual([]);
  });

  it('refuses malformed recording options with a message naming them', async () => {
    await expect(runTool(tool(files, 'read_file'), { path: 'notes.txt' }, { session: createSession(), telemetry: { recordCommand: true } as never })).rejects.toThrow(
      'Unknown key `recordCommand` in the `telemetry` option of runTool; it takes enabled, recordCommands, recordApprovalReasons, tracerProvider, meterProvider.',
    );
  });
});

describe('run_shell and load_skill spans', () => {
  it('gives a failing command a child span with its exit code and no command text', async () => {
    const result = await runTool(tool(shell, 'run_shell'), { command: 'echo oops; exit 3' }, { session: createSession(), mode: 'auto' });
    // The model reads a command's exit code as its result: the call itself went well.
    expect(result.isError).toBe(false);
    const call = otel.span('execute_tool run_shell');
    const command = otel.span('execute_command bash');
    expect(command.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(command.kind).toBe(SpanKind.INTERNAL);
    expect(command.attributes).toMatchObject({ 'process.command': 'bash', 'process.exit.code': 3, 'agent_toolbelt.command.status': 'exited', 'error.type': '3' });
    expect(command.attributes['agent_toolbelt.command.output_characters']).toBe('oops\n'.length);
    expect(command.attributes['process.command_args']).toBeUndefined();
    expect(JSON.stringify(command.attributes)).not.toContain('oops;');
    expect(command.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes['error.type']).toBeUndefined();
  });

  it('puts the command text on the span only when the host opts in', async () => {
    await runTool(tool(shell, 'run_shell'), { command: 'echo hi' }, { session: createSession(), mode: 'auto', telemetry: { recordCommands: true } });
    const command = otel.span('execute_command bash');
    expect(command.attributes['process.command_args']).toEqual(['bash', '-c', 'echo hi']);
    expect(command.attributes['process.exit.code']).toBe(0);
    expect(command.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('marks a cancelled call with the cancellation event and error.type cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await runTool(tool(shell, 'run_shell'), { command: 'sleep 20' }, { session: createSession(), mode: 'auto', signal: controller.signal });
    const call = otel.span('execute_tool run_shell');
    expect(call.attributes['error.type']).toBe('cancelled');
    expect(call.events.map((event) => event.name)).toContain('agent_toolbelt.cancelled');
    expect(otel.span('execute_command bash').attributes['agent_toolbelt.command.status']).toBe('cancelled');
  });

  it('marks a background start with the job id', async () => {
    const [background, jobs] = withBackground([shell], { tools: ['run_shell'] }) as ToolCollection[];
    const session = createSession();
    try {
      const result = await runTool(tool(background!, 'run_shell'), { command: 'sleep 0.2', run_in_background: true }, { session, mode: 'auto' });
      const jobId = (result.data as { jobId: string }).jobId;
      expect(otel.span('execute_tool run_shell').events.find((event) => event.name === 'agent_toolbelt.background.started')?.attributes).toEqual({ 'agent_toolbelt.job.id': jobId });
      expect(jobs).toBeDefined();
    } finally {
      await session.close();
    }
  });

  it('gives load_skill a child span naming the skill', async () => {
    await writeSkill(workspace, '.skills', 'release', skillText('release', 'Cut a release.'));
    const skills = await createSkillTools({ workspace, folders: ['.skills'] });
    const result = await runTool(tool(skills, 'load_skill'), { name: 'release' }, { session: createSession() });
    expect(result.isError).toBe(false);
    const span = otel.span('load_skill release');
    expect(span.parentSpanContext?.spanId).toBe(otel.span('execute_tool load_skill').spanContext().spanId);
    expect(span.attributes).toEqual({ 'gen_ai.skill.name': 'release', 'agent_toolbelt.skill.folder': '.skills/release' });
  });
});
