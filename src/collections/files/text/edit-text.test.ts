import { describe, expect, it } from 'vitest';
import { closestLines, replaceExactText } from './edit-text.js';
import { lfView, prevailingLineEnding, withLineEnding } from './line-endings.js';

describe('line endings', () => {
  it('finds the prevailing ending; ties and text without breaks are LF', () => {
    expect(prevailingLineEnding('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(prevailingLineEnding('a\r\nb\n')).toBe('\n');
    expect(prevailingLineEnding('no breaks')).toBe('\n');
    expect(withLineEnding('a\nb\r\nc', '\r\n')).toBe('a\r\nb\r\nc');
    expect(withLineEnding('a\r\nb\n', '\n')).toBe('a\nb\n');
  });

  it('maps offsets of the LF view back to the CRLF original', () => {
    const view = lfView('ab\r\ncd\r\nef');
    expect(view.text).toBe('ab\ncd\nef');
    expect([0, 2, 3, 5, 6, 8].map((offset) => view.toOriginal(offset))).toEqual([0, 2, 4, 6, 8, 10]);
  });
});

describe('replaceExactText', () => {
  it('replaces at the right place in mixed-ending text and reports the spans', async () => {
    const outcome = await replaceExactText('x\r\ny\nz\r\n', 'y\nz', 'Y\nZ', false);
    expect(outcome).toMatchObject({ type: 'edited', text: 'x\r\nY\r\nZ\r\n', replacements: 1 });
    const spans = outcome.type === 'edited' ? outcome.spans : undefined;
    expect(spans?.count).toBe(1);
    expect([spans?.oldStart(0), spans?.oldEnd(0), spans?.newStart(0), spans?.replacementLength]).toEqual([3, 6, 3, 4]);
  });

  it('replaces every occurrence of a single-line old_string in CRLF text, keeping every line ending', async () => {
    const text = 'a = 1;\r\nb = a;\n\ra\r\n'.repeat(1_000);
    const outcome = await replaceExactText(text, 'a', 'xy', true);
    if (outcome.type !== 'edited') throw new Error('expected an edit');
    expect(outcome.text).toBe(text.replaceAll('a', 'xy'));
    expect(outcome.replacements).toBe(3_000);
    expect([outcome.spans.oldStart(2_999), outcome.spans.oldEnd(2_999), outcome.spans.newStart(2_999)]).toEqual([text.lastIndexOf('a'), text.lastIndexOf('a') + 1, outcome.text.lastIndexOf('xy')]);
  });

  it('counts occurrences without overlap and stops early when one is enough to refuse', async () => {
    expect(await replaceExactText('aaaa', 'aa', 'b', false)).toEqual({ type: 'ambiguous', occurrences: 2 });
    expect(await replaceExactText('aaaa', 'aa', 'b', true)).toMatchObject({ text: 'bb', replacements: 2 });
    expect(await replaceExactText('abc', 'x', 'y', true)).toEqual({ type: 'not-found' });
  });

  it('gives the same text as replaceAll for many replacements, with every span in place', async () => {
    const text = 'ab'.repeat(50_000);
    const outcome = await replaceExactText(text, 'a', 'xyz', true);
    if (outcome.type !== 'edited') throw new Error('expected an edit');
    expect(outcome.text).toBe(text.replaceAll('a', 'xyz'));
    expect(outcome.spans.count).toBe(50_000);
    expect(outcome.text.slice(outcome.spans.newStart(49_999), outcome.spans.newStart(49_999) + 3)).toBe('xyz');
    expect([outcome.spans.oldStart(49_999), outcome.spans.oldEnd(49_999)]).toEqual([99_998, 99_999]);
  });
});

describe('closestLines', () => {
  it('ignores indentation and finds a near miss', async () => {
    const text = 'alpha\n    if (ready) {\n        start();\n    }\nomega\n';
    expect(await closestLines(text, 'if (ready) {\n  start()\n}')).toEqual({ first: 2, last: 4, lines: ['    if (ready) {', '        start();', '    }'] });
  });

  it('answers quickly for a large file', async () => {
    const lines = Array.from({ length: 200_000 }, (_, index) => `const value${index} = compute(${index});`);
    lines[150_000] = 'function theNeedleWeWant(argument) {';
    lines[150_001] = '  return argument * 2;';
    lines[150_002] = '}';
    const text = lines.join('\n');
    const started = performance.now();
    const window = await closestLines(text, 'function theNeedleWeWant(argument, other) {\n  return argument * 3;\n}\n');
    // Only the first line resembles anything: that line alone is offered.
    const single = await closestLines(text, 'function theNeedleWeWant(argument) {\nzzz qqq\nxxx www\nvvv uuu\n');
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(window).toMatchObject({ first: 150_001, last: 150_003 });
    expect(single).toEqual({ first: 150_001, last: 150_001, lines: ['function theNeedleWeWant(argument) {'] });
  });
});
