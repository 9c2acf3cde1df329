import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ByteText, replaceExactBytes } from './byte-edit.js';
import { useByteKernels } from './byte-kernels.js';
import { summarizeEdit } from './edit-diff.js';
import { replaceExactText } from './edit-text.js';
import { UTF8_BOM } from './text.js';

/** A small seeded generator, so a failing case can be run again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const PIECES = ['a', 'b', 'ab', 'é', 'ß', '日本', '😀', ' ', '\n', '\r\n', '\t', 'x'];

function text(next: () => number, length: number): string {
  let result = '';
  for (let index = 0; index < length; index += 1) result += PIECES[Math.floor(next() * PIECES.length)]!;
  return result;
}

/** The text path's edit and summary, as edit_file worked them out before the byte path. */
async function byText(original: string, oldString: string, newString: string, replaceAll: boolean) {
  const outcome = await replaceExactText(original, oldString, newString, replaceAll);
  if (outcome.type !== 'edited') return outcome;
  const summary = await summarizeEdit('f.txt', original, outcome.text, outcome.spans, 60);
  return { type: 'edited', bytes: Buffer.from(outcome.text), replacements: outcome.replacements, summary };
}

async function byBytes(original: string, oldString: string, newString: string, replaceAll: boolean, windowBytes?: number) {
  const body = Buffer.from(original);
  const outcome = await replaceExactBytes(body, oldString, newString, { replaceAll, ...(windowBytes === undefined ? {} : { windowBytes }) });
  if (outcome === undefined) return { type: 'not-found' };
  if (outcome.type !== 'edited') return outcome;
  const summary = await summarizeEdit('f.txt', new ByteText(body), new ByteText(outcome.body), outcome.spans, 60);
  return { type: 'edited', bytes: outcome.bytes, replacements: outcome.replacements, summary };
}

// Each case runs with the WebAssembly kernels (byte-kernels.ts) and with the JavaScript paths
// they stand in for where WebAssembly SIMD is missing; the answers must be the same.
describe.each([
  ['with the WebAssembly kernels', true],
  ['with the JavaScript paths', false],
])('edits on bytes, %s', (_name, kernels) => {
  beforeAll(() => useByteKernels(kernels));
  afterAll(() => useByteKernels(true));

  it('give the same bytes, counts, changed lines and diff as the edit on the decoded text, over random texts', async () => {
    const next = random(30);
    let edited = 0;
    for (let round = 0; round < 400; round += 1) {
      // Some texts long enough that replacements lie many lines apart, and the diff is cut.
      const original = text(next, next() < 0.9 ? 5 + Math.floor(next() * 80) : 400 + Math.floor(next() * 3000));
      // An old_string without line breaks taken from the text itself, or made up (then often missing).
      const characters = [...original];
      const start = Math.floor(next() * characters.length);
      const taken = characters.slice(start, start + 1 + Math.floor(next() * 4)).join('').split(/[\r\n]/)[0]!;
      const oldString = next() < 0.8 && taken !== '' ? taken : text(next, 1).replace(/[\r\n]/g, 'q');
      const newString = text(next, Math.floor(next() * 4));
      if (oldString === newString) continue;
      const replaceAll = next() < 0.7;
      const expected = await byText(original, oldString, newString, replaceAll);
      const actual = await byBytes(original, oldString, newString, replaceAll);
      // A miss is left to the text path (which salvages it): only a miss there too is the same answer.
      expect(actual.type === 'not-found' ? await replaceExactText(original, oldString, newString, replaceAll) : actual, JSON.stringify({ original, oldString, newString, replaceAll })).toEqual(expected);
      if (expected.type === 'edited') edited += 1;
    }
    expect(edited).toBeGreaterThan(100);
  });

  it('rewrites in windows of any size as in one: matches across a window\'s end, overlapping needles, windows smaller than a match', async () => {
    const next = random(31);
    const cases: [string, string, string][] = [
      ['aaaaaaaaa', 'aa', 'b'],
      ['abababab ab', 'abab', 'x'],
      ['ééééé', 'éé', 'e'],
      ['xyzxyzxy', 'zx', ''],
    ];
    for (let round = 0; round < 200; round += 1) {
      const original = text(next, 20 + Math.floor(next() * 60)).replace(/[\r\n]/g, ' ');
      const characters = [...original];
      const start = Math.floor(next() * characters.length);
      const oldString = characters.slice(start, start + 1 + Math.floor(next() * 3)).join('');
      const newString = text(next, Math.floor(next() * 3));
      if (oldString !== newString) cases.push([original, oldString, newString]);
    }
    for (const [original, oldString, newString] of cases) {
      const whole = await byBytes(original, oldString, newString, true);
      for (const windowBytes of [1, 2, 3, 5, 8]) {
        expect(await byBytes(original, oldString, newString, true, windowBytes), JSON.stringify({ original, oldString, newString, windowBytes })).toEqual(whole);
      }
      expect(whole, JSON.stringify({ original, oldString, newString })).toEqual(await byText(original, oldString, newString, true));
    }
  });

  it('writes the prefix (a byte order mark) before the new body, whose offsets the spans are in', async () => {
    const body = Buffer.from('één\r\ntwee één\r\n');
    const outcome = await replaceExactBytes(body, 'één', '1', { replaceAll: true, prefix: UTF8_BOM });
    expect(outcome?.type).toBe('edited');
    if (outcome?.type !== 'edited') return;
    expect(outcome.bytes).toEqual(Buffer.concat([UTF8_BOM, Buffer.from('1\r\ntwee 1\r\n')]));
    expect(outcome.body.toString()).toBe('1\r\ntwee 1\r\n');
    expect([outcome.spans.oldStart(1), outcome.spans.newStart(1)]).toEqual([body.indexOf('één', 5), '1\r\ntwee '.length]);
  });

  it('leaves to the text path an old_string with a line break, and one that is not there', async () => {
    expect(await replaceExactBytes(Buffer.from('a\r\nb\n'), 'a\nb', 'c', { replaceAll: false })).toBeUndefined();
    expect(await replaceExactBytes(Buffer.from('a\r\nb\n'), 'zz', 'c', { replaceAll: false })).toBeUndefined();
    expect(await replaceExactBytes(Buffer.from('ab ab'), 'ab', 'c', { replaceAll: false })).toEqual({ type: 'ambiguous', occurrences: 2 });
  });

  it('reads bytes as text with byte offsets, as a string reads its own', () => {
    const source = new ByteText(Buffer.from('ä\nb\n'));
    expect([source.length, source.indexOf('\n'), source.indexOf('\n', 3), source.lastIndexOf('\n', 3), source.lastIndexOf('ä', -1)]).toEqual([5, 2, 4, 2, 0]);
    expect([source.slice(0, 3), source.slice(3), source.endsWith('\n'), source.endsWith('ä')]).toEqual(['ä\n', 'b\n', true, false]);
  });
});
