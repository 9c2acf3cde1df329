import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnLoopCalls, THREAD_POOL_CALLS, type FileSystemCalls } from './file-system-calls.js';
import { Workspace } from './workspace.js';

/**
 * The calls a box makes on its loop: the thread pool's answers and errors for every kind of
 * path, the budget a turn, the pause after a slow call, and a FIFO that cannot hold the loop.
 */
let base = '';

beforeAll(async () => {
  base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'toolbelt-on-loop-')));
  await fsp.mkdir(path.join(base, 'folder'));
  await fsp.writeFile(path.join(base, 'file.txt'), 'one\ntwo\nthree\n');
  await fsp.writeFile(path.join(base, 'empty.txt'), '');
  await fsp.symlink('file.txt', path.join(base, 'link'));
  await fsp.symlink('nowhere', path.join(base, 'dangling'));
  await fsp.symlink('loop-b', path.join(base, 'loop-a'));
  await fsp.symlink('loop-a', path.join(base, 'loop-b'));
  execFileSync('mkfifo', [path.join(base, 'fifo')]);
});

afterAll(async () => {
  await fsp.rm(base, { recursive: true, force: true });
});

/** What a call answered, or the code and system call of what it threw: the two ways must agree on it. */
async function outcome<T>(call: () => Promise<T>, shown: (value: T) => unknown): Promise<unknown> {
  try {
    return { value: shown(await call()) };
  } catch (error) {
    const { code, syscall } = error as NodeJS.ErrnoException;
    return { code, syscall };
  }
}

/** The parts of a `Stats` that say which file it is and what it holds. */
function identity(stats: fs.Stats): unknown {
  return { ino: stats.ino, dev: stats.dev, mode: stats.mode, size: stats.size, file: stats.isFile(), link: stats.isSymbolicLink() };
}

/** Opens, stats, reads the first bytes and closes: what a tool does with a handle. */
async function openAndRead(calls: FileSystemCalls, absolute: string): Promise<unknown> {
  const handle = await calls.open(absolute);
  try {
    const stats = await handle.stat();
    const buffer = Buffer.alloc(64);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { stats: identity(stats), text: buffer.toString('utf8', 0, bytesRead) };
  } finally {
    await handle.close();
  }
}

describe('OnLoopCalls', () => {
  const names = ['file.txt', 'empty.txt', 'folder', 'link', 'dangling', 'loop-a', 'missing', 'file.txt/below', 'folder/missing'];

  it('answers every call as the thread pool does, and throws the same codes', async () => {
    const onLoop = new OnLoopCalls();
    for (const name of names) {
      const absolute = path.join(base, name);
      for (const [call, shown] of [
        [(calls: FileSystemCalls) => calls.lstat(absolute), identity],
        [(calls: FileSystemCalls) => calls.stat(absolute), identity],
        [(calls: FileSystemCalls) => calls.realpath(absolute), (value: string) => value],
        [(calls: FileSystemCalls) => calls.readlink(absolute), (value: string) => value],
      ] as const) {
        const expected = await outcome(() => call(THREAD_POOL_CALLS) as Promise<never>, shown as (value: never) => unknown);
        expect(await outcome(() => call(onLoop) as Promise<never>, shown as (value: never) => unknown), `${name}: ${String(call)}`).toEqual(expected);
      }
      if (name === 'folder') continue; // reading a folder: EISDIR both ways, checked below
      expect(await outcome(() => openAndRead(onLoop, absolute), (value) => value), name).toEqual(await outcome(() => openAndRead(THREAD_POOL_CALLS, absolute), (value) => value));
    }
    const folder = path.join(base, 'folder');
    expect(await outcome(() => openAndRead(onLoop, folder), (value) => value)).toEqual({ code: 'EISDIR', syscall: 'read' });
    expect(await outcome(() => openAndRead(THREAD_POOL_CALLS, folder), (value) => value)).toEqual({ code: 'EISDIR', syscall: 'read' });
    expect(onLoop.counts.onLoop).toBeGreaterThan(0);
  });

  it('gives a handle’s first stat() from the open in the same turn, and takes a new one in a later turn', async () => {
    const absolute = path.join(base, 'growing.txt');
    await fsp.writeFile(absolute, 'a\n');
    const calls = new OnLoopCalls();
    const sameTurn = await calls.open(absolute);
    expect((await sameTurn.stat()).size).toBe(2);
    await sameTurn.close();

    const laterTurn = await calls.open(absolute);
    await new Promise((resolve) => setImmediate(resolve));
    await fsp.appendFile(absolute, 'b\n');
    expect((await laterTurn.stat()).size).toBe(4);
    await laterTurn.close();
  });

  it('refuses a limit that is not a number of milliseconds, naming it', () => {
    expect(() => new OnLoopCalls({ turnMs: -1 })).toThrow('Expected the `turnMs` option to be a number of milliseconds, 0 or more, got `-1` (number).');
    expect(() => new OnLoopCalls({ slowCallMs: '10' as unknown as number })).toThrow('Expected the `slowCallMs` option to be a number of milliseconds, 0 or more, got `10` (string).');
    expect(() => new OnLoopCalls({ slowPauseMs: Number.NaN })).toThrow('Expected the `slowPauseMs` option to be a number of milliseconds, 0 or more, got `NaN` (number).');
    expect(() => new OnLoopCalls({ turnMs: Number.POSITIVE_INFINITY, slowCallMs: 0, slowPauseMs: 0 })).not.toThrow();
  });

  it('is what a Workspace makes its calls with when given, and a Workspace refuses an option that is not calls', async () => {
    const calls = new OnLoopCalls();
    const workspace = new Workspace(base, { fileSystemCalls: calls });
    const file = await workspace.resolveFile('link');
    const handle = await workspace.open(file.absolute);
    await handle.close();
    // The jail's lstat of `link`, its readlink and the lstat of `file.txt`; the open and the close.
    expect(calls.counts).toEqual({ onLoop: 5, onThreadPool: 0 });
    expect(() => new Workspace(base, { fileSystemCalls: { lstat: THREAD_POOL_CALLS.lstat } as unknown as FileSystemCalls })).toThrow(
      'Expected the `fileSystemCalls` option to be THREAD_POOL_CALLS, an OnLoopCalls or another object with lstat, stat, realpath, readlink, open methods; got object without stat, realpath, readlink, open.',
    );
    expect(() => new Workspace(base, { fileSystemCalls: 'on-loop' as unknown as FileSystemCalls })).toThrow('; got string.');
  });

  it('gives the same answers from a handle opened on the loop whose later calls go to the thread pool', async () => {
    // A slow call (every call, at 0 ms) sends the calls after the open to the pool.
    const calls = new OnLoopCalls({ slowCallMs: 0 });
    const file = path.join(base, 'file.txt');
    const handle = await calls.open(file);
    await handle.stat(); // the open's own fstat, no call
    const stats = await handle.stat();
    const buffer = Buffer.alloc(64);
    const { bytesRead, buffer: same } = await handle.read(buffer, 0, buffer.length, 4);
    await handle.close();
    expect(calls.counts).toEqual({ onLoop: 1, onThreadPool: 3 });
    expect(identity(stats)).toEqual(identity(await fsp.stat(file)));
    expect(same).toBe(buffer);
    expect(buffer.toString('utf8', 0, bytesRead)).toBe('two\nthree\n');
    await expect(handle.read(buffer, 0, 4, 0)).rejects.toMatchObject({ code: 'EBADF' });
  });

  it('refuses a closed handle with EBADF, as a FileHandle does', async () => {
    const handle = await new OnLoopCalls().open(path.join(base, 'file.txt'));
    await handle.close();
    await handle.close();
    await expect(handle.read(Buffer.alloc(4), 0, 4, 0)).rejects.toMatchObject({ code: 'EBADF' });
    await expect(handle.stat()).rejects.toMatchObject({ code: 'EBADF' });
  });

  it('makes a turn’s calls itself until they have taken the budget, then sends the rest to the thread pool; the next turn starts afresh', async () => {
    const calls = new OnLoopCalls({ turnMs: 1e-9 });
    const file = path.join(base, 'file.txt');
    const first = calls.lstat(file);
    const second = calls.lstat(file);
    await Promise.all([first, second]);
    expect(calls.counts).toEqual({ onLoop: 1, onThreadPool: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    await calls.lstat(file);
    expect(calls.counts).toEqual({ onLoop: 2, onThreadPool: 1 });
  });

  it('sends every call to the thread pool for the pause after a slow one', async () => {
    const calls = new OnLoopCalls({ slowCallMs: 0, slowPauseMs: 60_000 });
    const file = path.join(base, 'file.txt');
    await calls.lstat(file);
    await new Promise((resolve) => setImmediate(resolve));
    await calls.lstat(file);
    await new Promise((resolve) => setImmediate(resolve));
    await calls.stat(file);
    expect(calls.counts).toEqual({ onLoop: 1, onThreadPool: 2 });

    const paused = new OnLoopCalls({ slowCallMs: 0, slowPauseMs: 0 });
    await paused.lstat(file);
    await new Promise((resolve) => setTimeout(resolve, 1));
    await paused.lstat(file);
    expect(paused.counts).toEqual({ onLoop: 2, onThreadPool: 0 });
  });

  it('opens a FIFO without holding the loop: it waits for a writer on the thread pool, as before', async () => {
    const calls = new OnLoopCalls();
    const fifo = path.join(base, 'fifo');
    let opened = false;
    const handle = calls.open(fifo).then((value) => {
      opened = true;
      return value;
    });
    // The loop still turns while the open waits for a writer.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(opened).toBe(false);
    const writer = fs.openSync(fifo, fs.constants.O_WRONLY);
    fs.writeSync(writer, 'through\n');
    fs.closeSync(writer);
    const reader = await handle;
    const buffer = Buffer.alloc(16);
    const { bytesRead } = await reader.read(buffer, 0, buffer.length, null);
    expect(buffer.toString('utf8', 0, bytesRead)).toBe('through\n');
    expect((await reader.stat()).isFIFO()).toBe(true);
    await reader.close();
  });

  it('keeps the loop turning while a 48 MB file is read six times in 1 MB reads: the reads go to the thread pool once a turn’s budget is spent', async () => {
    const big = path.join(base, 'big.txt');
    const line = `${'x'.repeat(63)}\n`;
    const stream = fs.createWriteStream(big);
    const block = line.repeat(16 * 1024);
    for (let index = 0; index < 48; index += 1) if (!stream.write(block)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
    await new Promise((resolve) => stream.end(resolve));

    const calls = new OnLoopCalls();
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 1);
    let lines = 0;
    try {
      // Six reads of the whole file, as six read_file calls that skip to its last page.
      for (let pass = 0; pass < 6; pass += 1) lines += await countLines(calls, big);
    } finally {
      clearInterval(ticker);
      longestGap = Math.max(longestGap, performance.now() - last);
    }
    expect(lines).toBe(6 * 48 * 16 * 1024);
    expect(calls.counts.onThreadPool).toBeGreaterThan(0);
    // Read on the loop in one turn (no budget), the six passes held it for 170 ms here; with the budget the longest gap was 20-25 ms.
    expect(longestGap).toBeLessThan(80);
  });
});

/** The lines of a file, read through `calls` in 1 MB reads. */
async function countLines(calls: FileSystemCalls, absolute: string): Promise<number> {
  const handle = await calls.open(absolute);
  try {
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    let lines = 0;
    for (let position = 0; ; ) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return lines;
      for (let at = buffer.indexOf(10); at !== -1 && at < bytesRead; at = buffer.indexOf(10, at + 1)) lines += 1;
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}
