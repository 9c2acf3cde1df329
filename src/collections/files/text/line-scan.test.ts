import { describe, expect, it } from 'vitest';
import { lfView, prevailingLineEnding, withLineEnding } from './line-endings.js';
import { countLineBreaks, countTextLines, lfViewOf, prevailingLineEndingOf, withLineEndingOf } from './line-scan.js';
import { countLines } from './text.js';
import { TimeSlicer } from '../../../time-slice.js';

/** A slicer that pauses at every check, so every window boundary is crossed between turns. */
class EveryTurn extends TimeSlicer {
  override due(): boolean {
    return true;
  }

  override dueNow(): boolean {
    return true;
  }
}

// Mixed endings, lone CRs and CRLF pairs on both sides of every 8 Ki window boundary.
const texts = [
  '',
  'no breaks',
  'a\r\nb\nc\r\n',
  Array.from({ length: 9_000 }, (_, index) => `line ${index}${index % 3 === 0 ? '\r\n' : index % 3 === 1 ? '\n' : '\r'}`).join(''),
  'x\r\n'.repeat(20_000),
  'y\n'.repeat(20_000) + 'tail',
];

describe('line scans in slices agree with their one-go versions', () => {
  it.each(texts.map((text, index) => [index, text] as const))('text %i', async (_, text) => {
    const slicer = new EveryTurn();
    expect(await countLineBreaks(text, 0, text.length, slicer)).toBe(text.split('\n').length - 1);
    expect(await countTextLines(text, slicer)).toBe(countLines(text));
    expect(await prevailingLineEndingOf(text, slicer)).toBe(prevailingLineEnding(text));
    expect(await withLineEndingOf(text, '\n', slicer)).toBe(withLineEnding(text, '\n'));
    expect(await withLineEndingOf(text, '\r\n', slicer)).toBe(withLineEnding(text, '\r\n'));
    const view = await lfViewOf(text, slicer);
    const expected = lfView(text);
    expect(view.text).toBe(expected.text);
    for (const offset of [0, 1, 7, Math.floor(view.text.length / 2), view.text.length]) expect(view.toOriginal(offset)).toBe(expected.toOriginal(offset));
  });
});
