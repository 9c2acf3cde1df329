import { describe, expect, it } from 'vitest';
import { ToolError } from '../../../errors/tool-error.js';
import { parseCreateDiff, parsePatch, parseUpdateDiff } from './parse.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

function parseError(text: string): string {
  try {
    parsePatch(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as ToolError).message;
  }
  throw new Error('expected the patch to be refused');
}

describe('parsePatch: the V4A grammar', () => {
  it('reads every operation: add, delete, update with a move and several chunks', () => {
    const operations = parsePatch(
      patch(
        '*** Add File: docs/new.md',
        '+# Title',
        '+',
        '+text',
        '*** Delete File: old.txt',
        '*** Update File: src/a.ts',
        '*** Move to: src/b.ts',
        '@@ function first() {',
        ' const a = 1;',
        '-const b = 2;',
        '+const b = 3;',
        '@@ class Second',
        '@@   method() {',
        '-    return 1;',
        '+    return 2;',
        '*** End of File',
      ),
    );
    expect(operations).toEqual([
      { type: 'add', path: 'docs/new.md', lines: ['# Title', '', 'text'] },
      { type: 'delete', path: 'old.txt' },
      {
        type: 'update',
        path: 'src/a.ts',
        moveTo: 'src/b.ts',
        chunks: [
          {
            anchors: ['function first() {'],
            lines: [{ kind: ' ', text: 'const a = 1;' }, { kind: '-', text: 'const b = 2;' }, { kind: '+', text: 'const b = 3;' }],
            endOfFile: false,
            patchLine: 9,
          },
          {
            anchors: ['class Second', 'method() {'],
            lines: [{ kind: '-', text: '    return 1;' }, { kind: '+', text: '    return 2;' }],
            endOfFile: true,
            patchLine: 13,
          },
        ],
      },
    ]);
  });

  it('takes a first chunk without @@, an empty line as empty context, CRLF line breaks, and a unified-diff range as a bare @@', () => {
    const [operation] = parsePatch(['*** Begin Patch', '*** Update File: a.txt', ' one', '', '-two', '+TWO', '@@ -10,3 +10,3 @@', '-x', '+y', '*** End Patch', ''].join('\r\n'));
    expect(operation).toMatchObject({
      type: 'update',
      chunks: [
        { anchors: [], lines: [{ kind: ' ', text: 'one' }, { kind: ' ', text: '' }, { kind: '-', text: 'two' }, { kind: '+', text: 'TWO' }] },
        { anchors: [], lines: [{ kind: '-', text: 'x' }, { kind: '+', text: 'y' }] },
      ],
    });
  });

  it('refuses a patch without its envelope, naming the line and the format', () => {
    expect(parseError('*** Update File: a\n-x\n+y\n')).toMatch(/^The patch is not valid V4A at line 1: the patch must start with `\*\*\* Begin Patch`, but it starts with `\*\*\* Update File: a`\. Nothing was changed\. A patch starts with/);
    expect(parseError('*** Begin Patch\n*** Delete File: a')).toContain('at line 2: the patch must end with `*** End Patch`');
  });

  it('refuses an added line without +, a chunk line without a marker, an unknown header and an empty patch', () => {
    expect(parseError(patch('*** Add File: a.txt', '+ok', 'missing plus'))).toContain('at line 4: every line of an added file must start with `+`, but this one is `missing plus` (in `*** Add File: a.txt`)');
    expect(parseError(patch('*** Update File: a.txt', '@@', '-x', 'y'))).toContain('at line 5: each line of a chunk must start with a space (context), `-` (removed) or `+` (added), but this one is `y`');
    expect(parseError(patch('*** Rename File: a.txt'))).toContain('at line 2: expected `*** Add File:`, `*** Delete File:` or `*** Update File:`, got `*** Rename File: a.txt`');
    expect(parseError(patch())).toContain('the patch changes no file');
    expect(parseError(patch('*** Update File: a.txt', '@@', ' only context'))).toContain('has only context lines and changes nothing');
    expect(parseError(patch('*** Update File: a.txt'))).toContain('has no changes');
    expect(parseError(patch('*** Add File: '))).toContain('`*** Add File:` needs a path after it');
  });
});

describe('the native diffs of the Responses API apply_patch', () => {
  it('reads an update_file diff as chunks and a create_file diff as lines', () => {
    expect(parseUpdateDiff('@@ def f():\n-    return 1\n+    return 2\n', 'a.py')).toEqual([
      { anchors: ['def f():'], lines: [{ kind: '-', text: '    return 1' }, { kind: '+', text: '    return 2' }], endOfFile: false, patchLine: 1 },
    ]);
    expect(parseCreateDiff('+line one\n+\n+line three\n', 'n.txt')).toEqual(['line one', '', 'line three']);
    expect(() => parseCreateDiff('+ok\nno plus', 'n.txt')).toThrow('every line of a new file\'s diff must start with `+`, but this one is `no plus` (creating `n.txt`)');
  });
});
