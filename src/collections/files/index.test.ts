import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { runTool } from '../../run-tool.js';
import { createSession, restoreSession } from '../../session.js';
import { Workspace } from '../../workspace/workspace.js';
import { createFileTools } from '../../dialects/file-tools.js';
import type { FileToolCollection } from './index.js';

let root: string;
let workspace: Workspace;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-files-')));
  workspace = new Workspace(root);
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function tool(files: FileToolCollection, name: string) {
  const found = files.tools.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

describe('createFileTools', () => {
  it('gives the nine file tools with their kinds, approval defaults and described fields', () => {
    const files = createFileTools({ workspace });
    expect(files.name).toBe('files');
    expect(files.tools.map((candidate) => [candidate.name, candidate.kind, candidate.needsApproval ?? false])).toEqual([
      ['list_directory', 'read', false],
      ['find_files', 'search', false],
      ['search_files', 'search', false],
      ['read_file', 'read', false],
      ['create_file', 'edit', false],
      ['write_file', 'edit', true],
      ['edit_file', 'edit', false],
      ['move_file', 'move', false],
      ['delete_file', 'delete', true],
    ]);
    expect(Object.keys(tool(files, 'edit_file').input.shape)).toEqual(['path', 'old_string', 'new_string', 'replace_all']);
    expect(Object.keys(tool(files, 'move_file').input.shape)).toEqual(['source', 'destination']);
    for (const candidate of files.tools) {
      for (const [field, schema] of Object.entries(candidate.input.shape as Record<string, z.ZodType>)) {
        expect(schema.description, `${candidate.name}.${field}`).toBeTruthy();
      }
    }
    expect(files.instructions).toContain('edit_file (exact text replacement: the usual way)');
    expect(files.instructions).toContain('read_file (numbered lines)');
  });

  it('checks its options when created, naming the option', () => {
    expect(() => createFileTools({ workspace, keepBackups: 'yes' as unknown as boolean })).toThrow(
      'Expected the `keepBackups` option to be a boolean, got `yes` (string).',
    );
    expect(() => createFileTools({ workspace, maxLineLength: 0 })).toThrow('Expected the `maxLineLength` option to be a positive integer, got `0` (number).');
    expect(() => createFileTools({ workspace: '/tmp' as unknown as Workspace })).toThrow('`workspace` option');
  });

  it('refuses undo without keepBackups, naming the option, and lets beginUndoUnit pass', async () => {
    const files = createFileTools({ workspace });
    const session = createSession();
    expect(() => files.beginUndoUnit(session)).not.toThrow();
    await expect(files.undo(session)).rejects.toThrow(
      'Undo needs backups: create the file tools with the `keepBackups` option set to true (createFileTools({ workspace, keepBackups: true })).',
    );
  });

  it('reads, edits, and takes one prompt back through the collection, also after JSON', async () => {
    const files = createFileTools({ workspace, keepBackups: true });
    await fs.writeFile(path.join(root, 'app.ts'), 'export const version = 1;\r\n');
    let session = createSession();
    const run = (name: string, input: Record<string, unknown>) => runTool(tool(files, name), input, { session, mode: 'auto' });

    files.beginUndoUnit(session);
    expect((await run('read_file', { path: 'app.ts' })).isError).toBe(false);
    expect((await run('edit_file', { path: 'app.ts', old_string: 'version = 1', new_string: 'version = 2' })).isError).toBe(false);

    files.beginUndoUnit(session);
    expect((await run('edit_file', { path: 'app.ts', old_string: 'version = 2', new_string: 'version = 3' })).isError).toBe(false);
    expect((await run('create_file', { path: 'notes.md', content: '# notes\n' })).isError).toBe(false);

    session = restoreSession(JSON.parse(JSON.stringify(session)));
    const undone = await files.undo(session);
    expect(undone.restored.map((file) => `${file.action} ${file.path}`)).toEqual(['removed notes.md', 'restored app.ts']);
    expect(await fs.readFile(path.join(root, 'app.ts'), 'utf8')).toBe('export const version = 2;\r\n');

    // The model must read the file again after an undo.
    const stale = await run('edit_file', { path: 'app.ts', old_string: 'version = 2', new_string: 'version = 9' });
    expect(stale.text).toContain('You have not read `app.ts` in this session');

    expect((await files.undo(session)).restored).toEqual([{ path: 'app.ts', action: 'restored' }]);
    expect(await fs.readFile(path.join(root, 'app.ts'), 'utf8')).toBe('export const version = 1;\r\n');
    expect((await files.undo(session)).nothingToUndo).toBe(true);
  });
});
