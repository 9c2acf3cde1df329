import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileSessionStore, createSession, createTaskListTools, runTool, SessionBusyError, SessionLeaseLostError, type Session } from '../../src/index.js';
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

const tasks = createTaskListTools();
const addTask = (session: Session, subject: string) => runTool(tasks.tools.find((tool) => tool.name === 'task_add')!, { tasks: [{ subject }] }, { session });
const subjects = async (session: Session | undefined) => (session === undefined ? [] : (await tasks.getTasks(session)).map((task) => task.subject));
const waitFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  it('marks a finished turn’s lease released with a second name of its file, so the next turn lists the folder and goes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'toolbelt-file-store-lease-'));
    const store = createFileSessionStore({ dir });
    await store.withSession('chat', (session) => addTask(session, 'one'));
    await store.withSession('chat', (session) => addTask(session, 'two'), { waitMs: 0 });
    const folder = path.join(dir, 'chat');
    await expect.poll(async () => (await readdir(folder)).sort(), { timeout: 5_000 }).toEqual(['lease-2.json', 'lease-2.released', 'v2.json']);
    expect((await stat(path.join(folder, 'lease-2.released'))).ino).toBe((await stat(path.join(folder, 'lease-2.json'))).ino);
    expect(JSON.parse(await readFile(path.join(folder, 'lease-2.json'), 'utf8'))).toMatchObject({ released: false, pid: process.pid });
    expect(await subjects(await store.load('chat'))).toEqual(['one', 'two']);
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a folder written before the release marker: its versions, its released leases and the expiry of a held one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'toolbelt-file-store-format-'));
    const seed = createSession({ id: 'old' });
    await addTask(seed, 'from the old format');
    const folder = path.join(dir, 'old');
    await mkdir(folder);
    await writeFile(path.join(folder, 'v2.json'), JSON.stringify({ format: 1, id: 'old', version: 2, savedAt: Date.now(), expiresAt: null, session: seed.toJSON() }));
    // How the previous format released a lease: the generation file rewritten with released: true.
    await writeFile(path.join(folder, 'lease-3.json'), JSON.stringify({ token: 'old-token', expiresAt: Date.now() + 60_000, pid: 1, released: true }));
    const store = createFileSessionStore({ dir });
    expect(await store.withSession('old', async (session, turn) => ({ tasks: await subjects(session), version: turn.version }), { waitMs: 0 })).toEqual({
      tasks: ['from the old format'],
      version: 2,
    });
    await expect.poll(async () => (await readdir(folder)).sort(), { timeout: 5_000 }).toEqual(['lease-4.json', 'lease-4.released', 'v3.json']);

    // A lease the previous format still holds keeps this one out until it expires.
    await writeFile(path.join(folder, 'lease-5.json'), JSON.stringify({ token: 'old-holder', expiresAt: Date.now() + 600, pid: 1, released: false }));
    await expect(store.withSession('old', () => undefined, { waitMs: 0 })).rejects.toBeInstanceOf(SessionBusyError);
    const began = Date.now();
    expect(await store.withSession('old', (session) => subjects(session), { waitMs: 5_000 })).toEqual(['from the old format']);
    expect(Date.now() - began).toBeGreaterThanOrEqual(300);
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses the save of a turn whose session was deleted and started again by another turn with the same lease number', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'toolbelt-file-store-reborn-'));
    const [first, second, third] = [createFileSessionStore({ dir }), createFileSessionStore({ dir }), createFileSessionStore({ dir })];
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => (finish = resolve));
    let started!: () => void;
    const inSecond = new Promise<void>((resolve) => (started = resolve));
    let secondTurn: Promise<unknown> | undefined;
    const error = await first
      .withSession('chat', async (session) => {
        await addTask(session, 'from the deleted chat');
        await third.delete('chat');
        // The new chat's first lease is generation 1 again, like ours: only its token tells them apart.
        secondTurn = second.withSession('chat', async (reborn) => {
          started();
          await finishing;
          await addTask(reborn, 'from the new chat');
        });
        await inSecond;
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SessionLeaseLostError);
    // The refused turn did not release the other turn's lease either.
    await expect(third.withSession('chat', () => undefined, { waitMs: 0 })).rejects.toBeInstanceOf(SessionBusyError);
    finish();
    await secondTurn;
    expect(await subjects(await third.load('chat'))).toEqual(['from the new chat']);
    await rm(dir, { recursive: true, force: true });
  });
});
