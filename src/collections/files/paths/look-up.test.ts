import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeReadKit, type ReadKit } from '../test-support/read-kit.js';
import { APP_TEXT, makeSalvageKit } from '../test-support/salvage-kit.js';
import { listTree, type WriteKit } from '../test-support/write-kit.js';

/** The note a salvaged call ends with. */
const used = (found: string, field: string, sent: string, how: string) =>
  `(Used ${found} for \`${field}\`: the path you sent, ${sent}, names nothing as written, and, ${how}, it names this one existing path.)`;

describe('a looked-up path that names nothing as written: lossless cleanups with exactly one match', () => {
  let kit: WriteKit;
  beforeEach(async () => (kit = await makeSalvageKit()));
  afterEach(() => kit.cleanup());

  it.each([
    ['`\\` as `/`', 'src\\app.ts', '`src\\app.ts`', 'with `\\` read as `/`'],
    ['a trailing line break', 'src/app.ts\n', '`"src/app.ts\\n"`', 'without the whitespace at its ends'],
    ['a leading space', ' src/app.ts', '`" src/app.ts"`', 'without the whitespace at its ends'],
    ['double quotes', '"src/app.ts"', '`"src/app.ts"`', 'without the quotes around it'],
    ['backticks', '`src/app.ts`', '``src/app.ts``', 'without the quotes around it'],
    ['a leading `@`', '@src/app.ts', '`@src/app.ts`', 'without the leading `@`'],
    ['percent escapes', 'src%2Fapp.ts', '`src%2Fapp.ts`', 'with its `%XX` escapes decoded'],
    ['quotes and `\\` together', "'src\\app.ts'", "`'src\\app.ts'`", 'without the quotes around it and with `\\` read as `/`'],
  ])('reads the file for %s and says which path it used', async (_name, sent, shownSent, how) => {
    const result = await kit.read(sent);
    expect(result.isError).toBe(false);
    expect(result.text).toBe(`src/app.ts: lines 1-2 of 2 (end of file).\n1: one\n2: two\n\n${used('`src/app.ts`', 'path', shownSent, how)}`);
  });

  it('reads a `file://` URL of a file in the workspace', async () => {
    const result = await kit.read(`file://${kit.workspace.root}/src/app.ts`);
    expect(result.isError).toBe(false);
    expect(result.text).toContain('read as a `file://` URL, it names this one existing path.');
  });

  it('finds a name stored in NFD from its NFC spelling, and shows both so they can be told apart', async () => {
    await kit.put('docs/cafe\u0301.md', 'decomposed\n');
    const result = await kit.read('docs/caf\u00e9.md');
    expect(result.isError).toBe(false);
    expect(result.text).toContain('1: decomposed');
    expect(result.text).toContain(used('`docs/cafe\\u0301.md`', 'path', '`docs/caf\\u00e9.md`', 'in the Unicode form the disk uses (NFC/NFD)'));
  });

  it('edits, overwrites and deletes through a salvaged path, the read of the real path counting', async () => {
    await kit.read('src/app.ts');
    const edit = await kit.run('edit_file', { path: 'src\\app.ts', old_string: 'one', new_string: 'uno' });
    expect(edit.isError).toBe(false);
    expect(edit.text).toContain(used('`src/app.ts`', 'path', '`src\\app.ts`', 'with `\\` read as `/`'));
    expect(await kit.text('src/app.ts')).toBe('uno\ntwo\n');
    const write = await kit.run('write_file', { path: ' src/app.ts ', content: 'new\n' });
    expect(write.isError).toBe(false);
    expect(await kit.text('src/app.ts')).toBe('new\n');
    const removed = await kit.run('delete_file', { path: 'src/app.ts\n' });
    expect(removed.text).toMatch(/^Deleted `src\/app.ts`\./);
    expect(await listTree(kit.root)).toEqual(['src']);
  });

  it('moves a salvaged source to the destination as sent', async () => {
    const result = await kit.run('move_file', { source: '"src/app.ts"', destination: 'lib/app.ts' });
    expect(result.text).toBe(`Moved \`src/app.ts\` to \`lib/app.ts\`.\n\n${used('`src/app.ts`', 'source', '`"src/app.ts"`', 'without the quotes around it')}`);
    expect(await listTree(kit.root)).toEqual(['lib', 'lib/app.ts', 'src']);
  });

  it('keeps the tool own refusal after a salvage, with the note', async () => {
    const result = await kit.run('edit_file', { path: 'src\\app.ts', old_string: 'one', new_string: 'uno' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^You have not read `src\/app.ts` in this session/);
    expect(result.text).toContain('with `\\` read as `/`');
    expect(await kit.text('src/app.ts')).toBe(APP_TEXT);
  });

  it('checks a salvaged path before anyone is asked, and refuses a guess there', async () => {
    await kit.read('src/app.ts');
    const check = kit.tools.write_file.checkPolicy!;
    expect(await check({ path: 'src\\app.ts', content: 'x\n' }, { session: kit.session })).toBeUndefined();
    expect(await check({ path: 'SRC/app.ts', content: 'x\n' }, { session: kit.session })).toBe(
      '`SRC/app.ts` does not exist. Did you mean `src/app.ts` (the same path in other letter case)? If so, call write_file with path `src/app.ts`.',
    );
    expect(await check({ path: 'src/nope.ts', content: 'x\n' }, { session: kit.session })).toBe(
      '`src/nope.ts` does not exist; write_file only replaces existing files. Use create_file to make a new one.',
    );
  });

  it('a `%00` that decodes to a NUL byte is no match, and no crash', async () => {
    const result = await kit.read('src%00app.ts');
    expect(result.text).toBe('`src%00app.ts` does not exist. Check the path with list_directory or find_files.');
    expect((await kit.run('create_file', { path: 'a%00b.txt', content: '' })).text).toContain('holds `%XX` URL escapes');
  });

  it('uses the literal path when it exists, however odd', async () => {
    await kit.put('src\\app.ts', 'literal\n');
    const result = await kit.read('src\\app.ts');
    expect(result.text).toBe('src\\app.ts: line 1 of 1 (end of file).\n1: literal');
  });
});

describe('a looked-up path that would be a guess: "did you mean", and nothing done', () => {
  let kit: WriteKit;
  beforeEach(async () => (kit = await makeSalvageKit()));
  afterEach(() => kit.cleanup());

  it('two lossless matches: lists both, acts on neither', async () => {
    await kit.put('@notes.txt', 'at\n');
    await kit.put('notes.txt', 'plain\n');
    await kit.read('notes.txt');
    await kit.read('@notes.txt');
    const result = await kit.run('delete_file', { path: '"@notes.txt"' });
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      '`"@notes.txt"` names nothing as written, and, without the quotes around it and without the leading `@`, it could be any of 2 existing paths: `@notes.txt`, `notes.txt`. Nothing was done, since that would be a guess; call delete_file again with path set to the one you meant.',
    );
    expect(await listTree(kit.root)).toEqual(['@notes.txt', 'notes.txt', 'src', 'src/app.ts']);
  });

  it('two names that differ only in Unicode form: lists both in code points', async () => {
    await kit.put('docs/r\u00e9sum\u00e9.md', 'nfc\n');
    await kit.put('docs/re\u0301sume\u0301.md', 'nfd\n');
    const result = await kit.read('docs/r\u00e9sume\u0301.md');
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      '`docs/r\\u00e9sume\\u0301.md` names nothing as written, and, in the Unicode form the disk uses (NFC/NFD), it could be any of 2 existing paths: `docs/re\\u0301sume\\u0301.md`, `docs/r\\u00e9sum\\u00e9.md`. Nothing was done, since that would be a guess; call read_file again with path set to the one you meant.',
    );
  });

  it('another letter case', async () => {
    const result = await kit.read('Src/App.ts');
    expect(result.text).toBe('`Src/App.ts` does not exist. Did you mean `src/app.ts` (the same path in other letter case)? If so, call read_file with path `src/app.ts`.');
  });

  it('two names in other letter case: lists both', async () => {
    await kit.put('README.md', 'a\n');
    await kit.put('readme.md', 'b\n');
    const result = await kit.run('edit_file', { path: 'Readme.md', old_string: 'a', new_string: 'c' });
    expect(result.text).toBe(
      '`Readme.md` does not exist. Did you mean one of these: `README.md` (the same path in other letter case); `readme.md` (the same path in other letter case)? Nothing was done; call edit_file with path set to the one you meant.',
    );
  });

  it('`path:line` for read_file: the start_line to send', async () => {
    expect((await kit.read('src/app.ts:12')).text).toBe(
      '`src/app.ts:12` does not exist. Did you mean `src/app.ts` (`:12` read as a line number)? If so, call read_file with path `src/app.ts` and start_line 12.',
    );
    expect((await kit.read('src/app.ts#L3-L9')).text).toContain('call read_file with path `src/app.ts` and start_line 3 and end_line 9.');
    expect((await kit.read('src/app.ts:3:14')).text).toContain('call read_file with path `src/app.ts` and start_line 3.');
  });

  it('`path:line` for a tool without lines: the path alone', async () => {
    const result = await kit.run('delete_file', { path: 'src/app.ts:2' });
    expect(result.text).toContain('If so, call delete_file with path `src/app.ts` (`:2` is a line number, not part of the path).');
    expect(await kit.text('src/app.ts')).toBe(APP_TEXT);
  });

  it('an absolute path outside the workspace, and a `~` one: their part inside it', async () => {
    const root = kit.workspace.root;
    const name = path.basename(root);
    const outside = await kit.read(`/home/someone/${name}/src/app.ts`);
    expect(outside.text).toBe(
      `\`/home/someone/${name}/src/app.ts\` is not a path inside the workspace: paths are relative to its root, \`${root}\`. Did you mean \`src/app.ts\` (its part inside the workspace)? If so, call read_file with path \`src/app.ts\`.`,
    );
    expect((await kit.read('~/projects/elsewhere/src/app.ts')).text).toContain('If so, call read_file with path `src/app.ts`.');
    expect((await kit.read('C:\\Users\\me\\code\\src\\app.ts')).text).toContain('If so, call read_file with path `src/app.ts`.');
  });

  it('a leading folder named like the workspace root', async () => {
    const name = path.basename(kit.workspace.root);
    const result = await kit.run('delete_file', { path: `${name}/src/app.ts` });
    expect(result.text).toBe(
      `\`${name}/src/app.ts\` does not exist. Did you mean \`src/app.ts\` (without the leading \`${name}/\`, the workspace folder's own name)? If so, call delete_file with path \`src/app.ts\`.`,
    );
    expect(await kit.text('src/app.ts')).toBe(APP_TEXT);
  });

  it('nothing near: the tool own reply stands', async () => {
    expect((await kit.read('src/nope.ts')).text).toBe('`src/nope.ts` does not exist. Check the path with list_directory or find_files.');
    expect((await kit.read('/etc/hosts')).text).toBe('`/etc/hosts` is outside the workspace. Use a path relative to the workspace root, such as `src/index.ts`.');
  });

  it('never suggests a name behind a link out of the workspace', async () => {
    await fs.writeFile(path.join(kit.outside, 'secret.txt'), 'secret\n');
    await fs.symlink(kit.outside, path.join(kit.root, 'out'));
    const result = await kit.read('out/Secret.txt');
    expect(result.isError).toBe(true);
    expect(result.text).not.toContain('secret.txt');
  });
});

describe('the reading tools look their paths up too', () => {
  let kit: ReadKit;
  beforeEach(async () => {
    kit = await makeReadKit();
    await kit.put('src/util/strings.ts', 'export const a = 1;\n');
  });
  afterEach(async () => {
    await kit.cleanup();
  });

  it('list_directory, find_files and search_files salvage a `\\` path and say so', async () => {
    const listed = await kit.run('list_directory', { path: 'src\\util' });
    expect(listed.text).toBe(`Entries of \`src/util/\` (0 folders, 1 file):\nstrings.ts (20 bytes)\n\n${used('`src/util`', 'path', '`src\\util`', 'with `\\` read as `/`')}`);
    const found = await kit.run('find_files', { pattern: '*.ts', path: 'src\\util\n' });
    expect(found.text).toContain('src/util/strings.ts');
    expect(found.text).toContain('without the whitespace at its ends and with `\\` read as `/`, it names this one existing path.');
    const searched = await kit.run('search_files', { pattern: 'const', path: '@src/util' });
    expect(searched.text).toContain('src/util/strings.ts');
    expect(searched.text).toContain('without the leading `@`');
  });

  it('search_files suggests the folder in its letter case', async () => {
    const result = await kit.run('search_files', { pattern: 'const', path: 'SRC' });
    expect(result.text).toBe('`SRC` does not exist. Did you mean `src` (the same path in other letter case)? If so, call search_files with path `src`.');
  });
});
