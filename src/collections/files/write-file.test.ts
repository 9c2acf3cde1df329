import * as fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noApproverText } from '../../approval.js';
import { runTool } from '../../run-tool.js';
import { makeWriteKit, type WriteKit } from './test-support/write-kit.js';

let kit: WriteKit;
beforeEach(async () => {
  kit = await makeWriteKit();
});
afterEach(async () => {
  await kit.cleanup();
});

describe('write_file', () => {
  it('replaces a file that was read in full', async () => {
    await kit.put('a.txt', 'old\n');
    await kit.read('a.txt');
    const result = await kit.run('write_file', { path: 'a.txt', content: 'new\ncontent\n' });
    expect(result).toMatchObject({ isError: false, text: 'Wrote `a.txt` (2 lines).' });
    expect(await kit.text('a.txt')).toBe('new\ncontent\n');
  });

  it('only replaces existing files', async () => {
    const result = await kit.run('write_file', { path: 'missing.txt', content: 'x' });
    expect(result.text).toBe('`missing.txt` does not exist; write_file only replaces existing files. Use create_file to make a new one.');
  });

  it('needs a read of the whole file, not one page of it', async () => {
    await kit.put('a.txt', 'one\ntwo\nthree\n');
    const unread = await kit.run('write_file', { path: 'a.txt', content: 'x' });
    expect(unread.text).toBe(
      'You have not read `a.txt` in this session, so write_file will not overwrite it. Read it with read_file first, without start_line and end_line so the whole file is read, then call write_file again; to change only part of it, use edit_file.',
    );
    await kit.read('a.txt', { start_line: 1, end_line: 2 });
    const partial = await kit.run('write_file', { path: 'a.txt', content: 'x' });
    expect(partial.text).toBe(
      'You have read only part of `a.txt`, so write_file will not overwrite it. Read the rest first (continue with read_file start_line=3; pages of an unchanged file add up to a whole read), or change the part you read with edit_file.',
    );
    expect(await kit.text('a.txt')).toBe('one\ntwo\nthree\n');
    await kit.read('a.txt');
    expect((await kit.run('write_file', { path: 'a.txt', content: 'x\n' })).isError).toBe(false);
  });

  it('counts pages of an unchanged file read one after another as a whole read', async () => {
    await kit.put('a.txt', 'one\ntwo\nthree\nfour\n');
    await kit.read('a.txt', { start_line: 3 });
    await kit.read('a.txt', { start_line: 1, end_line: 1 });
    const gap = await kit.run('write_file', { path: 'a.txt', content: 'x\n' });
    expect(gap.text).toContain('continue with read_file start_line=2;');
    await kit.read('a.txt', { start_line: 2, end_line: 2 });
    expect((await kit.run('write_file', { path: 'a.txt', content: 'x\n' })).isError).toBe(false);
    expect(await kit.text('a.txt')).toBe('x\n');
  });

  it('forgets the pages read before the file changed', async () => {
    await kit.put('a.txt', 'one\ntwo\n');
    await kit.read('a.txt', { start_line: 1, end_line: 1 });
    await kit.put('a.txt', 'uno\ndos\ntres\n');
    await kit.read('a.txt', { start_line: 2 });
    const result = await kit.run('write_file', { path: 'a.txt', content: 'x\n' });
    expect(result.text).toContain('You have read only part of `a.txt`');
    expect(await kit.text('a.txt')).toBe('uno\ndos\ntres\n');
  });

  it('refuses a file that changed since it was read', async () => {
    const absolute = await kit.put('a.txt', 'one\n');
    await kit.read('a.txt');
    await fs.writeFile(absolute, 'one\ntwo by someone else\n');
    const result = await kit.run('write_file', { path: 'a.txt', content: 'mine\n' });
    expect(result.text).toBe(
      '`a.txt` changed since you last read it (a command, another tool or a person wrote to it), so write_file did not touch it. Read it again with read_file and base your change on what it holds now.',
    );
    expect(await kit.text('a.txt')).toBe('one\ntwo by someone else\n');
  });

  it('keeps permissions, the byte order mark and CRLF line endings when content has plain LF', async () => {
    const absolute = await kit.put('run.cmd', Buffer.from('\uFEFF@echo off\r\necho hi\r\n', 'utf8'));
    await fs.chmod(absolute, 0o700);
    await kit.read('run.cmd');
    const result = await kit.run('write_file', { path: 'run.cmd', content: '@echo off\necho bye\n' });
    expect(result.text).toBe('Wrote `run.cmd` (2 lines), keeping its byte order mark and CRLF line endings.');
    expect(await kit.bytes('run.cmd')).toEqual(Buffer.from('\uFEFF@echo off\r\necho bye\r\n', 'utf8'));
    expect((await fs.stat(absolute)).mode & 0o777).toBe(0o700);
  });

  it('writes content that has CRLF as given, and an LF file stays LF', async () => {
    await kit.put('a.txt', 'a\r\nb\r\n');
    await kit.read('a.txt');
    await kit.run('write_file', { path: 'a.txt', content: 'x\r\ny\n' });
    expect((await kit.bytes('a.txt')).toString('latin1')).toBe('x\r\ny\n');
    await kit.put('b.txt', 'a\nb\n');
    await kit.read('b.txt');
    await kit.run('write_file', { path: 'b.txt', content: 'c\nd\n' });
    expect(await kit.text('b.txt')).toBe('c\nd\n');
  });

  it('writes nothing when the content is already there', async () => {
    const absolute = await kit.put('a.txt', 'same\n');
    const before = await fs.stat(absolute);
    await kit.read('a.txt');
    const result = await kit.run('write_file', { path: 'a.txt', content: 'same\n' });
    expect(result.text).toBe('`a.txt` already has exactly this content; nothing was written.');
    expect((await fs.stat(absolute)).ino).toBe(before.ino);
  });

  it('asks for approval by default: refused without an approver, run in auto mode or when approved', async () => {
    await kit.put('a.txt', 'old\n');
    await kit.read('a.txt');
    const refused = await runTool(kit.tools.write_file, { path: 'a.txt', content: 'new\n' }, { session: kit.session });
    expect(refused).toMatchObject({ isError: true, text: noApproverText('write_file') });
    expect(await kit.text('a.txt')).toBe('old\n');
    const requests: string[] = [];
    const approved = await runTool(kit.tools.write_file, { path: 'a.txt', content: 'new\n' }, {
      session: kit.session,
      approve: (request) => {
        requests.push(request.description);
        return 'approve';
      },
    });
    expect(approved.isError).toBe(false);
    expect(requests).toEqual(['Overwrite a.txt with 1 line (4 characters)']);
    const auto = await runTool(kit.tools.write_file, { path: 'a.txt', content: 'auto\n' }, { session: kit.session, mode: 'auto' });
    expect(auto.isError).toBe(false);
    expect(await kit.text('a.txt')).toBe('auto\n');
  });

  it('counts the lines of a large write for its approval prompt only up to 100,000', () => {
    const describe = kit.tools.write_file.describeCall!;
    expect(describe({ path: 'a.txt', content: 'x\n'.repeat(100_000) })).toBe('Overwrite a.txt with 100,000 lines (200,000 characters)');
    expect(describe({ path: 'a.txt', content: 'x\n'.repeat(5_000_000) })).toBe('Overwrite a.txt with more than 100,000 lines (10,000,000 characters)');
  });
});
