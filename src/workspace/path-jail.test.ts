import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnLoopCalls } from './file-system-calls.js';
import { PathJail, type JailedPath } from './path-jail.js';
import { Workspace } from './workspace.js';

/**
 * The jail's shortcut (one `realpath` for a path of several segments with no link on the way)
 * against its walk (one `lstat` a segment, every link followed by hand), on a tree of folders,
 * files and links of every kind and on random paths through it: the same answer, or the same
 * refusal, every time. And the `lstat` the walk hands on is the path's own.
 */
describe('the path jail: the realpath shortcut and the walk agree', () => {
  let base = '';
  let root = '';
  const names: string[] = [];

  beforeAll(async () => {
    base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-jail-shortcut-')));
    root = path.join(base, 'root');
    await fs.mkdir(path.join(root, 'a/b/c/d'), { recursive: true });
    await fs.mkdir(path.join(root, 'x/y'), { recursive: true });
    await fs.mkdir(path.join(base, 'outside/deep'), { recursive: true });
    await fs.writeFile(path.join(root, 'a/b/c/d/file.ts'), 'inside\n');
    await fs.writeFile(path.join(root, 'a/b/note.md'), 'note\n');
    await fs.writeFile(path.join(root, 'x/y/z.txt'), 'z\n');
    await fs.writeFile(path.join(base, 'outside/deep/secret.txt'), 'secret\n');
    const links: Array<[string, string]> = [
      ['a/b/to-x', '../../x'], // a folder link inside
      ['a/b/c/abs-y', path.join(root, 'x/y')], // an absolute link inside
      ['x/y/out', '../../../outside'], // out through a relative link
      ['x/abs-out', path.join(base, 'outside/deep')], // out through an absolute link
      ['a/dangling', 'no/such/place'],
      ['a/loop-1', 'loop-2'],
      ['a/loop-2', 'loop-1'],
      ['a/b/c/d/file-link.ts', 'file.ts'],
      ['x/there-and-back', '../../root/x'], // leaves the root and comes back: the walk refuses it
    ];
    for (const [at, target] of links) await fs.symlink(target, path.join(root, at));
    names.push('a', 'b', 'c', 'd', 'file.ts', 'note.md', 'x', 'y', 'z.txt', 'to-x', 'abs-y', 'out', 'abs-out', 'dangling', 'loop-1', 'loop-2', 'file-link.ts', 'there-and-back', 'secret.txt', 'deep', 'missing', '.', '..', '');
  });

  afterAll(async () => {
    await fs.rm(base, { recursive: true, force: true });
  });

  async function answer(jail: PathJail, input: string, follow: boolean): Promise<JailedPath | { refused: string; message: string }> {
    try {
      return await jail.resolve(input, follow);
    } catch (error) {
      return { refused: (error as { reason?: string }).reason ?? String(error), message: (error as Error).message };
    }
  }

  it('gives the walk’s answer for 3,000 random paths, both with and without following the last link, its calls made on the thread pool or on the loop (a box’s)', async () => {
    const shortcut = new PathJail(root, root, { realpathFromSegments: 1 });
    const walk = new PathJail(root, root, { realpathFromSegments: Number.POSITIVE_INFINITY });
    const onLoop = new OnLoopCalls();
    const jailsOnLoop = [
      new PathJail(root, root, { realpathFromSegments: 1, calls: onLoop }),
      new PathJail(root, root, { realpathFromSegments: Number.POSITIVE_INFINITY, calls: onLoop }),
    ];
    let state = 7;
    const next = (below: number) => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state % below;
    };
    let shortcutsTaken = 0;
    for (let index = 0; index < 3_000; index++) {
      const length = 1 + next(6);
      // Mostly real routes through the tree, with random names mixed in.
      const real = [['a', 'b', 'c', 'd', 'file.ts'], ['a', 'b', 'to-x', 'y', 'z.txt'], ['x', 'y', 'out', 'deep', 'secret.txt'], ['a', 'b', 'c', 'abs-y', 'z.txt']][next(4)]!;
      const segments = Array.from({ length }, (_, at) => (next(3) === 0 ? names[next(names.length)]! : (real[at] ?? names[next(names.length)]!)));
      const relative = segments.join('/') + (next(8) === 0 ? '/' : '');
      const input = next(5) === 0 ? path.join(root, relative) : relative;
      if (input.trim() === '') continue;
      for (const follow of [true, false]) {
        const fast = await answer(shortcut, input, follow);
        const slow = await answer(walk, input, follow);
        const { stats: _fastStats, ...fastAnswer } = fast as JailedPath;
        const { stats: slowStats, ...slowAnswer } = slow as JailedPath;
        expect(fastAnswer, `${input} (follow the last link: ${follow})`).toEqual(slowAnswer);
        if ('absolute' in slow && slowStats !== undefined) {
          const own = await fs.lstat(slow.absolute);
          expect([slowStats.ino, slowStats.mode, slowStats.size], input).toEqual([own.ino, own.mode, own.size]);
        }
        if ('absolute' in fast && fast.stats === undefined && slowStats !== undefined) shortcutsTaken += 1;
        for (const [jail, expected] of [[jailsOnLoop[0]!, fastAnswer], [jailsOnLoop[1]!, slowAnswer]] as const) {
          const { stats: _stats, ...onLoopAnswer } = (await answer(jail, input, follow)) as JailedPath;
          expect(onLoopAnswer, `${input} on the loop (follow the last link: ${follow})`).toEqual(expected);
        }
      }
    }
    expect(onLoop.counts.onLoop).toBeGreaterThan(10_000);
    // The comparison means something only if the shortcut answered a good share of the paths itself.
    expect(shortcutsTaken).toBeGreaterThan(200);
  });

  it('takes the walk for a path with a link on the way, and refuses one that leaves and comes back', async () => {
    const jail = new PathJail(root, root);
    expect(await jail.resolve('a/b/to-x/y/z.txt', true)).toMatchObject({ absolute: path.join(root, 'x/y/z.txt'), exists: true });
    await expect(jail.resolve('x/there-and-back/y/z.txt', true)).rejects.toMatchObject({ reason: 'link-outside' });
    await expect(jail.resolve('x/y/out/deep/secret.txt', true)).rejects.toMatchObject({ reason: 'link-outside' });
  });
});

describe('Workspace.resolveFile and the lstat the jail took', () => {
  it('answers with the path’s own stats, and asks a workspace that changes lstatOrUndefined through it', async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-jail-stats-')));
    try {
      await fs.mkdir(path.join(root, 'src/deep/er'), { recursive: true });
      await fs.writeFile(path.join(root, 'top.ts'), 'top\n');
      await fs.writeFile(path.join(root, 'src/deep/er/low.ts'), 'low\n');
      await fs.symlink('top.ts', path.join(root, 'link.ts'));
      const asked: string[] = [];
      class Counting extends Workspace {
        override async lstatOrUndefined(absolute: string) {
          asked.push(path.relative(root, absolute));
          return super.lstatOrUndefined(absolute);
        }
      }
      const local = new Workspace(root);
      const counting = new Counting(root);
      for (const input of ['top.ts', 'src/deep/er/low.ts', 'link.ts']) {
        const own = await fs.stat(path.join(root, input));
        for (const workspace of [local, counting]) {
          const { stats } = await workspace.resolveFile(input);
          expect([stats.ino, stats.size, stats.isFile()], input).toEqual([own.ino, own.size, true]);
        }
      }
      expect(asked).toEqual(['top.ts', 'src/deep/er/low.ts', 'top.ts']);
      await expect(local.resolveFile('src/deep')).rejects.toMatchObject({ reason: 'not-a-file' });
      await expect(local.resolveDirectory('top.ts')).rejects.toMatchObject({ reason: 'not-a-directory' });
      await expect(local.resolveDirectory('src/deep/er')).resolves.toMatchObject({ relative: 'src/deep/er', exists: true });
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
