import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../approval.js';
import { runTool } from '../../../run-tool.js';
import { createSession, type Session } from '../../../session.js';
import type { ToolDefinition } from '../../../tool.js';
import { Workspace } from '../../../workspace/workspace.js';
import { createFileTools } from '../../../dialects/file-tools.js';
import type { FileToolCollection } from '../index.js';

let base: string;
let root: string;
let files: FileToolCollection;
let session: Session;
let tools: Map<string, ToolDefinition<any>>;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-patch-')));
  root = path.join(base, 'root');
  await fs.mkdir(root);
  await fs.mkdir(path.join(base, 'outside'));
  files = createFileTools({ workspace: new Workspace(root), keepBackups: true, applyPatch: true });
  tools = new Map(files.tools.map((tool) => [tool.name, tool]));
  session = createSession();
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const put = async (file: string, content: string) => {
  await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await fs.writeFile(path.join(root, file), content);
};
const text = (file: string) => fs.readFile(path.join(root, file), 'utf8');
const exists = (file: string) => fs.lstat(path.join(root, file)).then(() => true, () => false);
const run = (name: string, input: Record<string, unknown>, options: { mode?: 'auto' | 'ask' | 'accept-edits' | 'plan'; approve?: (request: ApprovalRequest) => 'approve' | 'deny' } = {}) =>
  runTool(tools.get(name)!, input, { session, mode: options.mode ?? 'auto', ...(options.approve === undefined ? {} : { approve: options.approve }) });
const read = async (...paths: string[]) => {
  for (const file of paths) expect((await run('read_file', { path: file })).isError).toBe(false);
};
const patch = (...lines: string[]) => ({ patch: ['*** Begin Patch', ...lines, '*** End Patch'].join('\n') });

describe('apply_patch', () => {
  it('is offered only with applyPatch: true, and checks the option', () => {
    expect(createFileTools({ workspace: new Workspace(root) }).tools.map((tool) => tool.name)).not.toContain('apply_patch');
    expect(tools.has('apply_patch')).toBe(true);
    expect(() => createFileTools({ workspace: new Workspace(root), applyPatch: 'yes' as never })).toThrow('Expected the `applyPatch` option to be a boolean, got `yes` (string).');
  });

  it('adds, updates with several chunks, moves and deletes in one call', async () => {
    await put('src/a.ts', 'function one() {\n  return 1;\n}\n\nfunction two() {\n  return 2;\n}\n');
    await put('src/old.ts', 'export const old = true;\n');
    await put('gone.txt', 'bye\n');
    await read('src/a.ts', 'src/old.ts');
    const result = await run(
      'apply_patch',
      patch(
        '*** Add File: docs/new.md',
        '+# New',
        '+',
        '*** Update File: src/a.ts',
        '@@ function one() {',
        '-  return 1;',
        '+  return 10;',
        '@@ function two() {',
        '-  return 2;',
        '+  return 20;',
        '*** Update File: src/old.ts',
        '*** Move to: src/new.ts',
        '@@',
        '-export const old = true;',
        '+export const renamed = true;',
        '*** Delete File: gone.txt',
      ),
    );
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toMatch(
      /^Applied the patch to 4 files:\n- added `docs\/new\.md` \(2 lines\)\n- updated `src\/a\.ts`: 2 chunks, now at lines 2, 6\n- moved to `src\/new\.ts` and updated `src\/old\.ts`: 1 chunk, now at line 1\n- deleted `gone\.txt` \(a copy is kept at `\.toolbelt\/backups\/[^`]+-gone\.txt`\)$/,
    );
    expect(await text('docs/new.md')).toBe('# New\n\n');
    expect(await text('src/a.ts')).toBe('function one() {\n  return 10;\n}\n\nfunction two() {\n  return 20;\n}\n');
    expect(await text('src/new.ts')).toBe('export const renamed = true;\n');
    expect(await exists('src/old.ts')).toBe(false);
    expect(await exists('gone.txt')).toBe(false);
    expect((result.data as { diff: string }).diff).toContain('-  return 1;\n+  return 10;');
  });

  it('keeps CRLF line endings and a byte order mark, and matches LF context lines against CRLF files', async () => {
    await fs.writeFile(path.join(root, 'win.txt'), Buffer.from('\uFEFFone\r\ntwo\r\nthree\r\n', 'utf8'));
    await read('win.txt');
    const result = await run('apply_patch', patch('*** Update File: win.txt', ' one', '-two', '+TWO', '+two and a half', ' three'));
    expect(result.isError, result.text).toBe(false);
    expect(await fs.readFile(path.join(root, 'win.txt'))).toEqual(Buffer.from('\uFEFFone\r\nTWO\r\ntwo and a half\r\nthree\r\n', 'utf8'));
  });

  it('keeps a missing final line break and adds lines at the end with *** End of File', async () => {
    await put('a.txt', 'one\ntwo');
    await read('a.txt');
    expect((await run('apply_patch', patch('*** Update File: a.txt', ' two', '+three', '*** End of File'))).isError).toBe(false);
    expect(await text('a.txt')).toBe('one\ntwo\nthree');
  });

  it('refuses a chunk whose context does not match, naming it and showing the closest lines; nothing is written', async () => {
    await put('a.py', 'def f():\n    return 1\n\ndef g():\n    return 2\n');
    await put('b.py', 'x = 1\n');
    await read('a.py', 'b.py');
    const result = await run('apply_patch', patch('*** Update File: b.py', '-x = 1', '+x = 2', '*** Update File: a.py', '@@', ' def g():', '-  return 2', '+  return 3'));
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      'Part 2 of 2 of the patch (`*** Update File: a.py`) cannot be applied: Chunk 1 of 1 chunk for `a.py` (patch line 6): its context and removed lines were not found. The closest lines are 4–5:\n4: def g():\n5:     return 2\nRead the file again with read_file and copy the lines exactly, whitespace included. Nothing was changed (no file of the patch was written). Fix that part and send the whole patch again.',
    );
    expect(await text('b.py')).toBe('x = 1\n');
  });

  it('refuses a chunk that fits more than one place', async () => {
    await put('a.txt', 'x\ny\nx\ny\n');
    await read('a.txt');
    const result = await run('apply_patch', patch('*** Update File: a.txt', '-x', '+z'));
    expect(result.text).toContain('its context and removed lines occur 2 times (lines 1, 3), so the patch did not know which one to change');
    expect(await text('a.txt')).toBe('x\ny\nx\ny\n');
  });

  it('refuses a path outside the workspace before anything is written', async () => {
    await put('a.txt', 'a\n');
    await read('a.txt');
    const result = await run('apply_patch', patch('*** Update File: a.txt', '-a', '+b', '*** Add File: ../outside/evil.txt', '+evil'));
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/outside the workspace/);
    expect(await text('a.txt')).toBe('a\n');
    expect(await fs.readdir(path.join(base, 'outside'))).toEqual([]);
  });

  it('writes nothing when the second file fails (an Add File over an existing file)', async () => {
    await put('a.txt', 'a\n');
    await put('exists.txt', 'keep\n');
    await read('a.txt');
    const result = await run('apply_patch', patch('*** Update File: a.txt', '-a', '+b', '*** Add File: exists.txt', '+new'));
    expect(result.text).toBe(
      'Part 2 of 2 of the patch (`*** Add File: exists.txt`) cannot be applied: `exists.txt` already exists, and `*** Add File:` never overwrites; to change it, read it and use `*** Update File:`. Nothing was changed (no file of the patch was written). Fix that part and send the whole patch again.',
    );
    expect(await text('a.txt')).toBe('a\n');
    expect(await text('exists.txt')).toBe('keep\n');
  });

  it('puts back what it wrote when a later write fails (a file stands where a new file needs a folder)', async () => {
    await put('a.txt', 'a\n');
    await put('blocker', 'I am a file\n');
    await read('a.txt');
    const result = await run('apply_patch', patch('*** Update File: a.txt', '-a', '+b', '*** Add File: blocker/new.txt', '+n'));
    expect(result.isError).toBe(true);
    expect(result.text).toContain('Writing `blocker/new.txt` failed');
    expect(result.text).toContain('The files the patch had already changed were put back, so nothing was changed.');
    expect(await text('a.txt')).toBe('a\n');
    expect(await text('blocker')).toBe('I am a file\n');
  });

  it('refuses to update a file the session has not read, or one that changed since', async () => {
    await put('a.txt', 'a\n');
    const unread = await run('apply_patch', patch('*** Update File: a.txt', '-a', '+b'));
    expect(unread.text).toBe('You have not read `a.txt` in this session, so apply_patch will not change it. Read it with read_file first (the part you want to change is enough), then call apply_patch again.');
    await read('a.txt');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await put('a.txt', 'changed\n');
    const stale = await run('apply_patch', patch('*** Update File: a.txt', '-a', '+b'));
    expect(stale.text).toContain('changed since you last read it');
    expect(await text('a.txt')).toBe('changed\n');
  });

  it('asks like delete_file for a patch that deletes, and counts as a delete in accept-edits and plan modes', async () => {
    await put('a.txt', 'a\n');
    await put('gone.txt', 'x\n');
    await read('a.txt');
    const requests: ApprovalRequest[] = [];
    const approve = (request: ApprovalRequest) => (requests.push(request), 'deny' as const);
    const edit = patch('*** Update File: a.txt', '-a', '+b');
    expect((await run('apply_patch', edit, { mode: 'ask', approve })).isError).toBe(false);
    expect(requests).toEqual([]);

    const deletion = patch('*** Delete File: gone.txt');
    const denied = await run('apply_patch', deletion, { mode: 'accept-edits', approve });
    expect(denied.text).toBe('Action denied by the user: apply_patch was not run. Do not retry the same call; ask or change approach.');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ toolName: 'apply_patch', kind: 'delete', description: 'Apply a patch to 1 file:\n- Delete gone.txt' });
    expect((await run('apply_patch', deletion, { mode: 'plan', approve })).text).toContain('apply_patch is not available in plan mode: delete tools are switched off');
    expect(await exists('gone.txt')).toBe(true);
  });

  it('describes the change for approval with the files and the diff', async () => {
    await put('a.txt', 'a\n');
    await read('a.txt');
    const requests: ApprovalRequest[] = [];
    await runTool(tools.get('apply_patch')!, patch('*** Update File: a.txt', '-a', '+b', '*** Add File: n.txt', '+n'), {
      session,
      needsApproval: { apply_patch: true },
      approve: (request) => (requests.push(request), 'approve'),
    });
    expect(requests[0]!.description).toBe('Apply a patch to 2 files:\n- Update a.txt\n- Add n.txt (1 line)\n--- a.txt\n+++ a.txt\n@@\n-a\n+b\n--- /dev/null\n+++ n.txt\n+n');
  });

  it('is undone as one change: every file of the patch comes back', async () => {
    await put('a.txt', 'a\n');
    await put('m.txt', 'm\n');
    await put('gone.txt', 'g\n');
    await read('a.txt', 'm.txt');
    files.beginUndoUnit(session);
    const result = await run('apply_patch', patch('*** Update File: a.txt', '-a', '+b', '*** Add File: n.txt', '+n', '*** Update File: m.txt', '*** Move to: moved/m.txt', '-m', '+M', '*** Delete File: gone.txt'));
    expect(result.isError, result.text).toBe(false);
    const undone = await files.undo(session);
    expect(undone.skipped).toEqual([]);
    expect(undone.restored.map((file) => file.path).sort()).toEqual(['a.txt', 'gone.txt', 'm.txt', 'n.txt']);
    expect(await text('a.txt')).toBe('a\n');
    expect(await text('m.txt')).toBe('m\n');
    expect(await text('gone.txt')).toBe('g\n');
    expect(await exists('n.txt')).toBe(false);
    expect(await exists('moved/m.txt')).toBe(false);
  });

  it('refuses a patch that is not V4A, as a result the model can act on', async () => {
    const result = await run('apply_patch', { patch: '--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-a\n+b\n' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^The patch is not valid V4A at line 1: the patch must start with `\*\*\* Begin Patch`/);
  });
});
