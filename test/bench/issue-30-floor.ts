/**
 * Issue 30's floor row: what the walk could cost at best. The files a search of the real tree
 * reads (`node_modules`, the bench's skipped folders left out, links not followed), listed,
 * read, screened and prefiltered for `[xq]u{2}x\d{3}` in one plain loop on one thread, with
 * the search's own reader and prefilter and no messages, against the search itself
 * (`ripgrep: false`), alternating, CPU of every thread of this process counted. A search CPU
 * near the loop's says that its threads add nothing; what is left against `rg` is each file's
 * own cost through Node.js (test/bench/README.md, stop 43).
 *
 * Runs from test/bench/issue-30.ts (`node --import tsx test/bench/issue-30.ts floor`).
 */
import { closeSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { createReadOnlyFileTools } from '../../src/collections/files/read-tools.js';
import { validateReadToolsOptions } from '../../src/collections/files/read-options.js';
import { SearchFileReader } from '../../src/collections/files/search/file-reader.js';
import { compileRequiredText } from '../../src/collections/files/search/prefilter.js';
import { requiredText } from '../../src/collections/files/search/required-literals.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { median, ms, ratio, type SummaryRow } from './harness.js';
import { REAL_TREE, REAL_TREE_SKIPPED } from './server.js';

const PATTERN = '[xq]u{2}x\\d{3}';
const ROUNDS = 6;

/** Files read and files the prefilter let through, in one plain depth-first loop. */
function plainLoop(reader: SearchFileReader, mayMatch: (bytes: Buffer) => boolean, maxFileBytes: number): { files: number; mayMatch: number } {
  const counts = { files: 0, mayMatch: 0 };
  const visit = (folder: string): void => {
    const folders: string[] = [];
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const absolute = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!REAL_TREE_SKIPPED.includes(entry.name)) folders.push(absolute);
      } else if (entry.isFile()) {
        counts.files += 1;
        const read = reader.read(absolute, maxFileBytes);
        if (read.type === 'text' && mayMatch(read.bytes)) counts.mayMatch += 1;
        // Over 16 MB and under the size cap: left open for reading in chunks, which the loop does not do.
        if (read.type === 'large') closeSync(read.fd);
      }
    }
    for (const child of folders) visit(child);
  };
  visit(REAL_TREE);
  return counts;
}

/** Wall and CPU (every thread of this process) of one run of `action`. */
async function timed(action: () => unknown): Promise<{ wall: number; cpu: number }> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await action();
  const cpu = process.cpuUsage(cpuBefore);
  return { wall: performance.now() - started, cpu: (cpu.user + cpu.system) / 1000 };
}

export async function walkFloor(): Promise<Omit<SummaryRow, 'suite'>[]> {
  const workspace = new Workspace(REAL_TREE);
  const search = createReadOnlyFileTools({ workspace, skippedFolders: REAL_TREE_SKIPPED, ripgrep: false }).tools.find((tool) => tool.name === 'search_files')!;
  const { maxSearchFileBytes } = validateReadToolsOptions({ workspace });
  const mayMatch = compileRequiredText(requiredText(PATTERN, 'u')!);
  const reader = new SearchFileReader();
  const session = createSession();
  const sides = [
    async () => {
      const outcome = await runTool(search, { pattern: PATTERN, limit: 1000 }, { session });
      if (outcome.isError) throw new Error(outcome.text);
    },
    () => plainLoop(reader, mayMatch, maxSearchFileBytes),
  ];
  const runs: { wall: number; cpu: number }[][] = [[], []];
  for (let round = 0; round <= ROUNDS; round += 1) {
    for (const side of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const run = await timed(sides[side]!);
      if (round > 0) runs[side]!.push(run);
    }
  }
  const [searchRuns, loopRuns] = runs as [{ wall: number; cpu: number }[], { wall: number; cpu: number }[]];
  const searchCpu = median(searchRuns.map((run) => run.cpu));
  const loopCpu = median(loopRuns.map((run) => run.cpu));
  return [
    {
      case: `node_modules, \`${PATTERN}\`: the search's CPU against one plain loop over the same files (${ROUNDS} a side)`,
      ours: `search (ripgrep: false) ${ms(median(searchRuns.map((run) => run.wall)))}, CPU ${ms(searchCpu)}`,
      reference: `plain loop, one thread ${ms(median(loopRuns.map((run) => run.wall)))}, CPU ${ms(loopCpu)}`,
      ratio: ratio(searchCpu / loopCpu),
      target: 'where it goes: CPU near the loop\'s is the walk\'s floor',
      verdict: '-',
    },
  ];
}
