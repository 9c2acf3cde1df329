import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../shell/test-support/mixed-output.js';
import { assemblePage, readPage, type Page, type PageRequest } from './line-reader.js';

/**
 * How many reads a page costs: a file smaller than a chunk is read in one read, which also
 * finds its end; a file that grew or shrank after its size was taken is still read to its
 * real end, with the same page as a reader that knew nothing of the size.
 */
describe('readPage and the size the file had when opened', () => {
  let folder = '';

  beforeAll(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-line-reader-'));
  });

  afterAll(async () => {
    await fs.rm(folder, { recursive: true, force: true });
  });

  const request = (fileBytes: number | undefined): PageRequest => ({ startLine: 1, endLine: Number.POSITIVE_INFINITY, maxCharacters: 10_000_000, maxLineLength: 2_000, ...(fileBytes === undefined ? {} : { fileBytes }) });

  /** The page, and the reads it took, from a file holding `content` opened while it held `sizeAtOpen` bytes. */
  async function page(content: string, sizeAtOpen: number | undefined): Promise<{ page: Page; reads: number }> {
    const file = path.join(folder, `file-${Math.random().toString(36).slice(2)}.txt`);
    await fs.writeFile(file, content);
    const handle = await fs.open(file, 'r');
    let reads = 0;
    const counting = new Proxy(handle, {
      get(target, key) {
        if (key === 'read') {
          return (...args: Parameters<typeof handle.read>) => {
            reads += 1;
            return target.read(...args);
          };
        }
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    try {
      return { page: await readPage(counting, request(sizeAtOpen)), reads };
    } finally {
      await handle.close();
    }
  }

  const lines = (count: number, width = 30) => Array.from({ length: count }, (_, index) => `line ${index} `.padEnd(width, 'x') + '\n').join('');

  it('reads a file smaller than a chunk once', async () => {
    const content = lines(200);
    const { page: found, reads } = await page(content, Buffer.byteLength(content));
    expect(reads).toBe(1);
    expect(found).toEqual((await page(content, undefined)).page);
    expect(found).toMatchObject({ type: 'lines', totalLines: 200, end: { type: 'end-of-file' }, more: false });
  });

  it('reads on to the real end of a file that grew or shrank since its size was taken, with the page a size-blind read gives', async () => {
    for (const [content, sizeAtOpen] of [
      [lines(200), 100], // grew from 100 bytes
      [lines(5_000), 10], // grew past a chunk
      [lines(10), 5_000], // shrank
      [lines(3) + 'no newline at the end', 20],
    ] as const) {
      const known = await page(content, sizeAtOpen);
      const blind = await page(content, undefined);
      expect(known.page, `${content.length} bytes opened at ${sizeAtOpen}`).toEqual(blind.page);
    }
  });

  it('keeps a copy of a line that goes on past its chunk, as the next read reuses the buffer', async () => {
    // Lines of 30 bytes: each 64 KB chunk ends inside one, and the next read overwrites all of the buffer.
    const content = lines(6_000);
    const { page: read, reads } = await page(content, undefined);
    expect(reads).toBeGreaterThan(1);
    expect(read).toEqual(assemblePage([Buffer.from(content)], request(undefined)));
    expect(read).toMatchObject({ type: 'lines', totalLines: 6_000 });
  });

  it('reads a grown file in whole chunks once it is past the size it had', async () => {
    // 5,000 lines of 30 bytes: 150 KB, three 64 KB chunks after the first short read.
    const { reads } = await page(lines(5_000), 10);
    expect(reads).toBeLessThanOrEqual(5);
  });
});

/**
 * A chunk's whole lines are decoded at once; a line split between chunks, or one that holds
 * a NUL, bad UTF-8 or more characters than a shown line may, is decoded on its own. Both ways
 * must give the same page: checked on random files (multi-byte letters, a surrogate pair,
 * CRLF, a byte order mark, NUL, bytes that are not UTF-8, long and empty lines), random
 * requests and random chunk sizes, against the page made decoding every line on its own.
 */
describe('a page decoded a chunk at a time and a line at a time', () => {
  const pieces = ['a', 'word ', 'é', '€', '😀', '\r\n', '\n', '\n', '\t', 'x'.repeat(40)];

  function randomFile(random: () => number): Buffer {
    const parts: Buffer[] = [];
    if (random() < 0.1) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
    const count = Math.floor(random() * 120);
    for (let index = 0; index < count; index += 1) {
      const roll = random();
      if (roll < 0.01) parts.push(Buffer.from([0]));
      else if (roll < 0.02) parts.push(Buffer.from([0xff]));
      else if (roll < 0.03) parts.push(Buffer.from([0xf0, 0x9f])); // half a four-byte letter
      else parts.push(Buffer.from(pieces[Math.floor(random() * pieces.length)]!));
    }
    return Buffer.concat(parts);
  }

  function randomChunks(file: Buffer, random: () => number): Buffer[] {
    if (random() < 0.3) return [file];
    const chunks: Buffer[] = [];
    for (let at = 0; at < file.length; ) {
      const size = 1 + Math.floor(random() * 64);
      chunks.push(Buffer.from(file.subarray(at, at + size)));
      at += size;
    }
    return chunks;
  }

  it('is the same page for 5,000 random files, requests and chunk sizes', () => {
    let decodedTogether = 0;
    for (let seed = 1; seed <= 5_000; seed += 1) {
      const random = seededRandom(seed);
      const file = randomFile(random);
      const startLine = 1 + Math.floor(random() * 4);
      const request: PageRequest = {
        startLine,
        endLine: random() < 0.5 ? Number.POSITIVE_INFINITY : startLine + Math.floor(random() * 30),
        maxCharacters: random() < 0.5 ? 10_000_000 : 400 + Math.floor(random() * 600),
        maxLineLength: 1 + Math.floor(random() * 60),
      };
      const chunks = randomChunks(file, random);
      const together = assemblePage(chunks, request);
      const oneByOne = assemblePage(chunks, request, { wholeLines: false });
      expect(together, `seed ${seed}`).toEqual(oneByOne);
      if (together.type === 'lines' && together.lines.length > 1) decodedTogether += 1;
    }
    // The cases that take the shared decoding are most of them, not a rare few.
    expect(decodedTogether).toBeGreaterThan(2_000);
  });
});
