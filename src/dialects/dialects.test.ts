import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../approval.js';
import { createFileTools } from './file-tools.js';
import type { FileToolCollection } from '../collections/files/index.js';
import { createShellTools } from '../collections/shell/index.js';
import { runTool, type RunToolOptions } from '../run-tool.js';
import { createSession, type Session } from '../session.js';
import type { ToolCollection, ToolDefinition } from '../tool.js';
import { Workspace } from '../workspace/workspace.js';
import { nativeInstructions, nativeTools, toolsWithNative } from './native-tools.js';
import type { OpenAIShellData } from './openai-shell.js';

let base: string;
let root: string;
let files: FileToolCollection;
let shell: ToolCollection;
let session: Session;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-dialects-')));
  root = path.join(base, 'root');
  await fs.mkdir(root);
  const workspace = new Workspace(root);
  files = createFileTools({ workspace, keepBackups: true });
  shell = createShellTools({ workspace, allow: ['echo', 'cd', 'export', 'sleep', 'printf', 'cat'], timeoutMs: 5_000 });
  session = createSession();
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const put = (file: string, content: string) => fs.mkdir(path.dirname(path.join(root, file)), { recursive: true }).then(() => fs.writeFile(path.join(root, file), content));
const text = (file: string) => fs.readFile(path.join(root, file), 'utf8');
const call = (tool: ToolDefinition<any>, input: Record<string, unknown>, options: Partial<RunToolOptions> = {}) => runTool(tool, input, { session, mode: 'auto', ...options });

describe('nativeTools', () => {
  it('offers the text editor and bash for Anthropic, apply_patch and shell for OpenAI, and names what they replace', () => {
    const anthropic = nativeTools([files, shell], 'anthropic');
    expect([...anthropic.tools.keys()]).toEqual(['str_replace_based_edit_tool', 'bash']);
    expect([...anthropic.replaced].sort()).toEqual(['create_file', 'edit_file', 'read_file', 'run_shell', 'write_file']);
    const openai = nativeTools([files, shell], 'openai');
    expect([...openai.tools.keys()]).toEqual(['apply_patch', 'shell']);
    const merged = toolsWithNative(new Map([...files.tools, ...shell.tools].map((tool) => [tool.name, tool])), openai);
    expect([...merged.keys()].sort()).toEqual(['apply_patch', 'find_files', 'list_directory', 'move_file', 'read_file', 'search_files', 'shell']);
    expect(() => nativeTools([], 'openai')).toThrow('`native: true` offers the files and shell collections');
  });

  it('words the files and shell instructions with the native tools the model has', () => {
    const anthropic = nativeInstructions([files, shell], 'anthropic');
    expect(anthropic).toContain('str_replace_based_edit_tool');
    expect(anthropic).toContain('bash runs commands in the workspace, each call in a fresh process');
    expect(anthropic).not.toMatch(/\b(read_file|edit_file|write_file|create_file|run_shell)\b/);
    const openai = nativeInstructions([files, shell], 'openai');
    expect(openai).toContain('apply_patch');
    expect(openai).not.toMatch(/\b(edit_file|write_file|create_file|run_shell)\b/);
  });
});

describe('the Anthropic text editor', () => {
  const editor = () => nativeTools([files], 'anthropic', { maxCharacters: 200 }).tools.get('str_replace_based_edit_tool')!;

  it('views a file with line numbers and a view_range, a folder as a listing, and cuts at max_characters', async () => {
    await put('src/a.txt', 'one\ntwo\nthree\n');
    const view = await call(editor(), { command: 'view', path: 'src/a.txt', view_range: [2, -1] });
    expect(view.text).toBe('src/a.txt: lines 2-3 of 3 (end of file).\n2: two\n3: three');
    const folder = await call(editor(), { command: 'view', path: 'src' });
    expect(folder.text).toContain('a.txt');
    await put('long.txt', `${'x'.repeat(30)}\n`.repeat(20));
    const long = await call(editor(), { command: 'view', path: 'long.txt' });
    expect(long.text.length).toBeLessThanOrEqual(200);
    expect(long.text).toContain('cut at 200 characters; view a smaller view_range');
  });

  it('str_replace needs a view first, in the editor\'s own words, then edits; a miss shows the line and what differs', async () => {
    await put('a.py', 'def f():\n    return 1\n');
    const unread = await call(editor(), { command: 'str_replace', path: 'a.py', old_str: 'return 1', new_str: 'return 2' });
    expect(unread.text).toBe('You have not read `a.py` in this session, so str_replace will not change it. Read it with the view command first (the part you want to change is enough), then call str_replace again.');
    await call(editor(), { command: 'view', path: 'a.py' });
    const wrong = await call(editor(), { command: 'str_replace', path: 'a.py', old_str: 'return  1', new_str: 'return 2' });
    // Issue 26: a whitespace miss names the line and what differs, in the editor's words.
    expect(wrong.text).toContain('old_str was not found in `a.py` as written: the text is at line 2, but its whitespace differs, and str_replace never re-indents for you');
    expect(wrong.text).toContain('- line 2: between `return` and `1` the file has 1 space, old_str 2 spaces');
    const edited = await call(editor(), { command: 'str_replace', path: 'a.py', old_str: '  return 1', new_str: '  x' });
    expect(edited.isError, edited.text).toBe(false);
    expect(await text('a.py')).toBe('def f():\n    x\n');
  });

  it('create makes a new file unasked and overwrites an existing one only after a whole view, asking like write_file', async () => {
    const requests: ApprovalRequest[] = [];
    const approve = (request: ApprovalRequest) => (requests.push(request), 'approve' as const);
    expect((await call(editor(), { command: 'create', path: 'new/n.txt', file_text: 'n\n' }, { mode: 'ask', approve })).isError).toBe(false);
    expect(requests).toEqual([]);
    await put('old.txt', 'old\n');
    const unread = await call(editor(), { command: 'create', path: 'old.txt', file_text: 'new\n' }, { mode: 'ask', approve });
    expect(unread.text).toContain('You have not read `old.txt` in this session, so create will not overwrite it. Read it with the view command first, without view_range');
    await call(editor(), { command: 'view', path: 'old.txt' });
    expect((await call(editor(), { command: 'create', path: 'old.txt', file_text: 'new\n' }, { mode: 'ask', approve })).isError).toBe(false);
    expect(requests.map((request) => request.description)).toEqual(['Create or overwrite old.txt with 1 line (4 characters)']);
    expect(await text('old.txt')).toBe('new\n');
    expect(await text('new/n.txt')).toBe('n\n');
  });

  it('insert puts lines after insert_line, keeps CRLF, and is undone with the rest', async () => {
    await fs.writeFile(path.join(root, 'w.txt'), 'a\r\nb\r\n');
    await call(editor(), { command: 'view', path: 'w.txt' });
    files.beginUndoUnit(session);
    const result = await call(editor(), { command: 'insert', path: 'w.txt', insert_line: 1, insert_text: 'between\nagain' });
    expect(result.text).toBe('Inserted 2 lines into `w.txt` after line 1; they are now lines 2–3.');
    expect(await text('w.txt')).toBe('a\r\nbetween\r\nagain\r\nb\r\n');
    const outside = await call(editor(), { command: 'insert', path: 'w.txt', insert_line: 9, insert_text: 'x' });
    expect(outside.text).toContain('insert_line 9 is outside `w.txt`, which has 4 lines');
    await files.undo(session);
    expect(await text('w.txt')).toBe('a\r\nb\r\n');
  });

  it('counts view as a read and the rest as edits in plan mode, and refuses paths outside the workspace', async () => {
    await put('a.txt', 'a\n');
    expect((await call(editor(), { command: 'view', path: 'a.txt' }, { mode: 'plan' })).isError).toBe(false);
    expect((await call(editor(), { command: 'insert', path: 'a.txt', insert_line: 0, insert_text: 'x' }, { mode: 'plan' })).text).toContain('not available in plan mode');
    const outside = await call(editor(), { command: 'create', path: '../escape.txt', file_text: 'x' });
    expect(outside.text).toMatch(/outside the workspace/);
    await expect(fs.stat(path.join(base, 'escape.txt'))).rejects.toThrow();
  });
});

describe('the OpenAI apply_patch', () => {
  it('runs create_file, update_file and delete_file operations through the patch writer', async () => {
    const applyPatch = nativeTools([files], 'openai').tools.get('apply_patch')!;
    expect((await call(applyPatch, { operation: { type: 'create_file', path: 'n.txt', diff: '+one\n+two\n' } })).isError).toBe(false);
    expect(await text('n.txt')).toBe('one\ntwo\n');
    const update = await call(applyPatch, { operation: { type: 'update_file', path: 'n.txt', diff: '@@\n one\n-two\n+TWO\n' } });
    expect(update.isError, update.text).toBe(false);
    expect(await text('n.txt')).toBe('one\nTWO\n');
    const requests: ApprovalRequest[] = [];
    const denied = await call(applyPatch, { operation: { type: 'delete_file', path: 'n.txt' } }, { mode: 'ask', approve: (request) => (requests.push(request), 'deny') });
    expect(denied.text).toContain('Action denied by the user: apply_patch was not run.');
    expect(requests[0]).toMatchObject({ kind: 'delete', description: 'Apply a patch to 1 file:\n- Delete n.txt' });
  });
});

describe('the Anthropic bash tool', () => {
  const bash = () => nativeTools([shell], 'anthropic').tools.get('bash')!;

  it('runs a command through run_shell, asking like it', async () => {
    const requests: ApprovalRequest[] = [];
    const result = await call(bash(), { command: 'echo hi' }, { mode: 'ask', approve: (request) => (requests.push(request), 'approve') });
    expect(result.text).toContain('Exit code: 0');
    expect(result.text).toContain('hi');
    expect(requests[0]).toMatchObject({ toolName: 'bash', description: 'Run: echo hi', canAlwaysApprove: true });
    expect((await call(bash(), { command: 'rm -rf /' })).text).toContain('is not an allowed command on this host');
  });

  it('says when a command relies on state an earlier call set, and that restart has nothing to restart', async () => {
    // No allowlist here: with one, the policy refuses `export` itself.
    const unlisted = nativeTools([createShellTools({ workspace: new Workspace(root), timeoutMs: 5_000 })], 'anthropic').tools.get('bash')!;
    const bash = () => unlisted;
    const exported = await call(bash(), { command: 'export GREETING=hello' });
    expect(exported.text).toContain('Note: This command only set `GREETING`. Each bash call runs in a fresh process, so the next call will not have it');
    const used = await call(bash(), { command: 'echo $GREETING' });
    expect(used.text).toContain('Note: `$GREETING` was set by an earlier call, but each call is a fresh process, so it is not set here.');
    await call(bash(), { command: 'cd src' });
    const after = await call(bash(), { command: 'echo here' });
    expect(after.text).toContain('The previous call ran `cd src` alone, but this command ran in the workspace root');
    const restart = await call(bash(), { restart: true }, { mode: 'plan' });
    expect(restart).toMatchObject({ isError: false, text: expect.stringContaining('The shell was restarted.') });
  });
});

describe('the OpenAI shell tool', () => {
  const openaiShell = () => nativeTools([shell], 'openai').tools.get('shell')!;

  it('runs each command with its own outcome, honours timeout_ms and max_output_length', async () => {
    const result = await call(openaiShell(), { commands: ['echo one', 'printf 0123456789abcdefghij', 'sleep 5'], timeout_ms: 1_000, max_output_length: 10 });
    const data = result.data as OpenAIShellData;
    expect(data.commands.map((command) => command.outcome)).toEqual([{ type: 'exit', exit_code: 0 }, { type: 'exit', exit_code: 0 }, { type: 'timeout' }]);
    expect(data.commands[0]!.stdout).toBe('one');
    expect(data.commands[1]!.stdout).toBe('0123456789');
    expect(data.maxOutputLength).toBe(10);
  });

  it('checks every command against the policy before any runs', async () => {
    const result = await call(openaiShell(), { commands: ['echo ran > proof.txt', 'rm x'] });
    expect(result.text).toMatch(/^Command 1 of 2 \(`echo ran > proof.txt`\): Refused/);
    await expect(fs.stat(path.join(root, 'proof.txt'))).rejects.toThrow();
  });
});
