import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readSnapshot } from './guard/read-state.js';
import { makeReadKit, type ReadKit } from './test-support/read-kit.js';

let kit: ReadKit;
beforeEach(async () => {
  kit = await makeReadKit();
});
afterEach(async () => {
  await kit.cleanup();
});

const numbered = (count: number, text = (n: number) => `line ${n}`): string =>
  Array.from({ length: count }, (_, index) => text(index + 1)).join('\n') + '\n';

/** Counts the bytes read through files the workspace opens from now on; returns the running total. */
function countBytesRead(): () => number {
  let total = 0;
  const open = kit.workspace.open.bind(kit.workspace);
  vi.spyOn(kit.workspace, 'open').mockImplementation(async (absolute) => {
    const handle = await open(absolute);
    const read = handle.read.bind(handle) as (...args: unknown[]) => Promise<{ bytesRead: number }>;
    handle.read = (async (...args: unknown[]) => {
      const result = await read(...args);
      total += result.bytesRead;
      return result;
    }) as typeof handle.read;
    return handle;
  });
  return () => total;
}

describe('read_file', () => {
  it('shows a whole small file as numbered lines with a header', async () => {
    await kit.put('a.txt', 'alpha\nbeta\ngamma\n');
    const result = await kit.run('read_file', { path: 'a.txt' });
    expect(result.isError).toBe(false);
    expect(result.text).toBe('a.txt: lines 1-3 of 3 (end of file).\n1: alpha\n2: beta\n3: gamma');
    expect(result.data).toEqual({ path: 'a.txt', startLine: 1, endLine: 3, totalLines: 3 });
  });

  it('counts a last line without a trailing newline', async () => {
    await kit.put('a.txt', 'one\ntwo');
    const result = await kit.run('read_file', { path: 'a.txt' });
    expect(result.text).toBe('a.txt: lines 1-2 of 2 (end of file).\n1: one\n2: two');
  });

  it('shows a range and says exactly where to continue', async () => {
    await kit.put('src/a.ts', numbered(50));
    const result = await kit.run('read_file', { path: 'src/a.ts', start_line: 10, end_line: 12 });
    expect(result.text).toBe('src/a.ts: lines 10-12 of 50. More follows: continue with start_line=13.\n10: line 10\n11: line 11\n12: line 12');
    expect(result.data).toMatchObject({ startLine: 10, endLine: 12, totalLines: 50, nextStartLine: 13 });
  });

  it('clamps end_line past the end and says it reached the end', async () => {
    await kit.put('a.txt', numbered(5));
    const result = await kit.run('read_file', { path: 'a.txt', start_line: 4, end_line: 99 });
    expect(result.text).toBe('a.txt: lines 4-5 of 5 (end of file).\n4: line 4\n5: line 5');
  });

  it('pages a file over the reply limit, and the continue hint leads to the next page with no line lost', async () => {
    await kit.put('big.txt', numbered(20_000, (n) => `line ${n} ${'x'.repeat(40)}`));
    const first = await kit.run('read_file', { path: 'big.txt' });
    expect(first.isError).toBe(false);
    expect(first.text.length).toBeLessThanOrEqual(51_200);
    const header = first.text.split('\n', 1)[0]!;
    const match = /^big\.txt: lines 1-(\d+) of 20000\. The reply limit of 51,200 characters was reached; more follows: continue with start_line=(\d+)\.$/.exec(header);
    expect(match).not.toBeNull();
    const last = Number(match![1]);
    expect(Number(match![2])).toBe(last + 1);
    const lines = first.text.split('\n').slice(1);
    expect(lines).toHaveLength(last);
    expect(lines.at(-1)).toBe(`${last}: line ${last} ${'x'.repeat(40)}`);

    const second = await kit.run('read_file', { path: 'big.txt', start_line: last + 1 });
    expect(second.text.split('\n')[1]).toBe(`${last + 1}: line ${last + 1} ${'x'.repeat(40)}`);
  });

  it('does not scan past the first page of a file too large to count to its end', async () => {
    // 12 MB: more than the line count's 8 MB budget is left after the first page.
    await kit.put('large.txt', numbered(300_000, (n) => `line ${n} ${'x'.repeat(30)}`));
    const bytesRead = countBytesRead();
    const result = await kit.run('read_file', { path: 'large.txt' });
    expect(result.text.split('\n', 1)[0]).toMatch(/^large\.txt: lines 1-\d+ \(the file is 12\.\d MB\)\. The reply limit/);
    // A remote box reads the file itself, out of this spy's sight.
    if (!kit.workspace.capabilities.runsFileToolsInPlace) expect(bytesRead()).toBeLessThan(256 * 1024);
  });

  it('still counts the lines of a file whose end is within the count budget', async () => {
    // 6 MB: the count after the first page reaches the end.
    await kit.put('medium.txt', numbered(150_000, (n) => `line ${n} ${'x'.repeat(30)}`));
    const bytesRead = countBytesRead();
    const result = await kit.run('read_file', { path: 'medium.txt' });
    expect(result.text.split('\n', 1)[0]).toMatch(/^medium\.txt: lines 1-\d+ of 150000\. The reply limit/);
    if (!kit.workspace.capabilities.runsFileToolsInPlace) expect(bytesRead()).toBeGreaterThan(6 * 1024 * 1024);
  });

  it('starts a page far into a file at the right line, whatever read the lines before it end in', async () => {
    // About 3.4 MB: the lines before a late page span several 1 MB reads; CRLF and multi-byte characters on the way.
    const lines = Array.from({ length: 40_000 }, (_, index) => `${index + 1} ${index % 3 === 0 ? 'naïve café' : 'plain'} ${'x'.repeat(index % 97)}`);
    await kit.put('long.log', lines.map((line, index) => (index % 5 === 0 ? `${line}\r\n` : `${line}\n`)).join(''));
    for (const startLine of [2, 12_345, 13_107, 13_108, 26_215, 39_999, 40_000]) {
      const result = await kit.run('read_file', { path: 'long.log', start_line: startLine, end_line: startLine + 1 });
      const shown = result.text.split('\n').slice(1);
      expect([startLine, shown]).toEqual([startLine, lines.slice(startLine - 1, startLine + 1).map((line, offset) => `${startLine + offset}: ${line}`)]);
    }
    expect((await kit.run('read_file', { path: 'long.log', start_line: 40_001 })).text).toBe(
      '`long.log` has 40,000 lines, so start_line=40001 is past the end. Use a start_line from 1 to 40000.',
    );
  });

  it('cuts lines over 2,000 characters with a marker that says how much was cut', async () => {
    await kit.put('long.txt', `short\n${'a'.repeat(2_000)}${'b'.repeat(3_000)}\nend\n`);
    const result = await kit.run('read_file', { path: 'long.txt' });
    const lines = result.text.split('\n');
    expect(lines[0]).toBe('long.txt: lines 1-3 of 3 (end of file). 1 line was longer than 2,000 characters and cut (marked "line cut").');
    expect(lines[2]).toBe(`2: ${'a'.repeat(2_000)} … [line cut: 3,000 more characters]`);
    expect(lines[3]).toBe('3: end');
  });

  it('cuts a very long line (many chunks) and counts every character left out', async () => {
    await kit.put('huge-line.txt', `${'é'.repeat(300_000)}\r\nnext\r\n`);
    const result = await kit.run('read_file', { path: 'huge-line.txt' });
    const lines = result.text.split('\n');
    expect(lines[1]).toBe(`1: ${'é'.repeat(2_000)} … [line cut: 298,000 more characters]`);
    expect(lines[2]).toBe('2: next');
  });

  it('answers an empty file clearly and records it as read whole', async () => {
    await kit.put('empty.txt', '');
    const result = await kit.run('read_file', { path: 'empty.txt' });
    expect(result).toMatchObject({ isError: false, text: '`empty.txt` is empty (0 bytes).' });
    // Snapshots are keyed by the path as the workspace sees it (a remote one's is in its box).
    const { absolute } = await kit.workspace.resolve('empty.txt');
    expect(readSnapshot(kit.session, absolute)).toMatchObject({ size: 0, whole: true });
  });

  it('refuses a start_line past the end, saying how many lines there are', async () => {
    await kit.put('a.txt', numbered(3));
    const result = await kit.run('read_file', { path: 'a.txt', start_line: 10 });
    expect(result).toMatchObject({ isError: true, text: '`a.txt` has 3 lines, so start_line=10 is past the end. Use a start_line from 1 to 3.' });
  });

  it('refuses start_line after end_line', async () => {
    await kit.put('a.txt', numbered(3));
    const result = await kit.run('read_file', { path: 'a.txt', start_line: 3, end_line: 2 });
    expect(result).toMatchObject({
      isError: true,
      text: 'start_line (3) is after end_line (2). Give a start_line that is at most end_line, e.g. start_line=2 end_line=3.',
    });
  });

  it('refuses line numbers below 1 with an error naming the field', async () => {
    await kit.put('a.txt', 'x\n');
    const result = await kit.run('read_file', { path: 'a.txt', start_line: 0 });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Invalid arguments for read_file: `start_line`: /);
  });

  it('shows CRLF files without carriage returns and hides a byte order mark', async () => {
    await kit.put('win.txt', '\uFEFFfirst\r\nsecond\r\n');
    const result = await kit.run('read_file', { path: 'win.txt' });
    expect(result.text).toBe('win.txt: lines 1-2 of 2 (end of file).\n1: first\n2: second');
  });

  it('refuses a file that is not UTF-8, saying what to do', async () => {
    await kit.put('latin1.txt', Buffer.from('caf\xe9 au lait\n', 'latin1'));
    const result = await kit.run('read_file', { path: 'latin1.txt' });
    expect(result).toMatchObject({
      isError: true,
      text: 'Line 1 of `latin1.txt` is not valid UTF-8 (the file may use another encoding, such as Latin-1 or Windows-1252), so reading stopped there. Convert the file to UTF-8 (e.g. `iconv -f latin1 -t utf-8` in a shell) or ask the user.',
    });
  });

  it('shows the UTF-8 lines before a line that is not, and says where it stopped', async () => {
    await kit.put('mixed.txt', Buffer.concat([Buffer.from('good\nfine\n'), Buffer.from('bad \xff\n', 'latin1')]));
    const result = await kit.run('read_file', { path: 'mixed.txt' });
    expect(result.isError).toBe(false);
    expect(result.text.split('\n')).toEqual([
      'mixed.txt: lines 1-2. The file is not text from line 3 on (see the note at the end).',
      '1: good',
      '2: fine',
      'Line 3 of `mixed.txt` is not valid UTF-8 (the file may use another encoding, such as Latin-1 or Windows-1252), so reading stopped there. Convert the file to UTF-8 (e.g. `iconv -f latin1 -t utf-8` in a shell) or ask the user.',
    ]);
  });

  it('names a binary file and does not show it', async () => {
    await kit.put('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    const result = await kit.run('read_file', { path: 'logo.png' });
    expect(result).toMatchObject({
      isError: true,
      text: '`logo.png` is a PNG image (12 bytes), not UTF-8 text, so read_file cannot show it as lines. To learn what it shows, use an image tool such as query_image if you have one.',
    });
    await kit.put('data.bin', Buffer.from([1, 2, 0, 3]));
    expect((await kit.run('read_file', { path: 'data.bin' })).text).toBe(
      '`data.bin` holds binary data (NUL bytes; 4 bytes), not UTF-8 text, so read_file cannot show it as lines. Tell the user if you need its content, or look at it with another tool.',
    );
  });

  it('names UTF-16 text by its byte order mark', async () => {
    await kit.put('utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi\n', 'utf16le')]));
    const result = await kit.run('read_file', { path: 'utf16.txt' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('`utf16.txt` is UTF-16 text (8 bytes), not UTF-8 text');
    expect(result.text).toContain('Convert it to UTF-8 first');
  });

  it('refuses a folder with a clear error', async () => {
    await fs.mkdir(path.join(kit.root, 'src'));
    const result = await kit.run('read_file', { path: 'src' });
    expect(result).toMatchObject({ isError: true, text: '`src` is a folder, not a file. Use list_directory to see what it holds.' });
  });

  it('refuses a missing file and a path outside the workspace', async () => {
    expect((await kit.run('read_file', { path: 'nope.txt' })).text).toBe('`nope.txt` does not exist. Check the path with list_directory or find_files.');
    await fs.writeFile(path.join(kit.outside, 'secret.txt'), 'secret\n');
    const outside = await kit.run('read_file', { path: '../outside/secret.txt' });
    expect(outside.isError).toBe(true);
    expect(outside.text).not.toContain('secret\n');
    await fs.symlink(path.join(kit.outside, 'secret.txt'), path.join(kit.root, 'link.txt'));
    const throughLink = await kit.run('read_file', { path: 'link.txt' });
    expect(throughLink).toMatchObject({ isError: true });
    expect(throughLink.text).toContain('leads outside the workspace through a symbolic link');
  });

  it('reads files in the private .toolbelt folder (spilled shell output)', async () => {
    await kit.put('.toolbelt/output/shell-1.txt', 'saved output\n');
    const result = await kit.run('read_file', { path: '.toolbelt/output/shell-1.txt' });
    expect(result.text).toBe('.toolbelt/output/shell-1.txt: line 1 of 1 (end of file).\n1: saved output');
  });

  it('records a whole read and a partial read in the session', async () => {
    const wholeOnDisk = await kit.put('whole.txt', numbered(10));
    await kit.put('part.txt', numbered(10));
    await kit.run('read_file', { path: 'whole.txt' });
    await kit.run('read_file', { path: 'part.txt', start_line: 2, end_line: 4 });
    // Snapshots are keyed by the path as the workspace sees it (a remote one's is in its box).
    const whole = (await kit.workspace.resolve('whole.txt')).absolute;
    const part = (await kit.workspace.resolve('part.txt')).absolute;
    const stats = await fs.stat(wholeOnDisk);
    expect(readSnapshot(kit.session, whole)).toEqual({ mtimeMs: stats.mtimeMs, size: stats.size, whole: true });
    expect(readSnapshot(kit.session, part)).toMatchObject({ whole: false });

    // A range that happens to cover every line is a whole read too.
    await kit.run('read_file', { path: 'part.txt', start_line: 1, end_line: 10 });
    expect(readSnapshot(kit.session, part)).toMatchObject({ whole: true });
    // And it survives the session's JSON.
    expect(JSON.parse(JSON.stringify(kit.session.toJSON())).state['files.reads'][part].whole).toBe(true);
  });

  it('records nothing for a file it could not show', async () => {
    const absolute = await kit.put('data.bin', Buffer.from([0, 1, 2]));
    await kit.run('read_file', { path: 'data.bin' });
    expect(readSnapshot(kit.session, absolute)).toBeUndefined();
  });
});
