import { applyPatch, createTwoFilesPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { summarizeEdit } from './edit-diff.js';
import { replaceExactText } from './edit-text.js';
import { undecodedDiff, unifiedLineDiff } from './line-diff.js';
import { MAX_DIFF_CHARACTERS } from './unified-diff-writer.js';

/** The `diff` package's own patch, as write_file and edit_file used to build it. */
function referencePatch(before: string, after: string): string {
  return createTwoFilesPatch('f.txt', 'f.txt', before, after, undefined, undefined, { context: 3 });
}

/** A small deterministic random source, so a failing case can be replayed. */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

describe('unifiedLineDiff', () => {
  it('writes the same hunks as the diff package on hand-picked cases', async () => {
    const cases: [string, string][] = [
      ['a\nb\nc\n', 'a\nB\nc\n'],
      ['a\nb\nc', 'a\nb\nc\n'],
      ['', 'new\n'],
      ['gone\n', ''],
      ['x\r\ny\r\n', 'x\r\nY\r\n'],
      [Array.from({ length: 40 }, (_, index) => `line ${index}`).join('\n'), Array.from({ length: 40 }, (_, index) => (index % 9 === 0 ? `changed ${index}` : `line ${index}`)).join('\n')],
      ['same\n', 'same\n'],
    ];
    for (const [before, after] of cases) expect(await unifiedLineDiff('f.txt', before, after)).toBe(referencePatch(before, after));
  });

  it('writes the same hunks as the diff package on 2,000 random small edits, and each applies', async () => {
    const random = randomSource(7);
    const words = ['a', 'b', 'c', 'd', 'e', 'f', 'x', ''];
    const make = (count: number) => Array.from({ length: count }, () => words[Math.floor(random() * words.length)]).join('\n') + (random() < 0.5 ? '\n' : '');
    for (let round = 0; round < 2_000; round += 1) {
      const before = make(Math.floor(random() * 15));
      const lines = before.split('\n');
      for (let edit = 0; edit < 3; edit += 1) {
        const at = Math.floor(random() * (lines.length + 1));
        if (random() < 0.5) lines.splice(at, 1);
        else lines.splice(at, 0, words[Math.floor(random() * 7)]!);
      }
      const after = random() < 0.3 ? make(Math.floor(random() * 15)) : lines.join('\n');
      const ours = await unifiedLineDiff('f.txt', before, after);
      expect(ours, JSON.stringify({ before, after })).toBe(referencePatch(before, after));
      expect(applyPatch(before, ours)).toBe(after);
    }
  });

  it('quotes file names as the diff package does', async () => {
    expect(await unifiedLineDiff('docs/café "x".md', 'a\n', 'b\n')).toBe(createTwoFilesPatch('docs/café "x".md', 'docs/café "x".md', 'a\n', 'b\n', undefined, undefined, { context: 3 }));
  });

  it('keeps a huge rewrite within its size limit, says what it left out, and still applies as far as it goes', async () => {
    const before = Array.from({ length: 200_000 }, (_, index) => `const value${index} = compute(${index});`).join('\n') + '\n';
    const after = before.replaceAll('compute', 'calculate');
    const diff = await unifiedLineDiff('big.ts', before, after);
    expect(diff.length).toBeLessThanOrEqual(MAX_DIFF_CHARACTERS + 200);
    expect(diff).toMatch(/\nDiff cut at 100,000 characters: [\d,]+ more changed lines are not shown\.\n$/);
    const shownChanges = diff.split('\n').filter((line) => /^[-+]const/.test(line)).length;
    const omitted = Number(/([\d,]+) more changed/.exec(diff)![1]!.replaceAll(',', ''));
    expect(shownChanges + omitted).toBe(400_000);
    expect(diff).toContain('@@ -1,');
  });

  it('finds one changed line in a large file quickly, with its line numbers', async () => {
    const lines = Array.from({ length: 100_000 }, (_, index) => `row ${index}`);
    const before = lines.join('\n') + '\n';
    lines[70_000] = 'row seventy thousand';
    const after = lines.join('\n') + '\n';
    const diff = await unifiedLineDiff('rows.txt', before, after);
    expect(diff.split('\n').slice(4).join('\n')).toBe('@@ -69998,7 +69998,7 @@\n row 69997\n row 69998\n row 69999\n-row 70000\n+row seventy thousand\n row 70001\n row 70002\n row 70003\n');
  });

  it('says when the old content could not be compared', () => {
    expect(undecodedDiff('a.bin', 'binary data')).toMatch(/\+\+\+ a\.bin\nThe old content is not UTF-8 text \(binary data\), so no lines are compared\.\n$/);
  });
});

describe('unifiedLineDiff on long lines', () => {
  it('tells apart long lines that differ only where their sampled hash does not look', async () => {
    // 3,001-character lines are hashed from every second character and both ends: these differ at an odd place in the middle.
    const line = (mark: string) => 'a'.repeat(1_501) + mark + 'a'.repeat(1_499);
    const before = ['top', line('b'), line('c'), line('b'), 'bottom', ''].join('\n');
    const after = ['top', line('b'), line('d'), line('b'), 'bottom', ''].join('\n');
    expect(await unifiedLineDiff('long.txt', before, after)).toBe(createTwoFilesPatch('long.txt', 'long.txt', before, after, undefined, undefined, { context: 3 }));
  });
});

describe('summarizeEdit', () => {
  /** The edit's diff and reply lines, from replaceExactText's spans. */
  async function edit(before: string, oldString: string, newString: string, replaceAll = true) {
    const outcome = await replaceExactText(before, oldString, newString, replaceAll);
    if (outcome.type !== 'edited') throw new Error(`expected an edit, got ${outcome.type}`);
    return { after: outcome.text, summary: await summarizeEdit('f.txt', before, outcome.text, outcome.spans, 60) };
  }

  it('writes the same hunks as the diff package for edits with shared lines, neighbours and line-end matches', async () => {
    const file = Array.from({ length: 30 }, (_, index) => `line ${index}\n`).join('');
    const cases: [string, string, string][] = [
      [file, 'line 4\n', 'LINE 4\n'],
      [file, 'line 3\nline 4\nline 5\n', 'line 3\nfour\nline 5\n'],
      [file, 'line 1\n', ''],
      [file, 'line 2\n', 'line 2\nextra\n'],
      [file, 'line 2', 'a\nb'],
      [file, '1', 'one'],
      [file, 'line 29\n', 'last'],
      ['no newline at end', 'end', 'finish'],
    ];
    for (const [before, oldString, newString] of cases) {
      const { after, summary } = await edit(before, oldString, newString);
      expect(summary.diff, JSON.stringify({ oldString, newString })).toBe(referencePatch(before, after));
    }
  });

  it('gives the changed lines of each replacement, merged when they touch', async () => {
    const { summary } = await edit('a\nb\nc\nd\ne\n', 'b\nc', 'B\nC');
    expect(summary.shown).toEqual([{ first: 2, last: 3, lines: ['B', 'C'] }]);
    const spread = await edit('x\ny\nx\nx\ny\n', 'x', 'z');
    expect(spread.summary.ranges).toEqual([{ first: 1, last: 1 }, { first: 3, last: 4 }]);
    expect(spread.summary.changedLines).toBe(3);
  });

  it('handles 1.4 million replacements in a 4 MB file within the size limit and in well under a few seconds', async () => {
    const before = 'ab\n'.repeat(1_400_000);
    const started = performance.now();
    const { summary } = await edit(before, 'a', 'c');
    const elapsed = performance.now() - started;
    expect(summary.changedLines).toBe(1_400_000);
    expect(summary.ranges).toEqual([{ first: 1, last: 1_400_000 }]);
    expect(summary.shown[0]!.lines).toHaveLength(60);
    expect(summary.diff.length).toBeLessThanOrEqual(MAX_DIFF_CHARACTERS + 200);
    expect(summary.diff).toMatch(/\nDiff cut at 100,000 characters: it shows [\d,]+ of the 1,400,000 replacements\.\n$/);
    // The target is 300 ms on a quiet machine (see the bench); this bound only catches a quadratic slip.
    expect(elapsed).toBeLessThan(10_000);
  });
});
