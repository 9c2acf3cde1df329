/**
 * One tool call costs one round trip: every file tool over a real remote workspace (the
 * single-file server under bubblewrap, the folder mounted at a path the host does not have)
 * answers with the same text and data as the local workspace on an identical tree, in exactly
 * one request, and the session state the tools keep (read snapshots, the undo record) makes the
 * round trip: read, edit, undo; two reads side by side; the refusals' texts; what the box keeps
 * of a session between calls (only changes travel; a dropped or overtaken slice is sent again).
 */
import { lutimesSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileTools } from '../../src/dialects/file-tools.js';
import type { FileToolCollection } from '../../src/collections/files/index.js';
import { createReadOnlyFileTools } from '../../src/collections/files/read-tools.js';
import type { ApprovalRequest } from '../../src/approval.js';
import type { ToolProgress } from '../../src/progress.js';
import { runTool, type RunToolOptions, type RunToolResult } from '../../src/run-tool.js';
import { createSession, restoreSession, type Session } from '../../src/session.js';
import { recordWrite } from '../../src/collections/files/guard/read-state.js';
import type { SessionSlice } from '../../src/workspace/in-place.js';
import type { ToolCollection } from '../../src/tool.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import type { RemoteWorkspace } from '../../src/workspace/remote/remote-workspace.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { bundleCommand, bwrapBundleCommand, bwrapWorks, serverBundle, temporaryFolder } from './support.js';

const SANDBOXED = bwrapWorks();

/** The same tree in a folder: sources, a nested folder, a private folder, links in and out. */
function makeTree(base: string): string {
  const root = path.join(base, 'root');
  mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
  mkdirSync(path.join(root, 'docs'));
  mkdirSync(path.join(base, 'outside'));
  writeFileSync(path.join(base, 'outside', 'secret.txt'), 'not for the model\n');
  writeFileSync(path.join(root, 'src', 'a.ts'), Array.from({ length: 200 }, (_, index) => `export const value${index} = ${index};\n`).join(''));
  writeFileSync(path.join(root, 'src', 'b.ts'), 'import { value1 } from "./a";\nconsole.log(value1);\n');
  writeFileSync(path.join(root, 'src', 'deep', 'c.ts'), 'export function deep() {\n  return "deep";\n}\n');
  writeFileSync(path.join(root, 'docs', 'guide.md'), '# Guide\n\nRead the source.\n');
  writeFileSync(path.join(root, 'notes.txt'), 'first line\r\nsecond line\r\n');
  symlinkSync('src/b.ts', path.join(root, 'link-to-b.ts'));
  symlinkSync('../outside/secret.txt', path.join(root, 'link-out.txt'));
  symlinkSync('nowhere/at-all.txt', path.join(root, 'dangling.txt'));
  // find_files lists newest first: give both trees the same times, one file a minute apart.
  const entries = ['src/a.ts', 'src/b.ts', 'src/deep/c.ts', 'docs/guide.md', 'notes.txt', 'link-to-b.ts', 'link-out.txt', 'dangling.txt'];
  entries.forEach((entry, index) => {
    const time = new Date(Date.UTC(2026, 0, 1, 12, index));
    lutimesSync(path.join(root, entry), time, time);
  });
  return root;
}

/** A result with what differs by nature between two trees (backup names) taken out. */
function comparable(result: RunToolResult): unknown {
  const { error: _error, ...rest } = result;
  const backups = /\.toolbelt\/backups\/[^`\s]+/g;
  return JSON.parse(JSON.stringify(rest, (key, value: unknown) => (typeof value !== 'string' ? value : key === 'backup' ? '<backup>' : value.replace(backups, '<backup>'))));
}

interface Side {
  readonly files: FileToolCollection;
  session: Session;
}

let localRoot: string;
let remoteHostRoot: string;
let workspace: RemoteWorkspace;
let local: Side;
let remote: Side;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  const localBase = temporaryFolder();
  const remoteBase = temporaryFolder();
  localRoot = makeTree(localBase);
  remoteHostRoot = makeTree(remoteBase);
  const command = SANDBOXED ? bwrapBundleCommand(remoteHostRoot, await serverBundle()) : await bundleCommand(remoteHostRoot);
  workspace = (await connectWorkspace({ command })) as RemoteWorkspace;
  local = { files: createFileTools({ workspace: new Workspace(localRoot), keepBackups: true, ripgrep: false }), session: createSession() };
  remote = { files: createFileTools({ workspace, keepBackups: true, ripgrep: false }), session: createSession() };
  cleanups.push(() => workspace.close(), () => rmSync(localBase, { recursive: true, force: true }), () => rmSync(remoteBase, { recursive: true, force: true }));
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function toolOf(collection: ToolCollection, name: string) {
  const found = collection.tools.find((tool) => tool.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

/** Runs the call on both sides; returns both results and how many requests the remote one cost. */
async function both(name: string, input: Record<string, unknown>, options: Partial<RunToolOptions> = {}) {
  const localResult = await runTool(toolOf(local.files, name), input, { session: local.session, mode: 'auto', ...options });
  const before = workspace.requestCount;
  const remoteResult = await runTool(toolOf(remote.files, name), input, { session: remote.session, mode: 'auto', ...options });
  return { local: localResult, remote: remoteResult, requests: workspace.requestCount - before };
}

/** The call gives the same result on both sides, in one request; returns the remote result. */
async function same(name: string, input: Record<string, unknown>, options: Partial<RunToolOptions> = {}): Promise<RunToolResult> {
  const outcome = await both(name, input, options);
  expect(comparable(outcome.remote)).toEqual(comparable(outcome.local));
  expect(outcome.requests).toBe(1);
  return outcome.remote;
}

describe.skipIf(!SANDBOXED)('under bubblewrap, the folder at a path the host does not have', () => {
  it('runs the server in the box', () => {
    expect(workspace.root).toBe('/box-workspace-not-on-host');
  });
});

describe('every file tool: the same reply as local, in one request', () => {
  it('list_directory, find_files, search_files', async () => {
    expect((await same('list_directory', {})).isError).toBe(false);
    await same('list_directory', { path: 'src' });
    expect((await same('find_files', { pattern: '*.ts' })).text).toContain('src/deep/c.ts');
    await same('find_files', { pattern: 'src/**/*.ts' });
    expect((await same('search_files', { pattern: 'value1\\d', mode: 'lines' })).text).toContain('value10');
    await same('search_files', { pattern: 'deep', path: 'src', mode: 'counts' });
    await same('search_files', { pattern: 'nothing matches this' });
  });

  it('read_file: whole, a page, past the end, a folder, through a link', async () => {
    await same('read_file', { path: 'src/a.ts' });
    await same('read_file', { path: 'src/a.ts', start_line: 50, end_line: 60 });
    expect((await same('read_file', { path: 'src/a.ts', start_line: 500 })).isError).toBe(true);
    expect((await same('read_file', { path: 'src' })).isError).toBe(true);
    await same('read_file', { path: 'link-to-b.ts' });
  });

  it('edit_file, write_file, create_file, move_file, delete_file', async () => {
    await same('read_file', { path: 'src/b.ts' });
    expect((await same('edit_file', { path: 'src/b.ts', old_string: 'console.log(value1);', new_string: 'console.info(value1);' })).isError).toBe(false);
    await same('read_file', { path: 'docs/guide.md' });
    expect((await same('write_file', { path: 'docs/guide.md', content: '# Guide\n\nRewritten.\n' })).isError).toBe(false);
    expect((await same('create_file', { path: 'src/new/made.ts', content: 'export {};\n' })).isError).toBe(false);
    expect((await same('move_file', { source: 'src/new/made.ts', destination: 'src/moved.ts' })).isError).toBe(false);
    expect((await same('delete_file', { path: 'src/moved.ts' })).isError).toBe(false);
    await same('read_file', { path: 'notes.txt' });
    await same('edit_file', { path: 'notes.txt', old_string: 'second line', new_string: 'second line, edited' });
    expect(readFileSync(path.join(remoteHostRoot, 'notes.txt'), 'utf8')).toBe('first line\r\nsecond line, edited\r\n');
    expect(readFileSync(path.join(remoteHostRoot, 'src', 'b.ts'), 'utf8')).toBe(readFileSync(path.join(localRoot, 'src', 'b.ts'), 'utf8'));
  });

  it('undo takes back the same changes in one request; beginUndoUnit costs none', async () => {
    const before = workspace.requestCount;
    remote.files.beginUndoUnit(remote.session);
    local.files.beginUndoUnit(local.session);
    expect(workspace.requestCount).toBe(before);
    await same('read_file', { path: 'src/deep/c.ts' });
    await same('edit_file', { path: 'src/deep/c.ts', old_string: 'return "deep";', new_string: 'return "deeper";' });
    await same('create_file', { path: 'docs/extra.md', content: 'extra\n' });
    const localUndo = await local.files.undo(local.session);
    const start = workspace.requestCount;
    const remoteUndo = await remote.files.undo(remote.session);
    expect(workspace.requestCount - start).toBe(1);
    expect(remoteUndo.text).toBe(localUndo.text);
    expect(String(remoteUndo)).toBe(localUndo.text);
    expect(remoteUndo.restored).toEqual(localUndo.restored);
    expect(readFileSync(path.join(remoteHostRoot, 'src', 'deep', 'c.ts'), 'utf8')).toContain('return "deep";');
    // The snapshot undo forgot travelled back: an edit now needs a new read, on both sides.
    const edit = await same('edit_file', { path: 'src/deep/c.ts', old_string: 'return "deep";', new_string: 'return 1;' });
    expect(edit.isError).toBe(true);
    // And the record itself: a second undo takes back the unit before (edit, write, create, move, delete).
    const second = await Promise.all([local.files.undo(local.session), remote.files.undo(remote.session)]);
    expect(second[1].text).toBe(second[0].text);
    expect(readFileSync(path.join(remoteHostRoot, 'docs', 'guide.md'), 'utf8')).toBe('# Guide\n\nRead the source.\n');
  });
});

describe('refusals read exactly as they do locally', () => {
  beforeAll(() => {
    local.session = createSession();
    remote.session = createSession();
  });

  it('not read, changed since read, only partly read, the private folder', async () => {
    expect((await same('edit_file', { path: 'src/a.ts', old_string: 'value3 = 3;', new_string: 'value3 = 33;' })).text).toMatch(/^You have not read `src\/a.ts`/);
    await same('read_file', { path: 'src/a.ts', start_line: 1, end_line: 10 });
    expect((await same('write_file', { path: 'src/a.ts', content: 'whole\n' })).text).toMatch(/read only part/);
    await same('read_file', { path: 'docs/guide.md' });
    for (const root of [localRoot, remoteHostRoot]) writeFileSync(path.join(root, 'docs', 'guide.md'), '# Changed by someone else, longer\n');
    expect((await same('edit_file', { path: 'docs/guide.md', old_string: 'Changed', new_string: 'Edited' })).text).toMatch(/changed since you last read it/);
    expect((await same('create_file', { path: '.toolbelt/mine.txt', content: 'x' })).text).toMatch(/private folder/);
  });

  it('jail attacks: .., absolute paths, links out, dangling links', async () => {
    const attacks: [string, Record<string, unknown>][] = [
      ['read_file', { path: '../outside/secret.txt' }],
      ['read_file', { path: '/etc/passwd' }],
      ['read_file', { path: 'link-out.txt' }],
      ['read_file', { path: 'dangling.txt' }],
      ['list_directory', { path: '..' }],
      ['find_files', { pattern: '*', path: '../outside' }],
      ['search_files', { pattern: 'secret', path: 'link-out.txt' }],
      ['create_file', { path: '../outside/planted.txt', content: 'x' }],
      ['write_file', { path: 'link-out.txt', content: 'x' }],
      ['edit_file', { path: 'link-out.txt', old_string: 'not', new_string: 'yes' }],
      ['move_file', { source: 'src/b.ts', destination: '../outside/b.ts' }],
      ['delete_file', { path: '../outside/secret.txt' }],
    ];
    for (const [name, input] of attacks) {
      const result = await same(name, input);
      expect(result.isError, `${name} ${JSON.stringify(input)}`).toBe(true);
    }
    expect(readFileSync(path.join(remoteHostRoot, '..', 'outside', 'secret.txt'), 'utf8')).toBe('not for the model\n');
  });
});

describe('the session state round trip', () => {
  it('read, edit, undo through a session restored from JSON between the calls', async () => {
    let session = createSession();
    const files = remote.files;
    expect((await runTool(toolOf(files, 'read_file'), { path: 'src/deep/c.ts' }, { session })).isError).toBe(false);
    session = restoreSession(JSON.parse(JSON.stringify(session)));
    const edited = await runTool(toolOf(files, 'edit_file'), { path: 'src/deep/c.ts', old_string: 'deep()', new_string: 'deepest()' }, { session, mode: 'auto' });
    expect(edited.isError, edited.text).toBe(false);
    session = restoreSession(JSON.stringify(session));
    const undone = await files.undo(session);
    expect(undone.restored).toEqual([{ path: 'src/deep/c.ts', action: 'restored' }]);
    expect(readFileSync(path.join(remoteHostRoot, 'src', 'deep', 'c.ts'), 'utf8')).toContain('deep()');
  });

  it('two read_file calls side by side both leave their snapshot: two halves add up to a whole read', async () => {
    const session = createSession();
    const readFile = toolOf(remote.files, 'read_file');
    const before = workspace.requestCount;
    const [first, second] = await Promise.all([
      runTool(readFile, { path: 'src/a.ts', start_line: 1, end_line: 100 }, { session }),
      runTool(readFile, { path: 'src/a.ts', start_line: 101 }, { session }),
    ]);
    expect(workspace.requestCount - before).toBe(2);
    expect([first.isError, second.isError]).toEqual([false, false]);
    const write = await runTool(toolOf(remote.files, 'write_file'), { path: 'src/a.ts', content: 'export const all = 1;\n' }, { session, mode: 'auto' });
    expect(write.isError, write.text).toBe(false);
  });

  it('two read_file calls of different files side by side both count', async () => {
    const session = createSession();
    const readFile = toolOf(remote.files, 'read_file');
    await Promise.all([runTool(readFile, { path: 'src/b.ts' }, { session }), runTool(readFile, { path: 'docs/guide.md' }, { session })]);
    const edits = await Promise.all([
      runTool(toolOf(remote.files, 'edit_file'), { path: 'src/b.ts', old_string: 'import', new_string: 'import ' }, { session, mode: 'auto' }),
      runTool(toolOf(remote.files, 'edit_file'), { path: 'docs/guide.md', old_string: 'Changed', new_string: 'Changed again' }, { session, mode: 'auto' }),
    ]);
    expect(edits.map((edit) => edit.isError)).toEqual([false, false]);
  });
});

describe('the box keeps a session’s read snapshots between its steps', () => {
  /** Records the session slice of every step sent to the box while `run` runs, the real box answering. */
  async function slicesOf<T>(run: () => Promise<T>): Promise<{ result: T; slices: SessionSlice[] }> {
    const slices: SessionSlice[] = [];
    const send = workspace.runFileToolStep;
    workspace.runFileToolStep = (step, options) => {
      slices.push(structuredClone(step.session));
      return send.call(workspace, step, options);
    };
    try {
      return { result: await run(), slices };
    } finally {
      workspace.runFileToolStep = send;
    }
  }

  it('a long session’s step carries only what changed since its last step, with the local answers', async () => {
    const localSession = createSession();
    const remoteSession = createSession();
    for (let index = 0; index < 1_000; index += 1) {
      const stats = { mtimeMs: 1_700_000_000_000 + index, size: 100 + index };
      recordWrite(localSession, path.join(localRoot, 'gone', `file-${index}.ts`), stats);
      recordWrite(remoteSession, path.join(workspace.root, 'gone', `file-${index}.ts`), stats);
    }
    // A file of its own on both sides: other tests change the shared ones on one side only.
    const text = Array.from({ length: 120 }, (_, index) => `line ${index + 1}\n`).join('');
    for (const root of [localRoot, remoteHostRoot]) writeFileSync(path.join(root, 'pages.txt'), text);
    try {
      const readFile = (side: Side, session: Session, input: Record<string, unknown>) => runTool(toolOf(side.files, 'read_file'), input, { session });
      const pages = [{ path: 'pages.txt', start_line: 1, end_line: 50 }, { path: 'pages.txt', start_line: 51 }, { path: 'pages.txt', start_line: 51 }];
      const { result, slices } = await slicesOf(async () => {
        const results: RunToolResult[] = [];
        for (const page of pages) results.push(await readFile(remote, remoteSession, page));
        return results;
      });
      const expected: RunToolResult[] = [];
      for (const page of pages) expected.push(await readFile(local, localSession, page));
      expect(result.map(comparable)).toEqual(expected.map(comparable));
      expect(slices.map((slice) => Object.keys(slice.reads).length)).toEqual([1_000, 1, 1]);
      expect(slices.map((slice) => slice.keep?.since)).toEqual([undefined, 1, 2]);
      // The two pages added up to a whole read in the box as they do here, so a write needs no new read.
      const written = await runTool(toolOf(remote.files, 'write_file'), { path: 'pages.txt', content: 'rewritten\n' }, { session: remoteSession, mode: 'auto' });
      expect(written.isError, written.text).toBe(false);
    } finally {
      for (const root of [localRoot, remoteHostRoot]) rmSync(path.join(root, 'pages.txt'), { force: true });
    }
  });

  it('a session the box dropped to keep others is sent again whole: one request more, the same answers', async () => {
    const session = createSession();
    expect((await runTool(toolOf(remote.files, 'read_file'), { path: 'src/deep/c.ts' }, { session })).isError).toBe(false);
    // The box keeps 64 sessions a connection; 64 more push this one out.
    await Promise.all(Array.from({ length: 64 }, () => runTool(toolOf(remote.files, 'read_file'), { path: 'src/b.ts' }, { session: createSession() })));
    const original = readFileSync(path.join(remoteHostRoot, 'src', 'deep', 'c.ts'), 'utf8');
    try {
      let before = workspace.requestCount;
      const { result: edited, slices } = await slicesOf(() =>
        runTool(toolOf(remote.files, 'edit_file'), { path: 'src/deep/c.ts', old_string: 'deep()', new_string: 'deeper()' }, { session, mode: 'auto' }),
      );
      expect(edited.isError, edited.text).toBe(false);
      expect(workspace.requestCount - before).toBe(2);
      // The changes since the last step (the read's own snapshot, replayed here), then all of them.
      expect(slices.map((slice) => [Object.keys(slice.reads).length, slice.keep?.since])).toEqual([
        [1, 1],
        [1, undefined],
      ]);
      before = workspace.requestCount;
      const undone = await remote.files.undo(session);
      expect(undone.restored).toEqual([{ path: 'src/deep/c.ts', action: 'restored' }]);
      expect(workspace.requestCount - before).toBe(1);
      expect(readFileSync(path.join(remoteHostRoot, 'src', 'deep', 'c.ts'), 'utf8')).toBe(original);
    } finally {
      writeFileSync(path.join(remoteHostRoot, 'src', 'deep', 'c.ts'), original);
    }
  });

  it('a step that overtakes the one before it (a long input still going out in pieces) is sent again whole; both land', async () => {
    const session = createSession();
    const content = 'x'.repeat(1024 * 1024 - 1) + '\n';
    const before = workspace.requestCount;
    try {
      const { result, slices } = await slicesOf(async () => {
        const creating = runTool(toolOf(remote.files, 'create_file'), { path: 'docs/overtaken.txt', content }, { session, mode: 'auto' });
        // The create's slice is made; its input is still going out, a piece each turn. The session's
        // call order would hold the read until the create ends; `queued` says the caller holds it.
        await new Promise((resolve) => setImmediate(resolve));
        const reading = runTool(toolOf(remote.files, 'read_file'), { path: 'src/b.ts' }, { session, queued: true });
        return await Promise.all([creating, reading]);
      });
      const [created, read] = result;
      expect(workspace.requestCount - before).toBe(3);
      // The create's whole slice (version 1), the read's changes since it, refused, and the read's whole slice.
      expect(slices.map((slice) => [slice.keep?.version, slice.keep?.since])).toEqual([
        [1, undefined],
        [2, 1],
        [3, undefined],
      ]);
      expect(created.isError, created.text).toBe(false);
      expect(readFileSync(path.join(remoteHostRoot, 'docs', 'overtaken.txt'), 'utf8')).toBe(content);
      expect(read.text).toBe((await runTool(toolOf(remote.files, 'read_file'), { path: 'src/b.ts' }, { session: createSession() })).text);
      // Both snapshots came back; the box kept the read's whole slice, and the next step builds on it.
      const next = workspace.requestCount;
      const written = await runTool(toolOf(remote.files, 'write_file'), { path: 'src/b.ts', content: readFileSync(path.join(remoteHostRoot, 'src', 'b.ts'), 'utf8') }, { session, mode: 'auto' });
      expect(written.isError, written.text).toBe(false);
      expect(workspace.requestCount - next).toBe(1);
      const overwritten = await runTool(toolOf(remote.files, 'write_file'), { path: 'docs/overtaken.txt', content: 'short\n' }, { session, mode: 'auto' });
      expect(overwritten.isError, overwritten.text).toBe(false);
    } finally {
      rmSync(path.join(remoteHostRoot, 'docs', 'overtaken.txt'), { force: true });
    }
  });
});

describe('approval: the policy check is one request more only when someone is asked', () => {
  it('asked and approved: two requests, checked before asking', async () => {
    const session = createSession();
    await runTool(toolOf(remote.files, 'read_file'), { path: 'src/b.ts' }, { session });
    const asked: ApprovalRequest[] = [];
    const before = workspace.requestCount;
    const result = await runTool(toolOf(remote.files, 'write_file'), { path: 'src/b.ts', content: 'approved\n' }, { session, approve: (request) => (asked.push(request), 'approve') });
    expect(result.isError, result.text).toBe(false);
    expect(asked).toHaveLength(1);
    expect(workspace.requestCount - before).toBe(2);
  });

  it('a call the policy refuses is refused before anyone is asked, in one request', async () => {
    const asked: ApprovalRequest[] = [];
    const session = createSession();
    const before = workspace.requestCount;
    const refused = await runTool(toolOf(remote.files, 'write_file'), { path: 'src/deep/c.ts', content: 'unread\n' }, { session, approve: (request) => (asked.push(request), 'approve') });
    expect(workspace.requestCount - before).toBe(1);
    expect(asked).toEqual([]);
    const localRefused = await runTool(toolOf(local.files, 'write_file'), { path: 'src/deep/c.ts', content: 'unread\n' }, { session: createSession(), approve: () => 'approve' });
    expect(refused.text).toBe(localRefused.text);
  });

  it('plan mode: the policy refusal still comes first, then the mode refusal', async () => {
    const session = createSession();
    const outcome = await both('edit_file', { path: '../x', old_string: 'a', new_string: 'b' }, { session, mode: 'plan' });
    expect(outcome.remote.text).toBe(outcome.local.text);
    expect(outcome.remote.text).toMatch(/outside the workspace/);
    await runTool(toolOf(remote.files, 'read_file'), { path: 'src/b.ts' }, { session });
    const planned = await both('edit_file', { path: 'src/b.ts', old_string: 'a', new_string: 'b' }, { session, mode: 'plan' });
    expect(planned.remote.text).toMatch(/plan mode/);
  });
});

describe('progress, cancellation and the read-only collection', () => {
  it('search_files reports progress from the box', async () => {
    const events: ToolProgress[] = [];
    const result = await runTool(toolOf(remote.files, 'search_files'), { pattern: 'value' }, { session: createSession(), onProgress: (event) => events.push(event) });
    expect(result.isError).toBe(false);
    expect(events.length).toBeGreaterThan(0);
    expect(events.at(-1)!.message).toMatch(/match/);
  });

  it('cancelling a call cancels it in the box: an error result at once, and the connection goes on', async () => {
    // A pattern that backtracks for seconds on this line, so the search is still running when cancelled.
    writeFileSync(path.join(remoteHostRoot, 'slow.txt'), `${'a'.repeat(40)}!\n`);
    try {
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 300);
      const result = await runTool(toolOf(remote.files, 'search_files'), { pattern: '(a+)+$', path: 'slow.txt' }, { session: createSession(), signal: controller.signal });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/cancel/);
      expect(Date.now() - started).toBeLessThan(1_800);
      expect((await runTool(toolOf(remote.files, 'list_directory'), {}, { session: createSession() })).isError).toBe(false);
    } finally {
      rmSync(path.join(remoteHostRoot, 'slow.txt'));
    }
  });

  it('createReadOnlyFileTools runs in the box too', async () => {
    const readOnly = createReadOnlyFileTools({ workspace });
    const before = workspace.requestCount;
    const result = await runTool(toolOf(readOnly, 'read_file'), { path: 'src/b.ts' }, { session: createSession() });
    expect(result.isError).toBe(false);
    expect(workspace.requestCount - before).toBe(1);
  });
});

describe('the provider-shaped tools (files.native) run in the box too', () => {
  it('the text editor: view, str_replace, create, insert give the local replies, one request each', async () => {
    local.session = createSession();
    remote.session = createSession();
    const editors = { local: local.files.native.textEditor(), remote: remote.files.native.textEditor() };
    const calls: Record<string, unknown>[] = [
      { command: 'view', path: 'src/deep/c.ts' },
      { command: 'view', path: 'src/deep' },
      { command: 'str_replace', path: 'src/deep/c.ts', old_str: 'export function', new_str: 'export async function' },
      { command: 'insert', path: 'src/deep/c.ts', insert_line: 0, insert_text: '// inserted\n' },
      { command: 'create', path: 'docs/made-by-editor.md', file_text: 'made\n' },
      { command: 'str_replace', path: 'src/deep/c.ts', old_str: 'not there at all', new_str: 'x' },
    ];
    for (const input of calls) {
      const localResult = await runTool(editors.local, input, { session: local.session, mode: 'auto' });
      const before = workspace.requestCount;
      const remoteResult = await runTool(editors.remote, input, { session: remote.session, mode: 'auto' });
      expect(workspace.requestCount - before, JSON.stringify(input)).toBe(1);
      expect(comparable(remoteResult)).toEqual(comparable(localResult));
    }
    expect(readFileSync(path.join(remoteHostRoot, 'src', 'deep', 'c.ts'), 'utf8')).toBe(readFileSync(path.join(localRoot, 'src', 'deep', 'c.ts'), 'utf8'));
  });

  it("the Responses API's apply_patch: one request, the local reply", async () => {
    const patches = { local: local.files.native.applyPatch, remote: remote.files.native.applyPatch };
    const input = { operation: { type: 'create_file', path: 'docs/patched.md', diff: '+patched\n' } };
    const localResult = await runTool(patches.local, input, { session: local.session, mode: 'auto' });
    const before = workspace.requestCount;
    const remoteResult = await runTool(patches.remote, input, { session: remote.session, mode: 'auto' });
    expect(workspace.requestCount - before).toBe(1);
    expect(localResult.isError, localResult.text).toBe(false);
    expect(comparable(remoteResult)).toEqual(comparable(localResult));
    expect(readFileSync(path.join(remoteHostRoot, 'docs', 'patched.md'), 'utf8')).toBe('patched\n');
  });
});

describe('a whole file over the connection (the per-operation path other collections use)', () => {
  it('a small file in one request; a 3 MB one in 1 MB pieces, byte for byte, and written back in pieces', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 123);
    for (let index = 0; index < big.length; index += 1) big[index] = (index * 7919) % 251;
    writeFileSync(path.join(remoteHostRoot, 'big.bin'), big);
    try {
      let before = workspace.requestCount;
      expect((await workspace.readFile(path.join(workspace.root, 'src', 'deep', 'c.ts'))).toString('utf8')).toBe(readFileSync(path.join(remoteHostRoot, 'src', 'deep', 'c.ts'), 'utf8'));
      expect(workspace.requestCount - before).toBe(1);
      before = workspace.requestCount;
      expect((await workspace.readFile(path.join(workspace.root, 'big.bin'))).equals(big)).toBe(true);
      // Open with the first MB, three more reads (the last one short), and the close.
      expect(workspace.requestCount - before).toBe(5);
      // And back, in pieces sent ahead of one request.
      const reversed = Buffer.from(big).reverse();
      before = workspace.requestCount;
      await workspace.writeFileAtomic(path.join(workspace.root, 'big.bin'), reversed);
      expect(workspace.requestCount - before).toBe(1);
      expect(readFileSync(path.join(remoteHostRoot, 'big.bin')).equals(reversed)).toBe(true);
    } finally {
      rmSync(path.join(remoteHostRoot, 'big.bin'));
    }
  });
});

describe('the box trusts the caller with nothing', () => {
  it('parses a step’s input again, and refuses an unknown tool or collection', async () => {
    const step = { collection: 'files' as const, options: {}, phase: 'execute' as const, toolCallId: '', session: { id: 'x', reads: {} } };
    await expect(workspace.runFileToolStep({ ...step, tool: 'write_file', input: { path: 42, content: 'x' } })).rejects.toThrow(/Invalid arguments for write_file: `path`/);
    await expect(workspace.runFileToolStep({ ...step, tool: 'run_shell', input: { command: 'id' } })).rejects.toThrow(/no tool named "run_shell"/);
    await expect(workspace.runFileToolStep({ ...step, collection: 'shell' as never, tool: 'run_shell', input: { command: 'id' } })).rejects.toThrow(/only the file tools run in the box/);
  });
});

describe('a long input travels in pieces', () => {
  it('create_file and write_file of 1 MB with characters cut between pieces land byte for byte, in one request', async () => {
    const session = createSession();
    // A surrogate pair (an emoji) straddles each piece boundary, and multi-byte letters fill the rest.
    const piece = 256 * 1024;
    let content = '';
    while (content.length < 4 * piece) content += content.length % piece === piece - 1 ? '😀' : content.length % 50 === 49 ? '\n' : 'é';
    const before = workspace.requestCount;
    const created = await runTool(toolOf(remote.files, 'create_file'), { path: 'docs/long.txt', content }, { session, mode: 'auto' });
    expect(created.isError, created.text).toBe(false);
    expect(workspace.requestCount - before).toBe(1);
    expect(readFileSync(path.join(remoteHostRoot, 'docs', 'long.txt')).equals(Buffer.from(content, 'utf8'))).toBe(true);
    const rewritten = `${content}and one more line\n`;
    const written = await runTool(toolOf(remote.files, 'write_file'), { path: 'docs/long.txt', content: rewritten }, { session, mode: 'auto' });
    expect(written.isError, written.text).toBe(false);
    expect(readFileSync(path.join(remoteHostRoot, 'docs', 'long.txt'), 'utf8')).toBe(rewritten);
    rmSync(path.join(remoteHostRoot, 'docs', 'long.txt'));
  });
});
