import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noApproverText } from '../../approval.js';
import { runTool } from '../../run-tool.js';
import { listTree, makeWriteKit, type WriteKit } from './test-support/write-kit.js';

let kit: WriteKit;
beforeEach(async () => {
  kit = await makeWriteKit();
});
afterEach(async () => {
  await kit.cleanup();
});

describe('delete_file', () => {
  it('refuses a link out reached by `..` after a missing folder, deleting nothing outside', async () => {
    await fs.writeFile(path.join(kit.outside, 'secret.txt'), 'secret');
    await fs.symlink(kit.outside, path.join(kit.root, 'out'));
    const deleted = await kit.run('delete_file', { path: 'nope/../out/secret.txt' });
    expect(deleted).toMatchObject({ isError: true, text: '`nope/../out/secret.txt` leads outside the workspace through a symbolic link, so it cannot be used. Work with files inside the workspace.' });
    const created = await kit.run('create_file', { path: 'nope/../out/new.txt', content: 'x' });
    expect(created).toMatchObject({ isError: true, text: '`nope/../out/new.txt` leads outside the workspace through a symbolic link, so it cannot be used. Work with files inside the workspace.' });
    expect(await fs.readdir(kit.outside)).toEqual(['secret.txt']);
  });

  it('deletes a file', async () => {
    await kit.put('a.txt', 'a');
    const result = await kit.run('delete_file', { path: 'a.txt' });
    expect(result).toMatchObject({ isError: false, text: 'Deleted `a.txt`.' });
    expect(await listTree(kit.root)).toEqual([]);
  });

  it('deletes a link, never its target (a file, a folder, or a file outside)', async () => {
    await kit.put('dir/keep.txt', 'keep');
    await fs.symlink('dir/keep.txt', path.join(kit.root, 'file-link'));
    await fs.symlink('dir', path.join(kit.root, 'dir-link'));
    await fs.writeFile(path.join(kit.outside, 'secret.txt'), 'secret');
    await fs.symlink(path.join(kit.outside, 'secret.txt'), path.join(kit.root, 'out-link'));
    expect((await kit.run('delete_file', { path: 'file-link' })).text).toBe('Deleted the symbolic link `file-link` (its target `dir/keep.txt` was not touched).');
    expect((await kit.run('delete_file', { path: 'dir-link' })).isError).toBe(false);
    expect((await kit.run('delete_file', { path: 'out-link' })).isError).toBe(false);
    expect(await listTree(kit.root)).toEqual(['dir', 'dir/keep.txt']);
    expect(await fs.readFile(path.join(kit.outside, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('refuses folders, missing files and the private folder', async () => {
    await kit.put('dir/a.txt', 'a');
    await kit.put('.toolbelt/output/x.txt', 'x');
    expect((await kit.run('delete_file', { path: 'dir' })).text).toBe(
      '`dir` is a folder; delete_file deletes only files and symbolic links, so nothing was deleted. Delete the files in it one by one, or ask the user.',
    );
    expect((await kit.run('delete_file', { path: 'nope.txt' })).text).toBe(
      '`nope.txt` does not exist, so nothing was deleted. Check the path with find_files or list_directory.',
    );
    expect((await kit.run('delete_file', { path: '.toolbelt/output/x.txt' })).text).toContain("inside the workspace's private folder");
    expect(await listTree(kit.root)).toEqual(['.toolbelt', '.toolbelt/output', '.toolbelt/output/x.txt', 'dir', 'dir/a.txt']);
  });

  it('asks for approval by default and is refused without an approver', async () => {
    await kit.put('a.txt', 'a');
    const refused = await runTool(kit.tools.delete_file, { path: 'a.txt' }, { session: kit.session });
    expect(refused).toMatchObject({ isError: true, text: noApproverText('delete_file') });
    expect(await listTree(kit.root)).toEqual(['a.txt']);
    const denied = await runTool(kit.tools.delete_file, { path: 'a.txt' }, { session: kit.session, approve: () => 'deny' });
    expect(denied.isError).toBe(true);
    expect(await listTree(kit.root)).toEqual(['a.txt']);
    const descriptions: string[] = [];
    await runTool(kit.tools.delete_file, { path: 'a.txt' }, {
      session: kit.session,
      approve: (request) => {
        descriptions.push(request.description);
        return 'approve';
      },
    });
    expect(descriptions).toEqual(['Delete a.txt']);
    expect(await listTree(kit.root)).toEqual([]);
  });

  it('forgets the read of a deleted file, so a new file at that path must be read again', async () => {
    await kit.put('a.txt', 'a\n');
    await kit.read('a.txt');
    await kit.run('delete_file', { path: 'a.txt' });
    await kit.put('a.txt', 'a\n');
    const result = await kit.run('edit_file', { path: 'a.txt', old_string: 'a', new_string: 'b' });
    expect(result.text).toContain('You have not read `a.txt` in this session');
  });
});
