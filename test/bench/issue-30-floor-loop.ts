/**
 * The plain loops of issue 30's floor row (test/bench/issue-30-floor.ts): the real tree's
 * files listed, read, screened and prefiltered with the search's own reader and prefilter, no
 * messages. The tree's top-level entries are the units of work: one thread takes them all in
 * order, or two threads take the next one left (an `Atomics.add` on a shared counter), a split
 * with no other coordination. Run as a worker thread, this module serves rounds of the split.
 */
import { closeSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { isMainThread, parentPort } from 'node:worker_threads';
import { SearchFileReader } from '../../src/collections/files/search/file-reader.js';
import { compileRequiredText } from '../../src/collections/files/search/prefilter.js';
import { requiredText } from '../../src/collections/files/search/required-literals.js';

/** One round's work: the tree's top-level entries and where the next one to take is counted. */
export interface LoopRound {
  readonly units: readonly { readonly absolute: string; readonly folder: boolean }[];
  readonly pattern: string;
  readonly skipped: readonly string[];
  readonly maxFileBytes: number;
  /** One Int32: the index of the next unit to take. */
  readonly next: SharedArrayBuffer;
}

/** Files read and files the prefilter let through. */
export interface LoopCounts {
  files: number;
  mayMatch: number;
}

const readers = new Map<string, { reader: SearchFileReader; mayMatch: (bytes: Buffer) => boolean }>();

/** Takes units until none is left: folders depth first, each file read and prefiltered. */
export function runLoop(round: LoopRound): LoopCounts {
  let kept = readers.get(round.pattern);
  if (kept === undefined) {
    kept = { reader: new SearchFileReader(), mayMatch: compileRequiredText(requiredText(round.pattern, 'u')!) };
    readers.set(round.pattern, kept);
  }
  const { reader, mayMatch } = kept;
  const counts: LoopCounts = { files: 0, mayMatch: 0 };
  const readFile = (absolute: string): void => {
    counts.files += 1;
    const read = reader.read(absolute, round.maxFileBytes);
    if (read.type === 'text' && mayMatch(read.bytes)) counts.mayMatch += 1;
    // Over 16 MB and under the size cap: left open for reading in chunks, which the loop does not do.
    if (read.type === 'large') closeSync(read.fd);
  };
  const visit = (folder: string): void => {
    const folders: string[] = [];
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const absolute = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!round.skipped.includes(entry.name)) folders.push(absolute);
      } else if (entry.isFile()) readFile(absolute);
    }
    for (const child of folders) visit(child);
  };
  const next = new Int32Array(round.next);
  for (let index = Atomics.add(next, 0, 1); index < round.units.length; index = Atomics.add(next, 0, 1)) {
    const unit = round.units[index]!;
    if (unit.folder) visit(unit.absolute);
    else readFile(unit.absolute);
  }
  return counts;
}

if (!isMainThread) parentPort!.on('message', (round: LoopRound) => parentPort!.postMessage(runLoop(round)));
