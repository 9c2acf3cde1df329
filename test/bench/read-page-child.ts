/**
 * One page of a large file read in a fresh process, for test/bench/read.ts: `node --import tsx
 * test/bench/read-page-child.ts <tool|raw> <root> <file> <start line> <page bytes>`. Prints one
 * JSON line with the time and the peak resident memory the read added. A fresh process keeps
 * earlier cases from blurring the memory reading.
 *
 * Both sides first read `warm-up.txt` in the same folder, so lazily loaded code is not
 * counted as the large file's.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { createReadOnlyFileTools } from '../../src/collections/files/read-tools.js';
import { runTool, type RunToolResult } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { measurePeak } from './harness.js';

/** A small file beside the large one, read first by both sides. */
export const WARM_UP_FILE = 'warm-up.txt';
/** What the raw reference reads at a time while it looks for a line. */
const SCAN_CHUNK_BYTES = 1024 * 1024;

/** Reads a page with `read_file` through `runTool`, failing loudly on an error reply. */
export function toolReader(root: string): (name: string, startLine: number) => Promise<RunToolResult> {
  const tool = createReadOnlyFileTools({ workspace: new Workspace(root) }).tools.find((candidate) => candidate.name === 'read_file')!;
  const session = createSession();
  return async (name, startLine) => {
    const input = startLine === 1 ? { path: name } : { path: name, start_line: startLine };
    const result = await runTool(tool, input, { session });
    if (result.isError) throw new Error(`read_file failed: ${result.text}`);
    return result;
  };
}

/**
 * The reference: open, read `pageBytes` where line `startLine` begins, close. For a line past
 * the first, the newlines before it are counted in 1 MB reads, the least a reader without an
 * index must do.
 */
export async function readRaw(file: string, startLine: number, pageBytes: number): Promise<number> {
  const handle = await fs.open(file, 'r');
  try {
    const offset = startLine === 1 ? 0 : await offsetOfLine(handle, startLine);
    const { bytesRead } = await handle.read(Buffer.allocUnsafe(pageBytes), 0, pageBytes, offset);
    return bytesRead;
  } finally {
    await handle.close();
  }
}

async function offsetOfLine(handle: fs.FileHandle, line: number): Promise<number> {
  const buffer = Buffer.allocUnsafe(SCAN_CHUNK_BYTES);
  let position = 0;
  let newlines = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, SCAN_CHUNK_BYTES, position);
    if (bytesRead === 0) return position;
    const chunk = buffer.subarray(0, bytesRead);
    for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) {
      newlines += 1;
      if (newlines === line - 1) return position + index + 1;
    }
    position += bytesRead;
  }
}

async function main(): Promise<void> {
  const [side, root, name, startArgument, bytesArgument] = process.argv.slice(2);
  const startLine = Number(startArgument);
  const pageBytes = Number(bytesArgument);
  if ((side !== 'tool' && side !== 'raw') || root === undefined || name === undefined || !(startLine >= 1) || !(pageBytes > 0)) {
    throw new Error('Usage: read-page-child.ts <tool|raw> <root> <file> <start line> <page bytes>');
  }
  let read: () => Promise<unknown>;
  if (side === 'tool') {
    const viaTool = toolReader(root);
    await viaTool(WARM_UP_FILE, 1);
    read = () => viaTool(name, startLine);
  } else {
    await readRaw(path.join(root, WARM_UP_FILE), 1, 16);
    read = () => readRaw(path.join(root, name), startLine, pageBytes);
  }
  const { ms, peakGrowthBytes } = await measurePeak(read);
  console.log(JSON.stringify({ ms, peakGrowthBytes }));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
