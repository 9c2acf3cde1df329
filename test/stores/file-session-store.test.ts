import { mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileSessionStore } from '../../src/index.js';
import { sessionStoreContract } from './contract.js';

sessionStoreContract('file', undefined, async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'toolbelt-file-store-'));
  const dir = path.join(root, 'sessions');
  return {
    config: { kind: 'file', dir },
    namePattern: new RegExp(`file session store in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    // Like a disk that went away: the folder is not there while the store is down.
    takeDown: () => rename(dir, `${dir}-down`),
    bringUp: () => rename(`${dir}-down`, dir),
    destroy: () => rm(root, { recursive: true, force: true }),
  };
});

describe('the file session store', () => {
  it('keeps any id inside its folder: slashes, dots, unicode and very long ids', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'toolbelt-file-store-ids-'));
    const store = createFileSessionStore({ dir });
    const ids = ['../escape', '..', '.', 'a/b\\c', 'ünï ✓', 'x'.repeat(500)];
    for (const id of ids) await store.withSession(id, (session) => session.approve(`key ${id}`));
    for (const id of ids) expect((await store.load(id))?.isApproved(`key ${id}`)).toBe(true);
    const folders = await readdir(dir);
    expect(folders).toHaveLength(ids.length);
    expect(folders.every((name) => !name.includes('/') && !name.startsWith('.') && name.length <= 200)).toBe(true);
    expect(await readdir(path.dirname(dir))).not.toContain('escape');
    await rm(dir, { recursive: true, force: true });
  });

  it('writes version files only its user can read, and keeps one version on disk', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'toolbelt-file-store-files-'));
    const store = createFileSessionStore({ dir });
    for (let turn = 0; turn < 3; turn += 1) await store.withSession('chat', (session) => session.approve(`turn ${turn}`));
    // Old versions are removed in the background.
    await expect.poll(async () => (await readdir(path.join(dir, 'chat'))).filter((name) => name.startsWith('v')), { timeout: 5_000 }).toEqual(['v3.json']);
    expect((await stat(path.join(dir, 'chat', 'v3.json'))).mode & 0o777).toBe(0o600);
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a missing dir, naming the option', () => {
    expect(() => createFileSessionStore({ dir: ' ' })).toThrow('Expected the `dir` option of createFileSessionStore to be a folder path, got ` ` (string).');
  });
});
