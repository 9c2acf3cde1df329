import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globForWorker } from '../find-files.js';
import type { WalkEntry } from './protocol.js';
import { packEntries, SearchFolderLister, unpackEntries, type ListedWalk } from './search-folder-lister.js';

/** A deterministic pseudo-random generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

let root: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-lister-')));
  const next = random(5);
  const names = ['a', 'b', 'B', 'c-d', 'c.d', 'z', '_x', 'é', 'node_modules', '.hidden'];
  // Folders up to four deep, each with a few files of a few kinds, some empty.
  const grow = async (folder: string, depth: number): Promise<void> => {
    for (const name of names) {
      if (next() < 0.35) await fs.writeFile(path.join(folder, `${name}.${next() < 0.5 ? 'md' : 'ts'}`), '');
      if (depth < 4 && next() < 0.3) {
        await fs.mkdir(path.join(folder, name));
        await grow(path.join(folder, name), depth + 1);
      }
    }
  };
  await grow(root, 0);
  await fs.mkdir(path.join(root, 'b', 'c'), { recursive: true });
  await fs.writeFile(path.join(root, 'b', 'c', 'x.md'), '');
  await fs.writeFile(path.join(root, 'b', 'y.ts'), '');
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const walk = (include?: string): ListedWalk => ({ start: root, skipped: ['node_modules'], include: include === undefined ? undefined : globForWorker(include), shownPrefix: '', startShown: '.' });

/** Every entry of one lister listing the whole walk. */
function alone(job: ListedWalk): WalkEntry[] {
  const lister = new SearchFolderLister(job);
  const entries: WalkEntry[] = [];
  while (lister.more) lister.listNext(entries);
  return entries;
}

describe('SearchFolderLister', () => {
  it('gives away folders that come after all it lists from then on: its entries, then the parts given (the last given first), are the walk alone', () => {
    for (const include of [undefined, '*.md', 'b/**']) {
      const expected = alone(walk(include));
      expect(expected.length).toBeGreaterThan(include === 'b/**' ? 0 : 20);
      for (let seed = 1; seed <= 60; seed += 1) {
        const next = random(seed);
        const giver = new SearchFolderLister(walk(include));
        const own: WalkEntry[] = [];
        const parts: { lister: SearchFolderLister; entries: WalkEntry[] }[] = [];
        // The two listers take turns at random, as the walker and a waiting search worker do.
        while (giver.more || parts.some((part) => part.lister.more)) {
          const roll = next();
          if (roll < 0.15 && giver.waiting >= 2) parts.push({ lister: new SearchFolderLister(walk(include), giver.giveAway(1 + Math.floor(next() * giver.waiting))), entries: [] });
          else if (roll < 0.6 && giver.more) giver.listNext(own);
          else {
            const part = parts.filter((candidate) => candidate.lister.more)[Math.floor(next() * parts.length)];
            if (part !== undefined) part.lister.listNext(part.entries);
            else if (giver.more) giver.listNext(own);
          }
        }
        const joined = [...own, ...parts.reverse().flatMap((part) => part.entries)];
        expect([include, seed, joined]).toEqual([include, seed, expected]);
      }
    }
  });

  it('never gives away the next folder to list', () => {
    const lister = new SearchFolderLister(walk());
    expect(lister.giveAway(5)).toEqual([]);
    lister.listNext([]);
    const waiting = lister.waiting;
    expect(waiting).toBeGreaterThan(2);
    expect(lister.giveAway(waiting + 10)).toHaveLength(waiting - 1);
    expect(lister.waiting).toBe(1);
  });
});

describe('packEntries', () => {
  it('gives back the entries it packed, for any start and shown paths', () => {
    const next = random(9);
    const names = ['a', 'b c', 'é', '日本', '😀', 'x.ts', '.hidden', 'a\nb', '\\', '%20'];
    for (const [start, shownPrefix, startShown] of [['/w', '', '.'], ['/w/src', 'src/', 'src'], ['/', 'x/', 'x']] as const) {
      for (let round = 0; round < 50; round += 1) {
        const entries: WalkEntry[] = Array.from({ length: Math.floor(next() * 40) }, () => {
          const fromStart = Array.from({ length: 1 + Math.floor(next() * 3) }, () => names[Math.floor(next() * names.length)]!).join('/');
          return next() < 0.1 ? (['u', '', fromStart === '' ? startShown : shownPrefix + fromStart] as const) : (['f', start + path.sep + fromStart, shownPrefix + fromStart] as const);
        });
        expect(unpackEntries(packEntries(entries), { start, shownPrefix })).toEqual(entries);
      }
    }
  });
});
