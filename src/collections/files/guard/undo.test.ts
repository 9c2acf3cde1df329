import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSession, restoreSession } from '../../../session.js';
import { listTree, makeWriteKit, type WriteKit } from '../test-support/write-kit.js';
import { beginUndoUnit, undoLastUnit } from './undo.js';

let kit: WriteKit;
beforeEach(async () => {
  kit = await makeWriteKit({ keepBackups: true });
});
afterEach(async () => {
  await kit.cleanup();
});

const undo = (session = kit.session) => undoLastUnit(session, kit.workspace);

async function expectOk(result: Promise<{ isError: boolean; text: string }>) {
  const { isError, text } = await result;
  expect(isError, text).toBe(false);
}

describe('undo', () => {
  it('takes back edits and writes byte for byte, CRLF and byte order mark included', async () => {
    const original = Buffer.from('\uFEFFfirst line\r\nsecond line\r\nlast line without ending', 'utf8');
    const absolute = await kit.put('win.txt', original);
    await fs.chmod(absolute, 0o640);
    await kit.read('win.txt');
    beginUndoUnit(kit.session, kit.workspace);
    await expectOk(kit.run('edit_file', { path: 'win.txt', old_string: 'second line\nlast', new_string: 'SECOND\nLAST' }));
    await expectOk(kit.run('write_file', { path: 'win.txt', content: 'all new\n' }));
    expect(await kit.bytes('win.txt')).not.toEqual(original);

    const result = await undo();
    expect(result.nothingToUndo).toBe(false);
    expect(result.restored).toEqual([{ path: 'win.txt', action: 'restored' }]);
    expect(result.skipped).toEqual([]);
    expect(await kit.bytes('win.txt')).toEqual(original);
    expect((await fs.stat(absolute)).mode & 0o777).toBe(0o640);
    expect(result.text).toBe(
      [
        'The user undid the file changes made for their previous message:',
        '- `win.txt`: back to its content before the change',
        'These files may differ from what you last read: read them again before changing them.',
      ].join('\n'),
    );
    expect(String(result)).toBe(result.text);
  });

  it('removes created files, moves moved ones back and puts deleted files and links back', async () => {
    await kit.put('keep/moved.txt', 'moved\n');
    const deleted = await kit.put('deleted.sh', '#!/bin/sh\necho hi\n');
    await fs.chmod(deleted, 0o755);
    await kit.put('target.txt', 'target\n');
    await fs.symlink('target.txt', path.join(kit.root, 'link'));
    const before = await listTree(kit.root);

    await expectOk(kit.run('create_file', { path: 'made/new.txt', content: 'new\n' }));
    await expectOk(kit.run('move_file', { source: 'keep/moved.txt', destination: 'elsewhere/moved.txt' }));
    await expectOk(kit.run('delete_file', { path: 'deleted.sh' }));
    await expectOk(kit.run('delete_file', { path: 'link' }));

    const result = await undo();
    expect(result.skipped).toEqual([]);
    expect(result.restored).toEqual([
      { path: 'link', action: 'recreated' },
      { path: 'deleted.sh', action: 'recreated' },
      { path: 'keep/moved.txt', action: 'moved-back', movedFrom: 'elsewhere/moved.txt' },
      { path: 'made/new.txt', action: 'removed' },
    ]);
    // Folders a tool made stay; everything else is as before.
    expect((await listTree(kit.root)).filter((entry) => !entry.startsWith('.toolbelt'))).toEqual([...before, 'elsewhere', 'made'].sort());
    expect(await kit.text('deleted.sh')).toBe('#!/bin/sh\necho hi\n');
    expect((await fs.stat(deleted)).mode & 0o777).toBe(0o755);
    expect(await fs.readlink(path.join(kit.root, 'link'))).toBe('target.txt');
    expect(await kit.text('keep/moved.txt')).toBe('moved\n');
    expect(result.text).toBe(
      [
        'The user undid the file changes made for their previous message:',
        '- `link`: put back (it had been deleted)',
        '- `deleted.sh`: put back (it had been deleted)',
        '- `keep/moved.txt`: moved back from `elsewhere/moved.txt`',
        '- `made/new.txt`: removed (it had been created)',
        'These files may differ from what you last read: read them again before changing them.',
      ].join('\n'),
    );
  });

  it('undoes several changes of one file, and a file created then edited, then moved and edited', async () => {
    await kit.put('a.txt', 'one\n');
    await kit.read('a.txt');
    await expectOk(kit.run('edit_file', { path: 'a.txt', old_string: 'one', new_string: 'two' }));
    await expectOk(kit.run('edit_file', { path: 'a.txt', old_string: 'two', new_string: 'three' }));
    await expectOk(kit.run('create_file', { path: 'b.txt', content: 'b1\n' }));
    await expectOk(kit.run('edit_file', { path: 'b.txt', old_string: 'b1', new_string: 'b2' }));
    await expectOk(kit.run('move_file', { source: 'a.txt', destination: 'c.txt' }));
    await expectOk(kit.run('edit_file', { path: 'c.txt', old_string: 'three', new_string: 'four' }));
    const result = await undo();
    expect(result.skipped).toEqual([]);
    expect(await listTree(kit.root).then((all) => all.filter((entry) => !entry.startsWith('.toolbelt')))).toEqual(['a.txt']);
    expect(await kit.text('a.txt')).toBe('one\n');
  });

  it('removes a file that was created, edited and moved in one unit', async () => {
    await expectOk(kit.run('create_file', { path: 'draft.md', content: 'draft\n' }));
    await expectOk(kit.run('edit_file', { path: 'draft.md', old_string: 'draft', new_string: 'final' }));
    await expectOk(kit.run('move_file', { source: 'draft.md', destination: 'docs/final.md' }));
    const result = await undo();
    expect(result.skipped).toEqual([]);
    expect(result.restored).toEqual([{ path: 'draft.md', action: 'removed' }]);
    expect(await listTree(kit.root).then((all) => all.filter((entry) => !entry.startsWith('.toolbelt')))).toEqual(['docs']);
  });

  it('skips and names a file changed since the tool left it, and restores the rest', async () => {
    await kit.put('mine.txt', 'mine 1\n');
    const theirs = await kit.put('theirs.txt', 'theirs 1\n');
    await kit.read('mine.txt');
    await kit.read('theirs.txt');
    await expectOk(kit.run('edit_file', { path: 'mine.txt', old_string: 'mine 1', new_string: 'mine 2' }));
    await expectOk(kit.run('edit_file', { path: 'theirs.txt', old_string: 'theirs 1', new_string: 'theirs 2' }));
    await expectOk(kit.run('create_file', { path: 'created.txt', content: 'created\n' }));
    await fs.writeFile(theirs, 'theirs 2, then a person typed more\n');
    await fs.appendFile(path.join(kit.root, 'created.txt'), 'and more\n');

    const result = await undo();
    expect(result.restored).toEqual([{ path: 'mine.txt', action: 'restored' }]);
    expect(result.skipped).toEqual([
      { path: 'created.txt', reason: 'it changed after the file tools left it, so it was left as it is' },
      { path: 'theirs.txt', reason: 'it changed after the file tools left it, so it was left as it is' },
    ]);
    expect(await kit.text('mine.txt')).toBe('mine 1\n');
    expect(await kit.text('theirs.txt')).toBe('theirs 2, then a person typed more\n');
    expect(await kit.text('created.txt')).toBe('created\nand more\n');
    expect(result.text).toBe(
      [
        'The user undid the file changes made for their previous message:',
        '- `mine.txt`: back to its content before the change',
        'Not undone:',
        '- `created.txt`: it changed after the file tools left it, so it was left as it is',
        '- `theirs.txt`: it changed after the file tools left it, so it was left as it is',
        'These files may differ from what you last read: read them again before changing them.',
      ].join('\n'),
    );
  });

  it('does not put a deleted file back over a new one, nor move back over one', async () => {
    await kit.put('gone.txt', 'old\n');
    await kit.put('from.txt', 'from\n');
    await expectOk(kit.run('delete_file', { path: 'gone.txt' }));
    await expectOk(kit.run('move_file', { source: 'from.txt', destination: 'to.txt' }));
    await kit.put('gone.txt', 'someone made a new one\n');
    await kit.put('from.txt', 'and another\n');
    const result = await undo();
    expect(result.restored).toEqual([]);
    expect(result.skipped).toEqual([
      { path: 'from.txt', reason: 'something new exists at `from.txt`, so `to.txt` was not moved back over it' },
      { path: 'gone.txt', reason: 'something new exists at its path, so the deleted file was not put back over it' },
    ]);
    expect(result.text.split('\n')[1]).toBe('Nothing could be undone:');
    expect(await kit.text('gone.txt')).toBe('someone made a new one\n');
    expect(await kit.text('to.txt')).toBe('from\n');
  });

  it('never writes outside the workspace, even when a folder was swapped for a link out', async () => {
    await kit.put('dir/gone.txt', 'content\n');
    await expectOk(kit.run('delete_file', { path: 'dir/gone.txt' }));
    await fs.rm(path.join(kit.root, 'dir'), { recursive: true });
    await fs.symlink(kit.outside, path.join(kit.root, 'dir'));
    const result = await undo();
    expect(result.skipped).toEqual([
      {
        path: 'dir/gone.txt',
        reason: 'it could not be restored: `dir/gone.txt` leads outside the workspace through a symbolic link, so it cannot be used. Work with files inside the workspace.',
      },
    ]);
    expect(await listTree(kit.outside)).toEqual([]);
  });

  it('never touches the private folder, whatever a crafted session record says', async () => {
    await kit.put('a.txt', 'a\n');
    await kit.read('a.txt');
    await expectOk(kit.run('edit_file', { path: 'a.txt', old_string: 'a', new_string: 'b' }));
    const json = JSON.parse(JSON.stringify(kit.session.toJSON()));
    const [backup] = await fs.readdir(path.join(kit.root, '.toolbelt', 'backups'));
    json.state['files.undo'][kit.workspace.root].units = [
      [
        { type: 'delete-link', path: '.toolbelt/notes', target: kit.outside },
        { type: 'delete', path: '.toolbelt/session-log.md', backup: `.toolbelt/backups/${backup}`, mode: 0o644 },
        { type: 'move', from: '.toolbelt/moved.txt', to: 'a.txt', after: 'ignored' },
      ],
    ];
    const result = await undo(restoreSession(json));
    const reason = 'it is inside the private folder `.toolbelt/`, which undo never changes';
    expect(result.restored).toEqual([]);
    expect(result.skipped).toEqual([
      { path: '.toolbelt/moved.txt', reason },
      { path: '.toolbelt/session-log.md', reason },
      { path: '.toolbelt/notes', reason },
    ]);
    expect((await fs.readdir(path.join(kit.root, '.toolbelt'))).sort()).toEqual(['.gitignore', 'backups']);
    expect(await kit.text('a.txt')).toBe('b\n');
  });

  it('restores permission bits but never special bits a crafted record asks for', async () => {
    await kit.put('a.txt', 'a\n');
    await kit.read('a.txt');
    await expectOk(kit.run('edit_file', { path: 'a.txt', old_string: 'a', new_string: 'b' }));
    const json = JSON.parse(JSON.stringify(kit.session.toJSON()));
    const [backup] = await fs.readdir(path.join(kit.root, '.toolbelt', 'backups'));
    json.state['files.undo'][kit.workspace.root].units = [
      [{ type: 'delete', path: 'gone.sh', backup: `.toolbelt/backups/${backup}`, mode: 0o6755 }],
    ];
    const result = await undo(restoreSession(json));
    expect(result.restored).toEqual([{ path: 'gone.sh', action: 'recreated' }]);
    expect((await fs.stat(path.join(kit.root, 'gone.sh'))).mode & 0o7777).toBe(0o755);
  });

  it('names a file whose backup copy is gone', async () => {
    await kit.put('a.txt', 'a\n');
    await kit.read('a.txt');
    await expectOk(kit.run('edit_file', { path: 'a.txt', old_string: 'a', new_string: 'b' }));
    await fs.rm(path.join(kit.root, '.toolbelt', 'backups'), { recursive: true });
    const result = await undo();
    expect(result.skipped).toEqual([
      { path: 'a.txt', reason: 'its backup copy in .toolbelt/backups/ is gone (copies are kept for a week, the newest 100)' },
    ]);
    expect(await kit.text('a.txt')).toBe('b\n');
  });

  it('takes back one unit at a time, newest first, passing over units without changes', async () => {
    await kit.put('a.txt', 'v1\n');
    await kit.read('a.txt');
    beginUndoUnit(kit.session, kit.workspace);
    await expectOk(kit.run('edit_file', { path: 'a.txt', old_string: 'v1', new_string: 'v2' }));
    beginUndoUnit(kit.session, kit.workspace);
    await expectOk(kit.run('edit_file', { path: 'a.txt', old_string: 'v2', new_string: 'v3' }));
    beginUndoUnit(kit.session, kit.workspace);
    beginUndoUnit(kit.session, kit.workspace);

    await undo();
    expect(await kit.text('a.txt')).toBe('v2\n');
    await undo();
    expect(await kit.text('a.txt')).toBe('v1\n');
    const last = await undo();
    expect(last.nothingToUndo).toBe(true);
    expect(last.restored).toEqual([]);
    expect(last.text).toBe('Undo: there were no file changes to undo, so nothing was changed.');
    expect(await kit.text('a.txt')).toBe('v1\n');
  });

  it('keeps changes made after an undo apart from older units', async () => {
    await kit.put('a.txt', 'v1\n');
    await kit.read('a.txt');
    await expectOk(kit.run('edit_file', { path: 'a.txt', old_string: 'v1', new_string: 'v2' }));
    beginUndoUnit(kit.session, kit.workspace);
    await expectOk(kit.run('edit_file', { path: 'a.txt', old_string: 'v2', new_string: 'v3' }));
    await undo();
    await kit.read('a.txt');
    await expectOk(kit.run('create_file', { path: 'b.txt', content: 'b' }));
    await undo();
    expect(await kit.text('a.txt')).toBe('v2\n');
    expect(await listTree(kit.root).then((all) => all.includes('b.txt'))).toBe(false);
  });

  it('works after the session went through JSON', async () => {
    const original = Buffer.from('\uFEFFa\r\nb\r\n', 'utf8');
    await kit.put('a.txt', original);
    await kit.read('a.txt');
    await expectOk(kit.run('edit_file', { path: 'a.txt', old_string: 'a\nb', new_string: 'c\nd' }));
    await expectOk(kit.run('create_file', { path: 'new.txt', content: 'new' }));
    const restored = restoreSession(JSON.parse(JSON.stringify(kit.session.toJSON())));
    const result = await undo(restored);
    expect(result.restored.map((file) => file.path)).toEqual(['new.txt', 'a.txt']);
    expect(await kit.bytes('a.txt')).toEqual(original);
  });

  it('never undoes another session\'s changes', async () => {
    const other = createSession();
    await kit.put('a.txt', 'a\n');
    await kit.read('a.txt', {}, other);
    await expectOk(kit.run('edit_file', { path: 'a.txt', old_string: 'a', new_string: 'b' }, other));
    expect((await undo()).nothingToUndo).toBe(true);
    expect(await kit.text('a.txt')).toBe('b\n');
  });
});
