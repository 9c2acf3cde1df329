import { mkdir, mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileTools, createJsonlAuditSink, createSession, createShellTools, runTool, Workspace, type AuditRecord, type ToolCollection, type ToolDefinition } from '../index.js';
import { inputDigest, pathsWritten } from './audit-record.js';

const tool = (collection: ToolCollection, name: string): ToolDefinition<any> => collection.tools.find((candidate) => candidate.name === name)!;

async function project() {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolbelt-audit-')));
  await writeFile(path.join(root, 'notes.txt'), 'alpha\nbeta\n');
  const workspace = new Workspace(root);
  return { root, files: createFileTools({ workspace }), shell: createShellTools({ workspace }) };
}

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

describe('the audit trail', () => {
  it('writes one JSONL record per call that changed something or needed approval, before the result returns', async () => {
    const { root, files, shell } = await project();
    const file = path.join(root, '..', `${path.basename(root)}-audit`, 'audit.jsonl');
    const onAudit = createJsonlAuditSink(file);
    const session = createSession({ id: 'chat-7' });
    const options = { session, onAudit, subject: 'user-42' };
    const answers = ['approve', { type: 'deny', reason: 'not now' }, 'always'] as const;
    const approve = () => answers[asked++]!;
    let asked = 0;

    await runTool(tool(files, 'read_file'), { path: 'notes.txt' }, { ...options, toolCallId: 'c1' });
    await runTool(tool(files, 'edit_file'), { path: 'notes.txt', old_string: 'beta', new_string: 'gamma' }, { ...options, toolCallId: 'c2' });
    const lines = async () => (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as AuditRecord);
    // Written before the result came back.
    expect((await lines()).map((record) => record.toolCallId)).toEqual(['c2']);
    await runTool(tool(files, 'write_file'), { path: 'notes.txt', content: 'new\n' }, { ...options, toolCallId: 'c3', approve });
    await runTool(tool(files, 'delete_file'), { path: 'notes.txt' }, { ...options, toolCallId: 'c4', approve });
    await runTool(tool(files, 'move_file'), { source: 'notes.txt', destination: 'moved.txt' }, { ...options, toolCallId: 'c5' });
    await runTool(tool(shell, 'run_shell'), { command: 'echo hi' }, { ...options, toolCallId: 'c6', approve });
    await runTool(tool(shell, 'run_shell'), { command: 'echo hi' }, { ...options, toolCallId: 'c7', approve });
    await onAudit.close();

    const records = await lines();
    expect(records.map(({ toolCallId, tool, outcome, approval, paths }) => ({ toolCallId, tool, outcome, approval, paths }))).toEqual([
      { toolCallId: 'c2', tool: 'edit_file', outcome: 'ok', approval: undefined, paths: ['notes.txt'] },
      { toolCallId: 'c3', tool: 'write_file', outcome: 'ok', approval: { decision: 'approve', by: 'user-42' }, paths: ['notes.txt'] },
      { toolCallId: 'c4', tool: 'delete_file', outcome: 'denied', approval: { decision: 'deny', by: 'user-42', reason: 'not now' }, paths: undefined },
      { toolCallId: 'c5', tool: 'move_file', outcome: 'ok', approval: undefined, paths: ['notes.txt', 'moved.txt'] },
      { toolCallId: 'c6', tool: 'run_shell', outcome: 'ok', approval: { decision: 'always', by: 'user-42' }, paths: undefined },
      // Remembered "always": it needed no question, and still changed something.
      { toolCallId: 'c7', tool: 'run_shell', outcome: 'ok', approval: undefined, paths: undefined },
    ]);
    for (const record of records) {
      expect(record).toMatchObject({ sessionId: 'chat-7', subject: 'user-42' });
      expect(record.inputDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(Date.parse(record.time)).not.toBeNaN();
      expect(record.time.endsWith('Z')).toBe(true);
      expect(record.durationMs).toBeGreaterThanOrEqual(0);
      expect(record.traceId).toBeUndefined();
    }
    expect(records[0]!.kind).toBe('edit');
    expect(records[4]!.inputDigest).toBe(records[5]!.inputDigest);
    expect(records[0]!.inputDigest).toBe(inputDigest({ new_string: 'gamma', old_string: 'beta', path: 'notes.txt' }));
    expect(await readFile(path.join(root, 'moved.txt'), 'utf8')).toBe('new\n');
  });

  it('reads the paths written from what the tools report', () => {
    expect(pathsWritten('edit', { path: 'a.ts', unchanged: true })).toEqual([]);
    expect(pathsWritten('edit', { files: [{ path: 'a.ts', action: 'updated' }, { path: 'b.ts', action: 'moved', movedTo: 'c.ts' }] })).toEqual(['a.ts', 'b.ts', 'c.ts']);
    expect(pathsWritten('read', { path: 'a.ts' })).toEqual([]);
    expect(pathsWritten('execute', { command: 'ls' })).toEqual([]);
  });

  it('digests equal inputs equally whatever the order of their keys', () => {
    expect(inputDigest({ a: 1, b: { c: [1, { e: 2, d: 3 }] } })).toBe(inputDigest({ b: { c: [1, { d: 3, e: 2 }] }, a: 1 }));
    expect(inputDigest({ a: 1 })).not.toBe(inputDigest({ a: 2 }));
  });

  it('records a call refused for want of an approver, and one the host brought approved', async () => {
    const { files } = await project();
    const records: AuditRecord[] = [];
    const onAudit = (record: AuditRecord) => void records.push(record);
    process.on('warning', onWarning);
    await runTool(tool(files, 'delete_file'), { path: 'notes.txt' }, { session: createSession(), onAudit });
    await runTool(tool(files, 'delete_file'), { path: 'notes.txt' }, { session: createSession(), onAudit, approved: true, subject: 'alice' });
    expect(records.map(({ outcome, approval, paths }) => ({ outcome, approval, paths }))).toEqual([
      { outcome: 'no_approver', approval: { decision: 'unavailable' }, paths: undefined },
      { outcome: 'ok', approval: { decision: 'preapproved', by: 'alice' }, paths: ['notes.txt'] },
    ]);
  });

  it('never lets a failing sink break a call, and says so once', async () => {
    const { files } = await project();
    process.on('warning', onWarning);
    const onAudit = async () => {
      throw new Error('disk full');
    };
    const session = createSession();
    const first = await runTool(tool(files, 'create_file'), { path: 'a.txt', content: 'a' }, { session, onAudit });
    const second = await runTool(tool(files, 'create_file'), { path: 'b.txt', content: 'b' }, { session, onAudit });
    expect([first.isError, second.isError]).toEqual([false, false]);
    expect(first.text).toContain('a.txt');
    await new Promise((resolve) => setImmediate(resolve));
    const ours = warnings.filter((warning) => (warning as Error & { code?: string }).code === 'AGENT_TOOLBELT_AUDIT_FAILED');
    expect(ours.map((warning) => warning.message)).toEqual([
      'agent-toolbelt could not write an audit record: disk full. The tool call went on; later failures of this audit sink are not reported.',
    ]);
  });

  it('reports a JSONL file it cannot write to its onError once, and goes on', async () => {
    const { root, files } = await project();
    const folder = path.join(root, 'in-the-way');
    await mkdir(folder);
    const errors: unknown[] = [];
    const onAudit = createJsonlAuditSink(folder, { onError: (error) => errors.push(error) });
    const session = createSession();
    const results = [
      await runTool(tool(files, 'create_file'), { path: 'a.txt', content: 'a' }, { session, onAudit }),
      await runTool(tool(files, 'create_file'), { path: 'b.txt', content: 'b' }, { session, onAudit }),
    ];
    await onAudit.close();
    expect(results.map((result) => result.isError)).toEqual([false, false]);
    expect(errors).toHaveLength(1);
    expect((errors[0] as NodeJS.ErrnoException).code).toBe('EISDIR');
  });

  it('refuses a sink that is not a function, naming the option', async () => {
    const { files } = await project();
    await expect(runTool(tool(files, 'read_file'), { path: 'notes.txt' }, { session: createSession(), onAudit: 'audit.jsonl' as never })).rejects.toThrow(
      "Expected the `onAudit` option of runTool to be a function of the audit record, such as `createJsonlAuditSink('audit.jsonl')`, got string.",
    );
  });
});
