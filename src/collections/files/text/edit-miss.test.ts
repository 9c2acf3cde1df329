import { describe, expect, it } from 'vitest';
import { describeWhitespace, numberedLines, readMiss } from './edit-miss.js';

describe('numberedLines', () => {
  it("reads read_file's, cat -n's and Claude Code's prefixes, blank lines and a final break included", () => {
    expect(numberedLines('12: a\n13: \n14:   b\n', true)).toMatchObject({ first: 12, sample: '12: ', stripped: 'a\n\n  b\n' });
    expect(numberedLines('    12\tif x:\n    13\n    14\t    y', true)).toMatchObject({ first: 12, stripped: 'if x:\n\n    y' });
    expect(numberedLines('     7→const a = 1;', true)).toMatchObject({ first: 7, stripped: 'const a = 1;' });
  });

  it('leaves text alone that only looks numbered: numbers out of order, numbers alone, a line without one', () => {
    expect(numberedLines('200: ok\n404: missing', true)).toBeUndefined();
    expect(numberedLines('200: ok\n404: missing', false)).toBeDefined();
    expect(numberedLines('1\n2\n3', true)).toBeUndefined();
    expect(numberedLines('1: a\nb', true)).toBeUndefined();
    expect(numberedLines('x = 1', true)).toBeUndefined();
  });
});

describe('readMiss', () => {
  it('salvages with the file\u2019s own text as old_string', async () => {
    expect(await readMiss('say \u201chi\u201d\n', 'say "hi"', 'say bye')).toEqual({
      type: 'salvaged',
      oldString: 'say \u201chi\u201d',
      newString: 'say bye',
      cleanups: [{ type: 'quotes', file: 'curly', fromNewString: false }],
    });
  });

  it('does not take escapes off a new_string that has real line breaks and escapes both', async () => {
    expect(await readMiss('a\nb\n', 'a\\nb', 'a\n"x\\n"')).toMatchObject({ type: 'unexplained' });
  });

  it('finds nothing to say when the text is not there in any form', async () => {
    expect(await readMiss('alpha\n', 'omega', 'x')).toEqual({ type: 'unexplained', oldString: 'omega', cleanups: [] });
  });

  it('describes the whitespace of each line that differs, a first line starting inside the file\u2019s line included', async () => {
    const reading = await readMiss('def f():\n\tif x:\n\t\treturn 1  \n', 'if x:\n    return 1', 'x');
    expect(reading).toMatchObject({
      type: 'differs',
      kind: 'whitespace',
      lines: { first: 2, last: 3, lines: ['\tif x:', '\t\treturn 1  '] },
      differences: ['line 3: the file indents it with 2 tabs, old_string with 4 spaces'],
    });
    expect(describeWhitespace('\t  ')).toBe('1 tab and 2 spaces');
    expect(describeWhitespace('')).toBe('nothing');
  });

  it('answers a miss in a 10 MB file within a second', async () => {
    const text = Array.from({ length: 250_000 }, (_, index) => `    const value${index} = "item ${index}";`).join('\n');
    const started = performance.now();
    expect(await readMiss(text, '  const value249998 = "item 249998";\n  const value249999 = "item 249999";', 'x')).toMatchObject({ type: 'differs', kind: 'whitespace' });
    expect(await readMiss(text, 'const value7 = \u201citem 7\u201d;', 'x')).toMatchObject({ type: 'salvaged' });
    expect(await readMiss(text, 'nothing like it', 'x')).toMatchObject({ type: 'unexplained' });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
