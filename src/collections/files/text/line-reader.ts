import type { FileHandle } from 'node:fs/promises';
import { PageAssembler, type AssemblerOptions, type Page, type PageRequest } from './page-assembler.js';
import { describeNonText } from './text.js';

export { LINE_COUNT_BUDGET_BYTES, LONG_LINE_LIMIT_BYTES, type AssemblerOptions, type Page, type PageEnd, type PageRequest } from './page-assembler.js';

/** Bytes read from the file at a time: one read is enough for a typical first page. */
const CHUNK_BYTES = 64 * 1024;
/**
 * Bytes read at a time when the page starts further in: the lines before it are only
 * counted, and 1 MB reads cost a sixteenth of the round trips (the last page of a 1 GB file:
 * 2.8 s in 64 KB reads).
 */
const SKIPPING_CHUNK_BYTES = 1024 * 1024;

/**
 * Reads one page of numbered lines from an open file, as a stream: the file is read in
 * 64 KB chunks, lines before `startLine` are only counted (never decoded), an over-long line
 * keeps only its first bytes, and reading stops as soon as the page is full. So the first page
 * of a multi-gigabyte file is as fast as that of a small one, and memory stays flat. CRLF line
 * ends are shown without `\r`; a UTF-8 byte order mark is not shown.
 */
export async function readPage(handle: FileHandle, request: PageRequest): Promise<Page> {
  const { fileBytes } = request;
  // A file smaller than a chunk is read with one byte to spare, so the read that takes it
  // whole also shows, by coming back short, that nothing follows: no second read to learn it.
  const wanted = request.startLine > 1 ? SKIPPING_CHUNK_BYTES : CHUNK_BYTES;
  let chunkBytes = fileBytes !== undefined && fileBytes < wanted ? fileBytes + 1 : wanted;
  let buffer = Buffer.allocUnsafe(chunkBytes);
  const page = new PageAssembler(request);
  let position = 0;
  let endOfFile = false;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
    if (bytesRead === 0) {
      endOfFile = true;
      break;
    }
    const chunk = buffer.subarray(0, bytesRead);
    if (position === 0) {
      const kind = describeNonText(chunk);
      if (kind !== undefined) return { type: 'not-text', kind };
    }
    page.take(chunk, position);
    position += bytesRead;
    if (page.stopped) break;
    if (bytesRead < chunkBytes && fileBytes !== undefined && position >= fileBytes) {
      // A short read that reached the size the file had when opened is its end.
      endOfFile = true;
      break;
    }
    if (chunkBytes < wanted) {
      // The file changed size since it was opened: the rest is read in whole chunks.
      chunkBytes = wanted;
      buffer = Buffer.allocUnsafe(chunkBytes);
    }
  }
  return page.finish(endOfFile);
}

/**
 * The page that {@link readPage} makes of a file that holds `chunks` (read in that order), for
 * bytes already in memory. Tests compare its two ways of decoding lines (see
 * {@link AssemblerOptions}) on random files and chunk sizes.
 */
export function assemblePage(chunks: readonly Buffer[], request: PageRequest, options: AssemblerOptions = {}): Page {
  const page = new PageAssembler(request, options);
  let offset = 0;
  for (const chunk of chunks) {
    if (offset === 0) {
      const kind = describeNonText(chunk);
      if (kind !== undefined) return { type: 'not-text', kind };
    }
    if (chunk.length === 0) continue;
    page.take(chunk, offset);
    offset += chunk.length;
    if (page.stopped) break;
  }
  return page.finish(true);
}
