import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listTree, makeWriteKit, type WriteKit } from './test-support/write-kit.js';

let kit: WriteKit;
beforeEach(async () => {
  kit = await makeWriteKit();
});
afterEach(async () => {
  await kit.cleanup();
});

describe('move_file', () => {
  it('moves a file, making missing parents, and a read of it still counts at the new path', async () => {
    await kit.put('a.txt', 'hello\n');
    await kit.read('a.txt');
    const result = await kit.run('move_file', { source: 'a.txt', destination: 'new/place/b.txt' });
    expect(result).toMatchObject({ isError: false, text: 'Moved `a.txt` to `new/place/b.txt`.' });
    expect(await listTree(kit.root)).toEqual(['new', 'new/place', 'new/place/b.txt']);
    expect((await kit.run('edit_file', { path: 'new/place/b.txt', old_string: 'hello', new_string: 'bye' })).isError).toBe(false);
  });

  it('never overwrites an existing destination', async () => {
    await kit.put('a.txt', 'a\n');
    await kit.put('b.txt', 'b\n');
    const result = await kit.run('move_file', { source: 'a.txt', destination: 'b.txt' });
    expect(result.text).toBe(
      '`b.txt` already exists, and move_file never overwrites, so nothing was moved. Choose another destination, or delete `b.txt` first if it is really no longer wanted.',
    );
    expect(await kit.text('a.txt')).toBe('a\n');
    expect(await kit.text('b.txt')).toBe('b\n');
  });

  it('explains a folder destination instead of moving into it', async () => {
    await kit.put('a.txt', 'a\n');
    await fs.mkdir(path.join(kit.root, 'lib'));
    const result = await kit.run('move_file', { source: 'a.txt', destination: 'lib' });
    expect(result.text).toBe('`lib` is an existing folder, and move_file never overwrites. To move into it, give the full new path, such as `lib/a.txt`.');
  });

  it('moves a link itself and leaves its target alone', async () => {
    await kit.put('target.txt', 'target\n');
    await fs.symlink('target.txt', path.join(kit.root, 'link.txt'));
    const result = await kit.run('move_file', { source: 'link.txt', destination: 'renamed-link.txt' });
    expect(result.text).toBe('Moved the symbolic link `link.txt` to `renamed-link.txt`.');
    expect(await fs.readlink(path.join(kit.root, 'renamed-link.txt'))).toBe('target.txt');
    expect(await kit.text('target.txt')).toBe('target\n');
  });

  it('moves a link that points out of the workspace without touching what it points to', async () => {
    await fs.writeFile(path.join(kit.outside, 'secret.txt'), 'secret\n');
    await fs.symlink(path.join(kit.outside, 'secret.txt'), path.join(kit.root, 'out-link'));
    const result = await kit.run('move_file', { source: 'out-link', destination: 'moved-link' });
    expect(result.isError).toBe(false);
    expect(await listTree(kit.outside)).toEqual(['secret.txt']);
    expect(await fs.readFile(path.join(kit.outside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  it('moves folders, but not into themselves, not the root, and not in or out of the private folder', async () => {
    await kit.put('pkg/index.ts', 'x');
    expect((await kit.run('move_file', { source: 'pkg', destination: 'pkg/inner' })).text).toBe(
      '`pkg/inner` is inside `pkg`; a folder cannot be moved into itself. Choose a destination outside it.',
    );
    expect((await kit.run('move_file', { source: '.', destination: 'elsewhere' })).text).toBe(
      'The workspace root folder cannot be moved. Give the path of a file or folder inside it.',
    );
    expect((await kit.run('move_file', { source: 'pkg/index.ts', destination: '.toolbelt/hidden.ts' })).text).toContain('private folder');
    await kit.put('.toolbelt/output/log.txt', 'x');
    expect((await kit.run('move_file', { source: '.toolbelt/output/log.txt', destination: 'log.txt' })).text).toContain('private folder');
    expect((await kit.run('move_file', { source: 'pkg', destination: 'lib/pkg' })).text).toBe('Moved the folder `pkg` to `lib/pkg`.');
    expect(await kit.text('lib/pkg/index.ts')).toBe('x');
  });

  it('answers a missing source and a destination outside the workspace', async () => {
    expect((await kit.run('move_file', { source: 'nope.txt', destination: 'b.txt' })).text).toBe(
      '`nope.txt` does not exist, so nothing was moved. Check the path with find_files or list_directory.',
    );
    await kit.put('a.txt', 'a');
    expect((await kit.run('move_file', { source: 'a.txt', destination: '../outside/a.txt' })).text).toContain('is outside the workspace');
    expect(await listTree(kit.outside)).toEqual([]);
  });
});
