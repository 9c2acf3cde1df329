import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSession } from '../../session.js';
import { recordRead } from './guard/read-state.js';
import { makeWriteKit, type WriteKit } from './test-support/write-kit.js';

let kit: WriteKit;
beforeEach(async () => {
  kit = await makeWriteKit();
});
afterEach(async () => {
  await kit.cleanup();
});

async function readAndEdit(file: string, input: Record<string, unknown>) {
  const read = await kit.read(file);
  expect(read.isError).toBe(false);
  return kit.run('edit_file', { path: file, ...input });
}

describe('edit_file', () => {
  it('replaces text that occurs exactly once and shows the changed lines with their numbers', async () => {
    await kit.put('src/a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const result = await readAndEdit('src/a.ts', { old_string: 'const b = 2;', new_string: 'const b = 20;\nconst bb = 21;' });
    expect(result).toMatchObject({ isError: false });
    expect(result.text).toBe('Edited `src/a.ts`: 1 replacement. The changed lines now read:\n2: const b = 20;\n3: const bb = 21;');
    expect(await kit.text('src/a.ts')).toBe('const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n');
    expect((result.data as { diff: string }).diff).toContain('-const b = 2;\n+const b = 20;\n+const bb = 21;');
  });

  it('refuses text that occurs more than once, says how often, and changes nothing', async () => {
    const original = 'x = 1\ny = 2\nx = 1\nx = 1\n';
    await kit.put('a.py', original);
    const result = await readAndEdit('a.py', { old_string: 'x = 1', new_string: 'x = 9' });
    expect(result).toMatchObject({ isError: true });
    expect(result.text).toBe(
      'old_string occurs 3 times in `a.py`, so edit_file did not know which one to change. Add surrounding lines to old_string until it occurs exactly once, or set replace_all to true to change every occurrence.',
    );
    expect(await kit.text('a.py')).toBe(original);
  });

  it('replaces every occurrence with replace_all and shows each changed line', async () => {
    await kit.put('a.py', 'x = 1\ny = 2\nx = 1\nx = 1\n');
    const result = await readAndEdit('a.py', { old_string: 'x = 1', new_string: 'x = 9', replace_all: true });
    expect(result.text).toBe('Edited `a.py`: 3 replacements. The changed lines now read:\n1: x = 9\n…\n3: x = 9\n4: x = 9');
    expect(await kit.text('a.py')).toBe('x = 9\ny = 2\nx = 9\nx = 9\n');
  });

  it('writes the replacement literally: $&, $$, $1 and $` stay as typed', async () => {
    await kit.put('a.js', 'price = OLD;\n');
    const replacement = "'$&' + '$$' + '$1' + '$`' + \"$'\"";
    await readAndEdit('a.js', { old_string: 'OLD', new_string: replacement });
    expect(await kit.text('a.js')).toBe(`price = ${replacement};\n`);
  });

  it('matches LF text in a CRLF file, writes the replacement with CRLF and leaves other lines as they were', async () => {
    // The last line ends with a lone LF: it must keep it.
    await kit.put('win.txt', 'one\r\ntwo\r\nthree\r\nfour\n');
    const result = await readAndEdit('win.txt', { old_string: 'two\nthree', new_string: 'TWO\nand\nTHREE' });
    expect(result.isError).toBe(false);
    expect((await kit.bytes('win.txt')).toString('latin1')).toBe('one\r\nTWO\r\nand\r\nTHREE\r\nfour\n');
    expect(result.text).toBe('Edited `win.txt`: 1 replacement. The changed lines now read:\n2: TWO\n3: and\n4: THREE');
  });

  it('matches CRLF text in an LF file and writes LF', async () => {
    await kit.put('unix.txt', 'a\nb\nc\n');
    await readAndEdit('unix.txt', { old_string: 'a\r\nb', new_string: 'A\r\nB' });
    expect(await kit.text('unix.txt')).toBe('A\nB\nc\n');
  });

  it('keeps a byte order mark and the file permissions', async () => {
    const absolute = await kit.put('bom.sh', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('echo hi\r\necho there\r\n')]));
    await fs.chmod(absolute, 0o751);
    const result = await readAndEdit('bom.sh', { old_string: 'echo hi', new_string: 'echo hello' });
    expect(result.isError).toBe(false);
    const bytes = await kit.bytes('bom.sh');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe('echo hello\r\necho there\r\n');
    expect((await fs.stat(absolute)).mode & 0o777).toBe(0o751);
  });

  it('refuses an empty old_string and identical strings, naming the fix', async () => {
    await kit.put('a.txt', 'hello\n');
    await kit.read('a.txt');
    const empty = await kit.run('edit_file', { path: 'a.txt', old_string: '', new_string: 'x' });
    expect(empty).toMatchObject({ isError: true });
    expect(empty.text).toBe(
      'old_string is empty, so there is nothing to find. Copy the exact text to replace from read_file output; to make a new file use create_file, to replace a whole file use write_file.',
    );
    const same = await kit.run('edit_file', { path: 'a.txt', old_string: 'hello', new_string: 'hello' });
    expect(same.text).toBe('old_string and new_string are identical, so the edit would change nothing. Give the new text in new_string.');
    expect(await kit.text('a.txt')).toBe('hello\n');
  });

  it('answers a miss with the closest lines and their numbers', async () => {
    const lines = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`);
    lines[11] = 'function load(path) {';
    lines[12] = '  return readFile(path, "utf8");';
    lines[13] = '}';
    await kit.put('lib.js', `${lines.join('\n')}\n`);
    const result = await readAndEdit('lib.js', {
      old_string: 'function load(path) {\n    return readFile(path, "utf-8");\n}',
      new_string: 'x',
    });
    expect(result).toMatchObject({ isError: true });
    expect(result.text).toBe(
      'old_string was not found in `lib.js`. The closest lines are 12–14:\n12: function load(path) {\n13:   return readFile(path, "utf8");\n14: }\nRead the file again with read_file and copy the text exactly, including whitespace and indentation (without the "N: " prefixes).',
    );
  });

  it('takes read_file line numbers copied into old_string off, and says so (issue 26: salvaged, no longer refused)', async () => {
    await kit.put('a.txt', 'alpha\nbeta\n');
    const result = await readAndEdit('a.txt', { old_string: '1: alpha\n2: beta', new_string: 'x' });
    expect(result.text).toBe(
      "Edited `a.txt`: 1 replacement (old_string's lines started with line numbers (`1: `), which the file does not hold: they were taken off). The changed lines now read:\n1: x",
    );
    expect(await kit.text('a.txt')).toBe('x\n');
  });

  it('refuses line numbers it cannot take off: stripped, the text is not there', async () => {
    await kit.put('a.txt', 'alpha\nbeta\n');
    const result = await readAndEdit('a.txt', { old_string: '1: alpha\n2: gamma', new_string: 'x' });
    expect(result.text).toBe(
      'old_string was not found in `a.txt` (even with its line numbers (`1: `) taken off). The closest lines are 1–2:\n1: alpha\n2: beta\nRead the file again with read_file and copy the text exactly, including whitespace and indentation (without the "N: " prefixes).',
    );
    expect(await kit.text('a.txt')).toBe('alpha\nbeta\n');
  });

  it('says so when nothing resembles old_string', async () => {
    await kit.put('a.txt', 'alpha\nbeta\n');
    const result = await readAndEdit('a.txt', { old_string: 'zzzz qqqq', new_string: 'x' });
    expect(result.text).toBe(
      'old_string was not found in `a.txt`, and no lines there resemble it. Read the file again with read_file and copy the text exactly, including whitespace and indentation.',
    );
  });

  it('refuses binary and non-UTF-8 files and leaves them alone', async () => {
    const binary = Buffer.from([0x61, 0x00, 0x62, 0x0a]);
    const latin1 = Buffer.from('caf\xe9 au lait\n', 'latin1');
    await kit.put('data.bin', binary);
    await kit.put('latin.txt', latin1);
    // read_file refuses these, so record reads directly: the edit must refuse on its own.
    // (Paths and stats as the workspace sees them: a remote one's are in its box.)
    const binaryFile = await kit.workspace.resolveFile('data.bin');
    const latinFile = await kit.workspace.resolveFile('latin.txt');
    recordRead(kit.session, binaryFile.absolute, binaryFile.stats, true);
    recordRead(kit.session, latinFile.absolute, latinFile.stats, true);
    const first = await kit.run('edit_file', { path: 'data.bin', old_string: 'a', new_string: 'c' });
    expect(first.text).toBe('`data.bin` is not UTF-8 text (binary data), so edit_file cannot change it without damaging it. Leave it as it is or ask the user.');
    const second = await kit.run('edit_file', { path: 'latin.txt', old_string: 'au', new_string: 'with' });
    expect(second.text).toBe(
      '`latin.txt` is not UTF-8 text (it holds bytes that are not valid UTF-8: another encoding such as Latin-1, or binary data), so edit_file cannot change it without damaging it. Leave it as it is or ask the user.',
    );
    expect(await kit.bytes('data.bin')).toEqual(binary);
    expect(await kit.bytes('latin.txt')).toEqual(latin1);
  });

  it('needs a read of the file in this session, and a read of any part is enough', async () => {
    await kit.put('a.txt', 'one\ntwo\nthree\n');
    const unread = await kit.run('edit_file', { path: 'a.txt', old_string: 'two', new_string: '2' });
    expect(unread.text).toBe(
      'You have not read `a.txt` in this session, so edit_file will not change it. Read it with read_file first (the part you want to change is enough), then call edit_file again.',
    );
    // Another session's read does not count.
    await kit.read('a.txt', {}, createSession());
    expect((await kit.run('edit_file', { path: 'a.txt', old_string: 'two', new_string: '2' })).isError).toBe(true);
    await kit.read('a.txt', { start_line: 2, end_line: 2 });
    expect((await kit.run('edit_file', { path: 'a.txt', old_string: 'two', new_string: '2' })).isError).toBe(false);
    // Its own write counts as read: a second edit needs no new read.
    expect((await kit.run('edit_file', { path: 'a.txt', old_string: 'three', new_string: '3' })).isError).toBe(false);
    expect(await kit.text('a.txt')).toBe('one\n2\n3\n');
  });

  it('refuses a file that changed since it was read', async () => {
    const absolute = await kit.put('a.txt', 'one\ntwo\n');
    await kit.read('a.txt');
    await fs.writeFile(absolute, 'one\ntwo\nthree, added by someone else\n');
    const result = await kit.run('edit_file', { path: 'a.txt', old_string: 'two', new_string: '2' });
    expect(result.text).toBe(
      '`a.txt` changed since you last read it (a command, another tool or a person wrote to it), so edit_file did not touch it. Read it again with read_file and base your change on what it holds now.',
    );
    expect(await kit.text('a.txt')).toBe('one\ntwo\nthree, added by someone else\n');
  });

  it('lands 20 concurrent edits of one file', async () => {
    const lines = Array.from({ length: 20 }, (_, index) => `value_${index} = ${index}`);
    await kit.put('many.txt', `${lines.join('\n')}\n`);
    await kit.read('many.txt');
    const results = await Promise.all(
      lines.map((_, index) => kit.run('edit_file', { path: 'many.txt', old_string: `value_${index} = ${index}\n`, new_string: `value_${index} = done\n` })),
    );
    expect(results.filter((result) => result.isError)).toEqual([]);
    expect(await kit.text('many.txt')).toBe(`${lines.map((_, index) => `value_${index} = done`).join('\n')}\n`);
  });

  it('edits the target of a link inside the workspace and keeps the link', async () => {
    await kit.put('real.txt', 'hello\n');
    await fs.symlink('real.txt', path.join(kit.root, 'alias.txt'));
    await kit.read('alias.txt');
    const result = await kit.run('edit_file', { path: 'alias.txt', old_string: 'hello', new_string: 'bye' });
    expect(result.text).toBe('Edited `real.txt`: 1 replacement. The changed lines now read:\n1: bye');
    expect((await fs.lstat(path.join(kit.root, 'alias.txt'))).isSymbolicLink()).toBe(true);
    expect(await kit.text('real.txt')).toBe('bye\n');
  });

  it('refuses files in the private folder', async () => {
    const absolute = await kit.put('.toolbelt/output/shell.txt', 'log\n');
    await kit.read('.toolbelt/output/shell.txt');
    recordRead(kit.session, absolute, await fs.stat(absolute), true);
    const result = await kit.run('edit_file', { path: '.toolbelt/output/shell.txt', old_string: 'log', new_string: 'x' });
    expect(result.text).toBe(
      "`.toolbelt/output/shell.txt` is inside the workspace's private folder `.toolbelt/` (backups and saved output), which the file tools do not change. Keep notes with the scratch notes tools (note_write, log_append) instead, and use a path outside `.toolbelt/` for other files.",
    );
    expect(await kit.text('.toolbelt/output/shell.txt')).toBe('log\n');
  });

  it('refuses a path out of the workspace without touching the file there', async () => {
    await fs.writeFile(path.join(kit.outside, 'secret.txt'), 'secret\n');
    await fs.symlink(path.join(kit.outside, 'secret.txt'), path.join(kit.root, 'leak.txt'));
    const result = await kit.run('edit_file', { path: 'leak.txt', old_string: 'secret', new_string: 'x' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('leads outside the workspace through a symbolic link');
    expect(await fs.readFile(path.join(kit.outside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  it('shows a cut preview when many lines change, and counts the rest', async () => {
    await kit.put('big.txt', 'x\n'.repeat(100));
    const result = await readAndEdit('big.txt', { old_string: 'x', new_string: 'y', replace_all: true });
    expect(result.text.split('\n')).toHaveLength(1 + 60 + 1);
    expect(result.text.endsWith('60: y\n… and 40 more changed lines; read the file to see them.')).toBe(true);
  });

  it('refuses files over the edit limit without reading them', async () => {
    const absolute = path.join(kit.root, 'huge.log');
    await fs.writeFile(absolute, '');
    await fs.truncate(absolute, 11 * 1024 * 1024);
    const result = await kit.run('edit_file', { path: 'huge.log', old_string: 'a', new_string: 'b' });
    expect(result.text).toBe(
      '`huge.log` is 11.0 MB; edit_file changes files of up to 10.0 MB, so it was left as it is. Ask the user to change it, or use a shell command if you have one.',
    );
  });

  it('writes nothing when only the line endings of old_string and new_string differ', async () => {
    const absolute = await kit.put('win.txt', 'a\r\nb\r\n');
    const before = await fs.stat(absolute);
    const result = await readAndEdit('win.txt', { old_string: 'a\r\nb', new_string: 'a\nb' });
    expect(result.text).toBe('`win.txt` already reads that way (old_string and new_string differ only in line endings); nothing was written.');
    expect((await fs.stat(absolute)).ino).toBe(before.ino);
  });

  it('offers a diff of old_string and new_string for approval prompts', () => {
    const describe = kit.tools.edit_file.describeCall!;
    expect(describe({ path: 'a.ts', old_string: 'a\nb', new_string: 'a\nc' })).toBe('Edit a.ts:\n a\n-b\n+c');
  });

  it('keeps the approval prompt of a large edit short and quick: each side\'s first lines instead of a diff, long lines cut', () => {
    const describe = kit.tools.edit_file.describeCall!;
    const side = (word: string) => Array.from({ length: 5_000 }, (_, index) => `${word} line ${index}`).join('\n');
    const started = performance.now();
    const text = describe({ path: 'a.ts', old_string: side('old'), new_string: side('new') });
    // The diff package took 12 s on these two sides; the bound only catches a diff run on them.
    expect(performance.now() - started).toBeLessThan(1_000);
    const lines = text.split('\n');
    expect(lines[0]).toBe('Edit a.ts:');
    expect(lines.slice(1, 3)).toEqual(['-old line 0', '-old line 1']);
    expect(lines).toContain(`-… and ${(side('old').length - (side('old').split('\n').slice(0, 40).join('\n').length + 1)).toLocaleString('en-US')} more characters`);
    expect(lines.filter((line) => line.startsWith('+new line'))).toHaveLength(40);
    expect(lines.at(-1)).toMatch(/^\+… and [\d,]+ more characters$/);
    const long = describe({ path: 'a.ts', old_string: 'x'.repeat(5_000), new_string: 'y' });
    expect(long.split('\n')[1]!.length).toBeLessThan(450);
    expect(long).toContain('+y');
  });
});
