import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../../workspace/workspace.js';
import { locateRipgrep } from './ripgrep.js';
import { ripgrepPattern } from './ripgrep-pattern.js';
import { walkOrder } from './walk-order.js';
import { compilePattern } from '../search-files.js';
import { makeReadKit, type ReadKit } from '../test-support/read-kit.js';
import { walkFiles } from './walk.js';

const rg = await locateRipgrep(true);
const needsRipgrep = rg === undefined ? 'ripgrep (rg) is not on PATH: install it (apt-get install ripgrep) to run this test' : false;

describe('ripgrepPattern', () => {
  it('spells JavaScript classes and escapes the way ripgrep reads them', () => {
    expect(ripgrepPattern('foo\\d+\\.\\w*', 'u')).toBe('foo[0-9]+\\.[0-9A-Za-z_]*');
    expect(ripgrepPattern('\\bfoo\\b', 'u')).toBe('(?-u:\\b)foo(?-u:\\b)');
    expect(ripgrepPattern('\\bfoo\\b', 'iu')).toBe('(?i)foo');
    expect(ripgrepPattern('a\\/b#c', 'u')).toBe('a/b\\#c');
    expect(ripgrepPattern('\\u{1F600}\\x41\\u00e9', 'u')).toBe('\\x{1f600}\\x{41}\\x{e9}');
    expect(ripgrepPattern('[^\\d\\-a]', 'u')).toBe('[^0-9\\-a]');
    // `--` in a ripgrep class is set difference: a `-` that is not a range is escaped.
    expect(ripgrepPattern('a[+--]b[-x][y-]', 'u')).toBe('a[+-\\-]b[\\-x][y\\-]');
    // `$` also before the `\r` search_files strips; anchors inside an alternative are dropped (ripgrep 13 misses `$^`).
    expect(ripgrepPattern('^a$|^b$', 'u')).toBe('^a(?:\\r?$)|^b(?:\\r?$)');
    expect(ripgrepPattern('$^', 'u')).toBe('^');
    // Under ignore_case, letters beyond ASCII may fold differently in ripgrep's older Unicode tables.
    expect(ripgrepPattern('caf\u00e9', 'iu')).toBe('(?i)caf[^\\n]');
  });

  it('widens what it cannot say exactly: lookarounds dropped, back references as any text, \\p as any character', () => {
    expect(ripgrepPattern('(?<=naïve )needle(?!s)', 'u')).toBe('needle');
    expect(ripgrepPattern('(["\'])x\\1', 'u')).toBe('(?:["\'])x[^\\n]*');
    expect(ripgrepPattern('(?<quote>")x\\k<quote>', 'u')).toBe('(?:")x[^\\n]*');
    expect(ripgrepPattern('\\p{Lu}{6}', 'u')).toBe('[\\s\\S]{6}');
  });

  it('gives up on what it cannot widen safely', () => {
    for (const [source, flags] of [
      ['a.b', ''], // without `u`, `.` matches half of an astral character
      ['a\\nb', 'u'], // no line holds a line break; ripgrep refuses it
      ['[\\p{L}]', 'u'],
      ['[]', 'u'],
      ['\\uD83D', 'u'],
      ['[é]', 'iu'], // case folding beyond ASCII inside a class
    ] as const) {
      expect([source, ripgrepPattern(source, flags)]).toEqual([source, undefined]);
    }
  });

  it.skipIf(needsRipgrep)('matches every line the JavaScript pattern matches, in a real ripgrep', async () => {
    const lines = [
      'plain ascii line',
      'foo123 bar_baz',
      'Ünïcödé wörds and café',
      'arabic digits ٣٤٥ and 42',
      'nbsp\u00a0here and nel\u0085there',
      'first line\rsecond line', // old Mac line endings: one search_files line
      'capital \ua7dc here', // the capital of ƛ since Unicode 16, newer than ripgrep 13's tables
      'dash a-b comma a,b plus a+b',
      'bom\ufeffinside',
      'ſ long s and K kelvin',
      'CRLF line ending\r',
      'lone\rreturn in the middle',
      'emoji 😀 in text',
      'tab\tseparated\tvalues',
      'quote "x" and \'y\'',
      'naïve needle',
      'NEEDLE upper',
      'a.b a-b a/b a#b',
      '    indented code();',
      '',
      'end$dollar^caret',
      'x'.repeat(300),
    ];
    const patterns = [
      'needle', 'NEEDLE', '^\\s+\\w+\\(\\);$', '\\d+', '\\D\\d', '\\w+_\\w+', '\\W+', '\\s', '\\S+\\s\\S+', '\\bfoo', 'foo\\b', 'é', 'caf.',
      '[^a-z]', '[\\s\\d]', '[^\\s]+', 'ending$', 'return', '😀', '.😀.', '\\u{1F600}', '(["\'])\\w\\1', '(?<=naïve )needle', 'needle(?! upper)',
      '\\p{Lu}', '\\p{L}+', 'a\\.b|a\\/b', '[.#/-]', 'x{300}', '^$', '\\$dollar\\^', '\\t', 'ſ', 'k', 's', 'Ü', '(?i)ünïcödé', '\\x41',
      'a[+--]b', 'a[%--]b', 'line\\s+second', 'line[^x]second', '$^', '\\b^c', 'ƛ', '\\u019b', 'a|^$|b',
    ];
    const base = await fs.realpath(await fs.mkdtemp(path.join((await import('node:os')).tmpdir(), 'toolbelt-rg-pattern-')));
    try {
      const file = path.join(base, 'lines.txt');
      await fs.writeFile(file, lines.join('\n'));
      for (const ignoreCase of [false, true]) {
        for (const pattern of patterns) {
          const compiled = compilePattern(pattern, ignoreCase);
          const translated = ripgrepPattern(compiled.source, compiled.flags);
          expect([pattern, translated]).not.toEqual([pattern, undefined]);
          const regex = new RegExp(compiled.source, compiled.flags);
          const expected = lines.flatMap((line, index) => (regex.test(line.replace(/\r$/, '')) ? [index + 1] : []));
          let output = '';
          try {
            output = execFileSync(rg!, ['--no-config', '--line-number', '--no-filename', '--regexp', translated!, file], { encoding: 'utf8' });
          } catch (error) {
            if ((error as { status?: number }).status !== 1) throw error;
          }
          const found = new Set(output.split('\n').filter(Boolean).map((line) => Number(line.slice(0, line.indexOf(':')))));
          const missed = expected.filter((line) => !found.has(line));
          expect({ pattern, ignoreCase, translated, missed }).toEqual({ pattern, ignoreCase, translated, missed: [] });
        }
      }
    } finally {
      await fs.rm(base, { recursive: true, force: true });
    }
  });
});

describe('walkOrder', () => {
  it('sorts paths into the order walkFiles yields them: a folder’s files before its subfolders, names as strings', async () => {
    const kit = await makeReadKit();
    try {
      for (const file of ['b.txt', 'a/z.txt', 'a/b/c.txt', 'a.txt', 'a-b/x.txt', 'a/a.txt', 'B/y.txt', 'é/e.txt', 'a/b.txt']) await kit.put(file, 'x');
      const walked: string[] = [];
      for await (const file of walkFiles(new Workspace(kit.root), kit.root, [], { unreadable: [] })) walked.push(file.fromStart);
      const shuffled = [...walked].reverse();
      shuffled.push(shuffled.shift()!);
      expect(shuffled.sort(walkOrder)).toEqual(walked);
    } finally {
      await kit.cleanup();
    }
  });
});

describe.skipIf(needsRipgrep)('search_files with ripgrep', () => {
  let kit: ReadKit;
  afterEach(async () => {
    await kit.cleanup();
  });
  const engine = (result: { data?: unknown }): unknown => (result.data as { engine: string }).engine;

  it('never follows links out of the workspace, or into its own folders twice', async () => {
    kit = await makeReadKit({ ripgrep: true, ripgrepAfterFiles: 0 });
    await fs.writeFile(path.join(kit.outside, 'secret.txt'), 'needle outside\n');
    await fs.symlink(path.join(kit.outside, 'secret.txt'), path.join(kit.root, 'out.txt'));
    await fs.symlink(kit.outside, path.join(kit.root, 'out-dir'));
    await kit.put('src/inside.txt', 'needle inside\n');
    await fs.symlink('src', path.join(kit.root, 'src-again'));
    const result = await kit.run('search_files', { pattern: 'needle', mode: 'lines' });
    expect(engine(result)).toBe('ripgrep');
    expect(result.text).toBe('1 matching line in 1 file for `needle` (1 file searched in the workspace):\nsrc/inside.txt\n1: needle inside');
  });

  it('answers as the Node.js search does on skipped folders, include globs, limits and files that are not text', async () => {
    kit = await makeReadKit({ ripgrep: true, ripgrepAfterFiles: 0 });
    const node = await makeReadKit({ ripgrep: false });
    try {
      for (const target of [kit, node]) {
        await target.put('src/a.ts', 'const needle = 1;\r\nneedle();\n');
        await target.put('src/b.md', '# needle\n');
        await target.put('src/deep/c.ts', '\ufeffneedle at the start\n');
        // One byte order mark is not part of the text; a second one is.
        await target.put('two-boms.txt', '\ufeff\ufeffneedle\n');
        await target.put('mac.txt', 'a needle\rsecond line\r');
        await target.put('node_modules/pkg/index.js', 'needle\n');
        await target.put('.hidden/d.ts', 'needle hidden\n');
        await target.put('bin.dat', Buffer.from('needle\0binary'));
        await target.put('latin1.txt', Buffer.from('needle caf\xe9\n', 'latin1'));
        await target.put('.gitignore', 'src/\n');
      }
      for (const input of [
        { pattern: 'needle', mode: 'lines', limit: 1_000 },
        { pattern: '^needle', mode: 'counts' },
        { pattern: 'needle\\(\\);$', mode: 'lines' },
        { pattern: 'needle', include: '*.ts' },
        { pattern: 'needle', include: 'src/**' },
        { pattern: 'needle', limit: 2 },
        { pattern: 'needle', path: 'node_modules', mode: 'lines' },
        { pattern: 'NEEDLE', ignore_case: true, mode: 'counts' },
        { pattern: 'needle\\s+second', mode: 'lines' },
        { pattern: 'a[+--]b|$^', mode: 'counts' },
      ]) {
        const [withRipgrep, withNode] = await Promise.all([kit.run('search_files', input), node.run('search_files', input)]);
        expect(engine(withRipgrep)).toBe('ripgrep');
        const data = (result: { data?: unknown }) => {
          const { matches, limitReached } = result.data as { matches: unknown; limitReached: boolean };
          return { matches, limitReached };
        };
        expect([input, data(withRipgrep)]).toEqual([input, data(withNode)]);
        // The same lines but the header's count of files searched and the note on what was not.
        const body = (text: string): string[] => text.split('\n').slice(1).filter((line) => !line.startsWith('Not searched:'));
        expect(body(withRipgrep.text)).toEqual(body(withNode.text));
      }
    } finally {
      await node.cleanup();
    }
  });

  it('does not enter a skipped folder whose name the include glob matches', async () => {
    kit = await makeReadKit({ ripgrep: true, ripgrepAfterFiles: 0, skippedFolders: ['vendor.ts', 'we[ir]d*'] });
    await kit.put('vendor.ts/inside.ts', 'needle\n');
    await kit.put('we[ir]d*/inside.ts', 'needle\n');
    await kit.put('src/a.ts', 'needle\n');
    const result = await kit.run('search_files', { pattern: 'needle', include: '*.ts' });
    expect([engine(result), result.text]).toEqual(['ripgrep', '1 file match `needle` (1 file searched in the workspace):\nsrc/a.ts']);
  });

  it('walks first and hands over to ripgrep only when matches are sparse, with the answer of the walk alone', async () => {
    kit = await makeReadKit({ ripgrep: true, ripgrepAfterFiles: 10 });
    const node = await makeReadKit({ ripgrep: false });
    try {
      for (const target of [kit, node]) {
        for (let index = 0; index < 60; index += 1) {
          const name = `d${String(index % 6)}/f${String(index).padStart(2, '0')}.txt`;
          // Walk order: d0's ten files first, so the hand-off after 10 files comes at the end of d0.
          // "rare" is in d0's last file (where the walk hands off) and two after it; "late" only after it.
          const lines = ['common', ...([54, 40, 55].includes(index) ? ['rare'] : []), ...([40, 55, 59].includes(index) ? ['late'] : [])];
          await target.put(name, `${lines.join('\n')}\n`);
        }
        // Files after them in walk order: enough left at the hand-off (100, ten times the 10 walked) to be worth a ripgrep scan.
        for (let index = 0; index < 120; index += 1) await target.put(`e/g${String(index).padStart(3, '0')}.txt`, 'filler\n');
      }
      const common = await kit.run('search_files', { pattern: 'common', limit: 5 });
      expect(engine(common)).toBe('node');
      for (const [input, expected] of [
        // One case-sensitive literal is walked: with the byte prefilter a file costs the walk no more than it costs ripgrep.
        [{ pattern: 'rare' }, 'node'],
        [{ pattern: 'late', limit: 2 }, 'node'],
        // Two literals, or a caseless one, are walked too.
        [{ pattern: 'rare|zzyzx' }, 'node'],
        [{ pattern: 'rare', ignore_case: true }, 'node'],
        // Three literals (`rare`, `rbre`, `rcre`) cost the prefilter more than ripgrep's one pass: one match in 10 files, 100 would take 1,000 files.
        [{ pattern: 'r[abc]re' }, 'ripgrep'],
        [{ pattern: 'r[abc]re', mode: 'lines' }, 'ripgrep'],
        [{ pattern: 'r[abc]re', limit: 1 }, 'node'], // the limit is reached before the hand-off
        [{ pattern: 'r[abc]re', limit: 3 }, 'node'], // 3 would take about 30 files, under 10 times 10
        [{ pattern: 'l[abc]te', limit: 2 }, 'ripgrep'], // nothing in the first 10: cut after the hand-off
        [{ pattern: '\\w+re\\b' }, 'ripgrep'], // no literal of three characters
      ] as const) {
        const [withRipgrep, withNode] = await Promise.all([kit.run('search_files', input), node.run('search_files', input)]);
        expect([input, engine(withRipgrep)]).toEqual([input, expected]);
        expect([input, (withRipgrep.data as { matches: unknown }).matches]).toEqual([input, (withNode.data as { matches: unknown }).matches]);
        expect(withRipgrep.text.split('\n').slice(1)).toEqual(withNode.text.split('\n').slice(1));
      }
    } finally {
      await node.cleanup();
    }
  });

  it('names the files it could not search only when they may match', async () => {
    kit = await makeReadKit({ ripgrep: true, ripgrepAfterFiles: 0, maxSearchFileBytes: 1_000 });
    await kit.put('big-with.log', `${'x'.repeat(2_000)}\nneedle\n`);
    await kit.put('big-without.log', 'y'.repeat(2_000));
    await kit.put('small.txt', 'needle\n');
    const result = await kit.run('search_files', { pattern: 'needle' });
    expect(result.text).toBe('1 file match `needle` (3 files searched in the workspace):\nsmall.txt\nNot searched: 1 file over 1,000 bytes: `big-with.log`.');
  });

  it('answers at once a pattern that would backtrack for ever on a line it does not match', async () => {
    kit = await makeReadKit({ ripgrep: true, ripgrepAfterFiles: 0, regexTimeoutMs: 500 });
    await kit.put('trap.txt', `${'a'.repeat(40)}b\n`);
    await kit.put('fine.txt', 'aaa\n');
    const started = Date.now();
    const result = await kit.run('search_files', { pattern: '(a+)+$' });
    expect(result.text).toBe('1 file match `(a+)+$` (2 files searched in the workspace):\nfine.txt');
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('falls back to the Node.js search when ripgrep cannot run or cannot express the pattern', async () => {
    kit = await makeReadKit({ ripgrep: path.join(path.sep, 'no', 'such', 'rg') });
    await kit.put('a.txt', 'needle\n');
    const missing = await kit.run('search_files', { pattern: 'needle' });
    expect([engine(missing), missing.text]).toEqual(['node', '1 file match `needle` (1 file searched in the workspace):\na.txt']);
    const withRipgrep = await makeReadKit({ ripgrep: true, ripgrepAfterFiles: 0 });
    try {
      await withRipgrep.put('a.txt', 'needle\n');
      // `\:` only compiles without the `u` flag, which ripgrep cannot match the same way.
      const untranslated = await withRipgrep.run('search_files', { pattern: 'needle\\:?' });
      expect([engine(untranslated), untranslated.text]).toEqual(['node', '1 file match `needle\\:?` (1 file searched in the workspace):\na.txt']);
    } finally {
      await withRipgrep.cleanup();
    }
  });

  it('stops at searchTimeoutMs with what it has, saying so', async () => {
    kit = await makeReadKit({ ripgrep: true, ripgrepAfterFiles: 0, searchTimeoutMs: 1 });
    await kit.put('a.txt', 'needle\n');
    const result = await kit.run('search_files', { pattern: 'needle' });
    expect(result.text).toMatch(/\nThe search stopped after 0 s, so results are incomplete\. Narrow it with path or include\.$/);
  });
});
