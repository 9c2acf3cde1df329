import { describe, expect, it } from 'vitest';
import { closestLines, linesOfSpans, replaceExactText } from './edit-text.js';
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
  it('replaces at the right place in mixed-ending text and reports the spans', () => {
    const outcome = replaceExactText('x\r\ny\nz\r\n', 'y\nz', 'Y\nZ', false);
    expect(outcome).toEqual({ type: 'edited', text: 'x\r\nY\r\nZ\r\n', replacements: 1, spans: [{ start: 3, end: 7 }] });
  });

  it('counts occurrences without overlap and stops early when one is enough to refuse', () => {
    expect(replaceExactText('aaaa', 'aa', 'b', false)).toEqual({ type: 'ambiguous', occurrences: 2 });
    expect(replaceExactText('aaaa', 'aa', 'b', true)).toMatchObject({ text: 'bb', replacements: 2 });
    expect(replaceExactText('abc', 'x', 'y', true)).toEqual({ type: 'not-found' });
  });

  it('gives the changed lines of each span, merged when they touch', () => {
    const text = 'a\nB\nC\nd\nE\n';
    expect(linesOfSpans(text, [{ start: 2, end: 6 }, { start: 8, end: 9 }])).toEqual([
      { first: 2, last: 3, lines: ['B', 'C'] },
      { first: 5, last: 5, lines: ['E'] },
    ]);
    expect(linesOfSpans('a\nb\n', [{ start: 2, end: 2 }])).toEqual([{ first: 2, last: 2, lines: ['b'] }]);
  });
});

describe('closestLines', () => {
  it('ignores indentation and finds a near miss', () => {
    const text = 'alpha\n    if (ready) {\n        start();\n    }\nomega\n';
    expect(closestLines(text, 'if (ready) {\n  start()\n}')).toEqual({ first: 2, last: 4, lines: ['    if (ready) {', '        start();', '    }'] });
  });

  it('answers quickly for a large file', () => {
    const lines = Array.from({ length: 200_000 }, (_, index) => `const value${index} = compute(${index});`);
    lines[150_000] = 'function theNeedleWeWant(argument) {';
    lines[150_001] = '  return argument * 2;';
    lines[150_002] = '}';
    const text = lines.join('\n');
    const started = performance.now();
    const window = closestLines(text, 'function theNeedleWeWant(argument, other) {\n  return argument * 3;\n}\n');
    // Only the first line resembles anything: that line alone is offered.
    const single = closestLines(text, 'function theNeedleWeWant(argument) {\nzzz qqq\nxxx www\nvvv uuu\n');
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(window).toMatchObject({ first: 150_001, last: 150_003 });
    expect(single).toEqual({ first: 150_001, last: 150_001, lines: ['function theNeedleWeWant(argument) {'] });
  });
});
