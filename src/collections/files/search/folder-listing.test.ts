import { describe, expect, it } from 'vitest';
import { addListing, emptyListing, newestFirst, packFiles, unpackPaths } from './folder-listing.js';

/** A deterministic pseudo-random generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('newestFirst', () => {
  it('picks the same files, in the same order, as sorting them all newest first with ties by path', () => {
    const next = random(7);
    for (const [count, keep] of [[0, 10], [5, 10], [300, 100], [1_000, 100], [1_000, 1], [50, 0], [200, 200]] as const) {
      const state = emptyListing();
      for (let index = 0; index < count; index += 1) {
        // Few distinct times, so many files tie at the cut.
        state.shown.push(`folder-${Math.floor(next() * 20)}/file-${index}.ts`);
        state.mtimes.push(1_700_000_000_000 + Math.floor(next() * 30) * 1000);
      }
      const reference = Array.from(state.mtimes.keys())
        .sort((a, b) => state.mtimes[b]! - state.mtimes[a]! || (state.shown[a]! < state.shown[b]! ? -1 : 1))
        .slice(0, keep);
      expect(newestFirst(state, keep), `${count} files, keep ${keep}`).toEqual(reference);
    }
  });
});

describe('packFiles', () => {
  it('packs paths, times and link targets, in a given order, and adds them back to another listing', () => {
    const state = emptyListing();
    state.shown.push('a.ts', 'b -> c', 'd e/f.ts');
    state.mtimes.push(3, 2, 1);
    state.targets.push([1, 'c']);
    const reordered = packFiles(state, [2, 1]);
    expect(unpackPaths(reordered)).toEqual(['d e/f.ts', 'b -> c']);
    expect([...reordered.mtimes]).toEqual([1, 2]);
    expect(reordered.targets).toEqual([[1, 'c']]);

    const other = emptyListing();
    other.shown.push('z.ts');
    other.mtimes.push(9);
    other.walked = 4;
    addListing(other, { walked: 3, files: packFiles(state), unreadable: ['locked'] });
    expect(other).toEqual({ walked: 7, shown: ['z.ts', 'a.ts', 'b -> c', 'd e/f.ts'], mtimes: [9, 3, 2, 1], targets: [[2, 'c']], unreadable: ['locked'] });
    expect(unpackPaths(packFiles(emptyListing()))).toEqual([]);
  });
});
