import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compilePattern } from './search-files.js';
import { makeReadKit, type ReadKit } from './test-support/read-kit.js';

let kit: ReadKit;
afterEach(async () => {
  await kit.cleanup();
});

/** A small tree: three source files, a doc, and matches hidden in skipped folders. */
async function makeTree(options: Parameters<typeof makeReadKit>[0] = {}): Promise<ReadKit> {
  const made = await makeReadKit(options);
  await made.put('src/app.ts', 'import { load } from "./load";\nconst TODO = 1;\nload(); // todo: remove\n');
  await made.put('src/load.ts', 'export function load() {\n  return 42;\n}\n');
  await made.put('src/util/strings.ts', '// TODO: trim\nexport const trim = (s: string) => s.trim();\n');
  await made.put('docs/guide.md', '# Guide\nCall load() to start. TODO later.\n');
  await made.put('node_modules/pkg/index.js', 'TODO in a dependency\n');
  await made.put('.git/config', 'TODO in git\n');
  await made.put('bin/out.txt', 'TODO in bin\n');
  await made.put('obj/out.txt', 'TODO in obj\n');
  await made.put('.toolbelt/output/shell.txt', 'TODO in output\n');
  return made;
}

describe('search_files modes', () => {
  beforeEach(async () => {
    kit = await makeTree();
  });

  it('lists matching files in path order by default, skipping .git, node_modules, bin, obj and .toolbelt', async () => {
    const result = await kit.run('search_files', { pattern: 'TODO' });
    expect(result.isError).toBe(false);
    expect(result.text).toBe(['3 files match `TODO` (4 files searched in the workspace):', 'docs/guide.md', 'src/app.ts', 'src/util/strings.ts'].join('\n'));
  });

  it('shows matching lines with their numbers under each file', async () => {
    const result = await kit.run('search_files', { pattern: 'load', mode: 'lines', path: 'src' });
    expect(result.text).toBe(
      [
        '3 matching lines in 2 files for `load` (3 files searched in `src`):',
        'src/app.ts',
        '1: import { load } from "./load";',
        '3: load(); // todo: remove',
        '',
        'src/load.ts',
        '1: export function load() {',
      ].join('\n'),
    );
  });

  it('counts matching lines per file', async () => {
    const result = await kit.run('search_files', { pattern: 'todo', mode: 'counts', ignore_case: true });
    expect(result.text).toBe(
      ['4 matching lines in 3 files for `todo` (4 files searched in the workspace):', 'docs/guide.md: 1', 'src/app.ts: 2', 'src/util/strings.ts: 1'].join('\n'),
    );
  });

  it('matches case-sensitively unless ignore_case or a leading (?i) is given', async () => {
    expect((await kit.run('search_files', { pattern: 'todo:' })).text).toBe('1 file match `todo:` (4 files searched in the workspace):\nsrc/app.ts');
    expect((await kit.run('search_files', { pattern: 'TODO:', ignore_case: true })).text).toContain('src/app.ts\nsrc/util/strings.ts');
    expect((await kit.run('search_files', { pattern: '(?i)TODO:' })).text).toContain('src/app.ts\nsrc/util/strings.ts');
  });

  it('narrows by an include glob on names at any depth, or on paths when it has a slash', async () => {
    expect((await kit.run('search_files', { pattern: 'TODO', include: '*.md' })).text).toBe(
      '1 file match `TODO` (1 file searched in the workspace):\ndocs/guide.md',
    );
    expect((await kit.run('search_files', { pattern: 'TODO', include: '*.{ts,md}', mode: 'counts' })).text).toContain('docs/guide.md: 1\nsrc/app.ts: 1');
    expect((await kit.run('search_files', { pattern: 'TODO', include: 'src/util/**' })).text).toBe(
      '1 file match `TODO` (1 file searched in the workspace):\nsrc/util/strings.ts',
    );
  });

  it('searches a single file given as path', async () => {
    const result = await kit.run('search_files', { pattern: 'return', path: 'src/load.ts', mode: 'lines' });
    expect(result.text).toBe('1 matching line in 1 file for `return` (1 file searched in `src/load.ts`):\nsrc/load.ts\n2:   return 42;');
  });

  it('enters a skipped folder when the search starts inside it', async () => {
    expect((await kit.run('search_files', { pattern: 'TODO', path: 'node_modules' })).text).toBe(
      '1 file match `TODO` (1 file searched in `node_modules`):\nnode_modules/pkg/index.js',
    );
    expect((await kit.run('search_files', { pattern: 'TODO', path: '.toolbelt' })).text).toContain('.toolbelt/output/shell.txt');
  });

  it('answers no match with what was searched and how to widen it', async () => {
    const result = await kit.run('search_files', { pattern: 'nothing here', include: '*.ts' });
    expect(result).toMatchObject({
      isError: false,
      text: 'No matches for `nothing here` (3 files searched in the workspace). To widen the search: set ignore_case, check include, try a shorter or simpler pattern.',
    });
  });

  it('stops at the limit and says more may match', async () => {
    const files = await kit.run('search_files', { pattern: 'TODO', limit: 2 });
    expect(files.text).toBe(
      [
        '2 files match `TODO` (2 files searched in the workspace):',
        'docs/guide.md',
        'src/app.ts',
        'Stopped at limit=2 files; more may match. Narrow the search with path or include, or raise limit (at most 1000).',
      ].join('\n'),
    );
    const lines = await kit.run('search_files', { pattern: 'o', mode: 'lines', limit: 3, path: 'src' });
    expect(lines.text.split('\n')).toEqual([
      '3 matching lines in 1 file for `o` (1 file searched in `src`):',
      'src/app.ts',
      '1: import { load } from "./load";',
      '2: const TODO = 1;',
      '3: load(); // todo: remove',
      'Stopped at limit=3 lines; more may match. Narrow the search with path or include, or raise limit (at most 1000).',
    ]);
  });

  it('says more may match when the limit cuts the lines of a single file', async () => {
    await kit.put('many.txt', 'hit\n'.repeat(5));
    const result = await kit.run('search_files', { pattern: 'hit', mode: 'lines', limit: 3, path: 'many.txt' });
    expect(result.text).toBe(
      [
        '3 matching lines in 1 file for `hit` (1 file searched in `many.txt`):',
        'many.txt',
        '1: hit',
        '2: hit',
        '3: hit',
        'Stopped at limit=3 lines; more may match. Narrow the search with path or include, or raise limit (at most 1000).',
      ].join('\n'),
    );
  });

  it('refuses an invalid regular expression with the reason and a fix', async () => {
    const result = await kit.run('search_files', { pattern: 'load(' });
    expect(result).toMatchObject({
      isError: true,
      text: '`pattern` is not a valid JavaScript regular expression: /load(/: Unterminated group. Escape ( ) [ ] { } . * + ? ^ $ | and \\ with a backslash to match them literally, e.g. `foo\\(` or `a\\.b`.',
    });
    expect((await kit.run('search_files', { pattern: '(?P<name>x)' })).text).toContain('Named groups are written `(?<name>…)` in JavaScript');
  });

  it('refuses bad arguments and paths with errors the model can act on', async () => {
    expect((await kit.run('search_files', { pattern: 'x', mode: 'words' })).text).toMatch(/^Invalid arguments for search_files: `mode`: /);
    expect((await kit.run('search_files', { pattern: 'x', limit: 5000 })).text).toMatch(/^Invalid arguments for search_files: `limit`: /);
    expect((await kit.run('search_files', { pattern: 'x', path: 'missing' })).text).toBe(
      '`missing` does not exist. Check the path with list_directory or find_files.',
    );
    expect((await kit.run('search_files', { pattern: 'x', path: '../outside' })).text).toBe(
      '`../outside` is outside the workspace. Use a path relative to the workspace root, such as `src/index.ts`.',
    );
  });
});

describe('search_files on awkward files', () => {
  it('counts binary, non-UTF-8 and oversized files instead of searching them, and names the latter two', async () => {
    kit = await makeReadKit({ maxSearchFileBytes: 1_000 });
    await kit.put('text.txt', 'needle\n');
    await kit.put('image.png', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), Buffer.from('needle')]));
    await kit.put('blob.bin', Buffer.from('needle\0needle'));
    await kit.put('latin1.txt', Buffer.from('needle caf\xe9\n', 'latin1'));
    await kit.put('utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('needle\n', 'utf16le')]));
    await kit.put('big.log', `needle\n${'x'.repeat(2_000)}\n`);
    const result = await kit.run('search_files', { pattern: 'needle' });
    expect(result.text).toBe(
      [
        '1 file match `needle` (1 file searched in the workspace):',
        'text.txt',
        'Not searched: 2 binary files; 2 files not in UTF-8: `latin1.txt`, `utf16.txt`; 1 file over 1,000 bytes: `big.log`.',
      ].join('\n'),
    );
  });

  it('drops a file whose bytes stop being UTF-8 after its first chunk, even if earlier lines matched', async () => {
    kit = await makeReadKit();
    const text = 'needle\n'.repeat(60_000); // 420 KB: more than one read
    await kit.put('late.txt', Buffer.concat([Buffer.from(text), Buffer.from([0xff, 0x0a])]));
    const result = await kit.run('search_files', { pattern: 'needle' });
    expect(result.text).toBe('No matches for `needle` (0 files searched in the workspace). To widen the search: set ignore_case, try a shorter or simpler pattern.\nNot searched: 1 file not in UTF-8: `late.txt`.');
  });

  it('numbers lines right across read chunks and in CRLF files', async () => {
    kit = await makeReadKit();
    const lines = Array.from({ length: 100_000 }, (_, index) => `line ${index + 1}`);
    await kit.put('long.txt', lines.join('\r\n') + '\r\n');
    const result = await kit.run('search_files', { pattern: '^line (1|50000|99999)$', mode: 'lines' });
    expect(result.text).toBe('3 matching lines in 1 file for `^line (1|50000|99999)$` (1 file searched in the workspace):\nlong.txt\n1: line 1\n50000: line 50000\n99999: line 99999');
  });

  it('finds matches at the edges of the first read (64 KB) and in empty files', async () => {
    kit = await makeReadKit();
    const filler = (bytes: number): string => `${'x'.repeat(99)}\n`.repeat(Math.floor(bytes / 100)) + 'y'.repeat(bytes % 100);
    await kit.put('a-exact.txt', filler(65_536 - 7) + 'needle\n'); // 65,536 bytes
    await kit.put('b-over.txt', filler(65_537 - 7) + 'needle\n'); // one byte more
    await kit.put('c-split.txt', 'x'.repeat(65_533) + 'needle\n'); // the match straddles the first read
    await kit.put('d-empty.txt', '');
    const result = await kit.run('search_files', { pattern: 'needle', mode: 'lines' });
    expect(result.text).toBe(
      [
        '3 matching lines in 3 files for `needle` (4 files searched in the workspace):',
        'a-exact.txt',
        `656: ${'y'.repeat(29)}needle`,
        '',
        'b-over.txt',
        `656: ${'y'.repeat(30)}needle`,
        '',
        'c-split.txt',
        // The window keeps 500 characters, so a match near the end shows what comes before it.
        `1: …${'x'.repeat(494)}needle [line of 65,539 characters cut around the match]`,
      ].join('\n'),
    );
  });

  it('cuts a long matched line around the match', async () => {
    kit = await makeReadKit();
    await kit.put('min.js', `${'a'.repeat(5_000)}NEEDLE${'b'.repeat(5_000)}\n`);
    const result = await kit.run('search_files', { pattern: 'NEEDLE', mode: 'lines' });
    const shown = result.text.split('\n')[2]!;
    expect(shown).toBe(`1: …${'a'.repeat(125)}NEEDLE${'b'.repeat(369)}… [line of 10,006 characters cut around the match]`);
  });

  it('never follows symbolic links, so files outside the workspace are not searched or named', async () => {
    kit = await makeReadKit();
    await fs.writeFile(path.join(kit.outside, 'secret-name.txt'), 'needle outside\n');
    await fs.symlink(kit.outside, path.join(kit.root, 'out-dir'));
    await fs.symlink(path.join(kit.outside, 'secret-name.txt'), path.join(kit.root, 'out-file.txt'));
    await kit.put('inside.txt', 'needle inside\n');
    await fs.symlink('inside.txt', path.join(kit.root, 'inside-link.txt'));
    const result = await kit.run('search_files', { pattern: 'needle', mode: 'lines' });
    expect(result.text).toBe('1 matching line in 1 file for `needle` (1 file searched in the workspace):\ninside.txt\n1: needle inside');
    expect(result.text).not.toContain('secret');
    const direct = await kit.run('search_files', { pattern: 'needle', path: 'out-dir' });
    expect(direct.isError).toBe(true);
    expect(direct.text).toContain('leads outside the workspace through a symbolic link');
  });
});

describe('search_files with a runaway pattern', () => {
  it('stops catastrophic backtracking within a few seconds and says how to fix the pattern', async () => {
    kit = await makeReadKit({ regexTimeoutMs: 1_000 });
    await kit.put('ok.txt', 'fine\n');
    await kit.put('trap.txt', `start\n${'a'.repeat(40)}b\n`);
    const started = Date.now();
    const result = await kit.run('search_files', { pattern: '(a+)+$' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({
      isError: true,
      text: 'The pattern `(a+)+$` ran for more than 1 s on line 2 of `trap.txt` without finishing (catastrophic backtracking, e.g. nested quantifiers like `(a+)+`), so the search was stopped. Simplify the pattern: avoid nested or overlapping quantifiers, anchor it, or search for a literal part of it.',
    });
    // The tool still works afterwards.
    expect((await kit.run('search_files', { pattern: 'fine' })).text).toContain('ok.txt');
  });

  it('answers with what it found when the whole search takes longer than searchTimeoutMs', async () => {
    kit = await makeReadKit({ regexTimeoutMs: 60_000, searchTimeoutMs: 500 });
    await kit.put('a.txt', 'aaa\n');
    await kit.put('b.txt', `${'a'.repeat(40)}b\n`);
    const started = Date.now();
    const result = await kit.run('search_files', { pattern: '(a+)+$' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.isError).toBe(false);
    expect(result.text).toBe(
      '1 file match `(a+)+$` (1 file searched in the workspace):\na.txt\nThe search stopped after 0.5 s, so results are incomplete. Narrow it with path or include.',
    );
  });

  it('stops when the call is cancelled', async () => {
    kit = await makeReadKit({ regexTimeoutMs: 60_000 });
    await kit.put('b.txt', `${'a'.repeat(40)}b\n`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const result = await kit.run('search_files', { pattern: '(a+)+$' }, { signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ isError: true, text: 'search_files was cancelled.' });
  });
});

describe('compilePattern', () => {
  it('uses the u flag when it can and falls back for needless escapes', () => {
    expect(compilePattern('\\p{Lu}+', false)).toEqual({ source: '\\p{Lu}+', flags: 'u' });
    expect(compilePattern('a\\:b', true)).toEqual({ source: 'a\\:b', flags: 'i' });
    expect(compilePattern('(?i)abc', false)).toEqual({ source: 'abc', flags: 'iu' });
  });

  it('keeps the refusal of a huge invalid pattern short: the engine quotes the whole pattern', () => {
    const refusal = () => compilePattern(`(${'x'.repeat(200_000)}`, false);
    expect(refusal).toThrow(/^`pattern` is not a valid JavaScript regular expression: \/\(x{499} … \[line cut: 199,501 more characters\]\/: Unterminated group\. Escape/);
    let message = '';
    try {
      refusal();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.length).toBeLessThan(800);
    expect(() => compilePattern('[', false)).toThrow('`pattern` is not a valid JavaScript regular expression: /[/: Unterminated character class. Escape');
  });
});
