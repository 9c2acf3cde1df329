import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPage, type Page, type PageRequest } from './line-reader.js';

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

  it('reads a grown file in whole chunks once it is past the size it had', async () => {
    // 5,000 lines of 30 bytes: 150 KB, three 64 KB chunks after the first short read.
    const { reads } = await page(lines(5_000), 10);
    expect(reads).toBeLessThanOrEqual(5);
  });
});
