import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKUP_MAX_COUNT } from './backups.js';
import { listTree, makeWriteKit, type WriteKit } from '../test-support/write-kit.js';

let kit: WriteKit;
beforeEach(async () => {
  kit = await makeWriteKit({ keepBackups: true });
});
afterEach(async () => {
  await kit.cleanup();
});

const DAY_MS = 24 * 60 * 60 * 1000;

describe('keepBackups', () => {
  it('copies a file to .toolbelt/backups/ before an edit, a write and a delete', async () => {
    await kit.put('a.txt', 'version 1\n');
    await kit.read('a.txt');
    const edit = await kit.run('edit_file', { path: 'a.txt', old_string: 'version 1', new_string: 'version 2' });
    const editBackup = (edit.data as { backup: string }).backup;
    expect(editBackup).toMatch(/^\.toolbelt\/backups\/\d{8}T\d{6}Z-[0-9a-f]{8}-a\.txt$/);
    expect(await kit.text(editBackup)).toBe('version 1\n');
    expect(await kit.text('.toolbelt/.gitignore')).toBe('*\n');

    const write = await kit.run('write_file', { path: 'a.txt', content: 'version 3\n' });
    expect(await kit.text((write.data as { backup: string }).backup)).toBe('version 2\n');

    const deleted = await kit.run('delete_file', { path: 'a.txt' });
    const deleteBackup = (deleted.data as { backup: string }).backup;
    expect(deleted.text).toBe(`Deleted \`a.txt\`. A copy is kept at \`${deleteBackup}\`.`);
    expect(await kit.text(deleteBackup)).toBe('version 3\n');
    expect((await fs.readdir(path.join(kit.root, '.toolbelt/backups'))).length).toBe(3);
  });

  it('removes copies older than a week and all but the newest 100', async () => {
    const folder = path.join(kit.root, '.toolbelt', 'backups');
    await fs.mkdir(folder, { recursive: true });
    const now = Date.now();
    for (let index = 0; index < 3; index += 1) {
      const file = path.join(folder, `old-${index}`);
      await fs.writeFile(file, 'old');
      await fs.utimes(file, new Date(now - 8 * DAY_MS), new Date(now - 8 * DAY_MS));
    }
    for (let index = 0; index < 102; index += 1) {
      const file = path.join(folder, `recent-${String(index).padStart(3, '0')}`);
      await fs.writeFile(file, 'recent');
      // recent-000 is the oldest of them, a minute apart each.
      const time = new Date(now - DAY_MS + index * 60_000);
      await fs.utimes(file, time, time);
    }
    await kit.put('a.txt', 'a\n');
    await kit.read('a.txt');
    const result = await kit.run('edit_file', { path: 'a.txt', old_string: 'a', new_string: 'b' });
    const names = await fs.readdir(folder);
    expect(names).toHaveLength(BACKUP_MAX_COUNT);
    expect(names.filter((name) => name.startsWith('old-'))).toEqual([]);
    expect(names.filter((name) => ['recent-000', 'recent-001', 'recent-002'].includes(name))).toEqual([]);
    expect(names).toContain('recent-003');
    expect(names).toContain(path.basename((result.data as { backup: string }).backup));
  });

  it('changes nothing when .toolbelt is a file, and says why', async () => {
    await kit.put('.toolbelt', 'not a folder');
    await kit.put('a.txt', 'keep me\n');
    await kit.read('a.txt');
    const edit = await kit.run('edit_file', { path: 'a.txt', old_string: 'keep', new_string: 'lose' });
    expect(edit).toMatchObject({ isError: true });
    expect(edit.text).toBe(
      "`a.txt` was not changed, because its backup copy could not be made (backups are switched on for this workspace). The workspace's private folder `.toolbelt` is a file, so nothing was written there. Ask the user to remove or rename it.",
    );
    expect((await kit.run('write_file', { path: 'a.txt', content: 'lost\n' })).isError).toBe(true);
    expect((await kit.run('delete_file', { path: 'a.txt' })).isError).toBe(true);
    expect(await kit.text('a.txt')).toBe('keep me\n');
    expect(await kit.text('.toolbelt')).toBe('not a folder');
  });

  it('changes nothing and writes nothing outside when .toolbelt is a link out of the workspace', async () => {
    await fs.symlink(kit.outside, path.join(kit.root, '.toolbelt'));
    await kit.put('a.txt', 'keep me\n');
    await kit.read('a.txt');
    const edit = await kit.run('edit_file', { path: 'a.txt', old_string: 'keep', new_string: 'lose' });
    expect(edit.text).toBe(
      "`a.txt` was not changed, because its backup copy could not be made (backups are switched on for this workspace). The workspace's private folder `.toolbelt` is a symbolic link, so nothing was written there. Ask the user to replace it with a real folder.",
    );
    expect(await kit.text('a.txt')).toBe('keep me\n');
    expect(await listTree(kit.outside)).toEqual([]);
  });

  it('makes no copy without keepBackups', async () => {
    const plain = await makeWriteKit();
    try {
      await plain.put('a.txt', 'a\n');
      await plain.read('a.txt');
      const result = await plain.run('edit_file', { path: 'a.txt', old_string: 'a', new_string: 'b' });
      expect((result.data as { backup?: string }).backup).toBeUndefined();
      expect(await listTree(plain.root)).toEqual(['a.txt']);
    } finally {
      await plain.cleanup();
    }
  });
});
