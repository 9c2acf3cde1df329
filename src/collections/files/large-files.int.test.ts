import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSnapshot } from './guard/read-state.js';
import { makeReadKit, type ReadKit } from './test-support/read-kit.js';

const TWO_GB = 2 * 1024 ** 3;

let kit: ReadKit;
afterEach(async () => {
  await kit.cleanup();
});

/** A 2 GB sparse file: `lines` lines of text, then zeros to 2 GB (no disk used for them). */
async function sparseFile(name: string, lines: number): Promise<string> {
  const text = Array.from({ length: lines }, (_, index) => `line ${index + 1} of the log`).join('\n') + '\n';
  const absolute = await kit.put(name, text);
  const handle = await fs.open(absolute, 'r+');
  await handle.truncate(TWO_GB);
  await handle.close();
  return absolute;
}

const megabytes = (bytes: number): number => bytes / 1024 / 1024;

describe('large files', () => {
  it('reads the first page of a 2 GB file fast, with flat memory and an exact continue hint', async () => {
    kit = await makeReadKit();
    const absolute = await sparseFile('big.log', 200_000);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const result = await kit.run('read_file', { path: 'big.log' });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(1_000);
    expect(megabytes(process.memoryUsage().rss - rssBefore)).toBeLessThan(100);
    const lines = result.text.split('\n');
    const last = lines.length - 1;
    expect(lines[0]).toBe(
      `big.log: lines 1-${last} (the file is 2.0 GB). The reply limit of 51,200 characters was reached; more follows: continue with start_line=${last + 1}.`,
    );
    expect(lines[1]).toBe('1: line 1 of the log');
    expect(lines[last]).toBe(`${last}: line ${last} of the log`);
    expect(readSnapshot(kit.session, absolute)).toMatchObject({ size: TWO_GB, whole: false });

    // A page far into the file is found by counting lines without decoding them.
    const deep = await kit.run('read_file', { path: 'big.log', start_line: 150_000, end_line: 150_001 });
    expect(deep.text).toBe('big.log: lines 150000-150001. More follows: continue with start_line=150002.\n150000: line 150000 of the log\n150001: line 150001 of the log');
  });

  it('stops a page where the text ends and the zeros begin, saying so', async () => {
    kit = await makeReadKit();
    await sparseFile('short.log', 1_000); // about 21 KB of text: past the 8 KB binary check
    const started = performance.now();
    const result = await kit.run('read_file', { path: 'short.log' });
    expect(performance.now() - started).toBeLessThan(1_000);
    const lines = result.text.split('\n');
    expect(lines).toHaveLength(1_002);
    expect(lines[0]).toBe('short.log: lines 1-1000. The file is not text from line 1001 on (see the note at the end).');
    expect(lines[1_000]).toBe('1000: line 1000 of the log');
    expect(lines[1_001]).toBe('Line 1001 of `short.log` holds binary data (NUL bytes), so reading stopped there. Use search_files to look for text further on.');
  });

  it('calls a file binary when its first 8 KB hold a NUL byte, even if text comes first', async () => {
    kit = await makeReadKit();
    await sparseFile('tiny.log', 3);
    const result = await kit.run('read_file', { path: 'tiny.log' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^`tiny\.log` holds binary data \(NUL bytes; 2\.0 GB\), not UTF-8 text/);
  });

  it('answers a 2 GB file of zeros at once as binary', async () => {
    kit = await makeReadKit();
    const absolute = path.join(kit.root, 'zeros.img');
    const handle = await fs.open(absolute, 'w');
    await handle.truncate(TWO_GB);
    await handle.close();
    const started = performance.now();
    const result = await kit.run('read_file', { path: 'zeros.img' });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result).toMatchObject({ isError: true });
    expect(result.text).toMatch(/^`zeros\.img` holds binary data \(NUL bytes; 2\.0 GB\), not UTF-8 text/);
  });

  it('searches a tree holding a 2 GB file quickly: counted, not searched', async () => {
    kit = await makeReadKit();
    await sparseFile('big.log', 1_000);
    await kit.put('small.log', 'line 7 of the log\n');
    const started = performance.now();
    const result = await kit.run('search_files', { pattern: 'line 7 of' });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.text).toBe('1 file match `line 7 of` (1 file searched in the workspace):\nsmall.log\nNot searched: 1 file over 10.0 MB: `big.log`.');
  });

  it('with the size cap raised, stops reading a sparse file at its first zeros and counts it as binary', async () => {
    kit = await makeReadKit({ maxSearchFileBytes: 4 * 1024 ** 3 });
    await sparseFile('big.log', 1_000);
    const started = performance.now();
    const result = await kit.run('search_files', { pattern: 'line 7 of' });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.text).toBe(
      'No matches for `line 7 of` (0 files searched in the workspace). To widen the search: set ignore_case, try a shorter or simpler pattern.\nNot searched: 1 binary file.',
    );
  });

  it('searches a 40 MB text file line by line with the right line numbers', async () => {
    kit = await makeReadKit({ maxSearchFileBytes: 64 * 1024 * 1024 });
    const line = 'x'.repeat(39);
    const count = 1_000_000;
    const absolute = path.join(kit.root, 'huge.txt');
    const handle = await fs.open(absolute, 'w');
    const block = `${line}\n`.repeat(10_000);
    for (let index = 0; index < count / 10_000; index += 1) await handle.write(block);
    await handle.write('the needle\n');
    await handle.close();
    const result = await kit.run('search_files', { pattern: 'needle', mode: 'lines' });
    expect(result.text).toBe(`1 matching line in 1 file for \`needle\` (1 file searched in the workspace):\nhuge.txt\n${count + 1}: the needle`);
  });
});
