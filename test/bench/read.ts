/**
 * read_file on a 1 GB text file against a raw `fs` read, side by side in one run.
 *
 * The file (lines of 80 bytes) is written in 4 MB blocks to a temp folder, so the page
 * cache is warm, and deleted at the end.
 * - First page: `read_file` with only `path`, against `fs.open` + one read of the bytes the
 *   page showed + `close`. Time is the median of alternating runs in this process; peak
 *   resident memory growth is measured per side in a fresh process
 *   (test/bench/read-page-child.ts), which also reports that one call's time.
 * - Last page, without a target: `start_line` 100 lines before the end, against a raw read
 *   that counts newlines in 1 MB reads to find the line. No index exists, so both sides read
 *   the whole file.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ReadFileData } from '../../src/collections/files/output-schemas.js';
import { compare, megabytes, ms, printTable, ratio, record, runInFreshProcess, verdict, type FreshProcessResult } from './harness.js';
import { readRaw, toolReader, WARM_UP_FILE } from './read-page-child.js';

/** Bytes per line, the newline included. */
const LINE_BYTES = 80;
const LINES_PER_BLOCK = 52_428;
const BLOCKS = 256;
const TOTAL_LINES = LINES_PER_BLOCK * BLOCKS;
const FILE_NAME = 'large.txt';
const LAST_PAGE_LINES = 100;
const TIME_TARGET_MS = 50;
const MEMORY_TARGET_BYTES = 50 * 1024 ** 2;
const SUITE = 'read';

/** Runs the cases, prints a table and records the summary rows. */
export async function run(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-bench-read-'));
  try {
    const written = performance.now();
    const fileBytes = await writeLargeFile(path.join(root, FILE_NAME));
    await fs.writeFile(path.join(root, WARM_UP_FILE), 'one line\n');
    console.log(`File: ${megabytes(fileBytes)}, ${TOTAL_LINES.toLocaleString('en-US')} lines of ${LINE_BYTES} bytes, written in ${ms(performance.now() - written)}`);

    const viaTool = toolReader(root);
    const file = path.join(root, FILE_NAME);
    const firstPageLines = ((await viaTool(FILE_NAME, 1)).data as ReadFileData).endLine;
    const firstPageBytes = firstPageLines * LINE_BYTES;
    const first = await compare<unknown>(() => viaTool(FILE_NAME, 1), () => readRaw(file, 1, firstPageBytes));
    const firstFresh = await freshPair(root, 1, firstPageBytes);

    const lastStart = TOTAL_LINES - LAST_PAGE_LINES + 1;
    const lastPageBytes = LAST_PAGE_LINES * LINE_BYTES;
    const last = await compare<unknown>(() => viaTool(FILE_NAME, lastStart), () => readRaw(file, lastStart, lastPageBytes), { warmup: 1, runs: 3 });
    const lastFresh = await freshPair(root, lastStart, lastPageBytes);

    const firstLabel = `first page (${firstPageLines.toLocaleString('en-US')} lines)`;
    const lastLabel = `last page (start_line ${lastStart.toLocaleString('en-US')})`;
    printTable([
      ['case', 'read_file', 'raw fs', 'ratio', 'notes'],
      [`${firstLabel}, time`, ms(first.ours), ms(first.reference), ratio(first.ratio), `median; one call in a fresh process: ${ms(firstFresh.tool.ms)} vs ${ms(firstFresh.raw.ms)}`],
      [`${firstLabel}, peak RSS growth`, megabytes(firstFresh.tool.peakGrowthBytes), megabytes(firstFresh.raw.peakGrowthBytes), '-', 'fresh process per side'],
      [`${lastLabel}, time`, ms(last.ours), ms(last.reference), ratio(last.ratio), 'median of 3; both read the whole file'],
      [`${lastLabel}, peak RSS growth`, megabytes(lastFresh.tool.peakGrowthBytes), megabytes(lastFresh.raw.peakGrowthBytes), '-', 'fresh process per side'],
    ]);

    record({
      suite: SUITE,
      case: 'first page of 1 GB, time',
      ours: ms(first.ours),
      reference: `${ms(first.reference)} (raw fs read)`,
      ratio: ratio(first.ratio),
      target: `≤ ${ms(TIME_TARGET_MS)}`,
      verdict: verdict(first.ours, TIME_TARGET_MS),
    });
    record({
      suite: SUITE,
      case: 'first page of 1 GB, peak RSS growth',
      ours: megabytes(firstFresh.tool.peakGrowthBytes),
      reference: `${megabytes(firstFresh.raw.peakGrowthBytes)} (raw fs read)`,
      ratio: '-',
      target: `≤ ${megabytes(MEMORY_TARGET_BYTES)}`,
      verdict: verdict(firstFresh.tool.peakGrowthBytes, MEMORY_TARGET_BYTES),
    });
    record({
      suite: SUITE,
      case: 'last page of 1 GB, time',
      ours: ms(last.ours),
      reference: `${ms(last.reference)} (raw newline count)`,
      ratio: ratio(last.ratio),
      target: '-',
      verdict: '-',
    });
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

/** Writes {@link TOTAL_LINES} numbered lines of {@link LINE_BYTES} bytes in 4 MB blocks; returns the size. */
async function writeLargeFile(file: string): Promise<number> {
  const lines: string[] = [];
  for (let line = 1; line <= LINES_PER_BLOCK; line += 1) {
    lines.push(`${String(line).padStart(6, '0')} the quick brown fox jumps over the lazy dog, then naps in the sun`.padEnd(LINE_BYTES - 1, '.'));
  }
  const block = Buffer.from(`${lines.join('\n')}\n`);
  const handle = await fs.open(file, 'w');
  try {
    for (let index = 0; index < BLOCKS; index += 1) await handle.write(block);
  } finally {
    await handle.close();
  }
  return block.length * BLOCKS;
}

/** The same page read by each side in a fresh process of its own. */
async function freshPair(root: string, startLine: number, pageBytes: number): Promise<{ tool: FreshProcessResult; raw: FreshProcessResult }> {
  const args = [root, FILE_NAME, String(startLine), String(pageBytes)];
  const tool = await runInFreshProcess('read-page-child.ts', ['tool', ...args]);
  const raw = await runInFreshProcess('read-page-child.ts', ['raw', ...args]);
  return { tool, raw };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
}
