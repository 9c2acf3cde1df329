/**
 * Issue 30's floor row: how far the walk is from the best its design could do. The files a
 * search of the real tree reads (`node_modules`, the bench's skipped folders left out, links not
 * followed), for `[xq]u{2}x\d{3}`, three ways, alternating, wall and CPU of every thread of this
 * process counted:
 * - the search itself (`ripgrep: false`);
 * - the same files listed, read, screened and prefiltered by the search's own reader and
 *   prefilter in a plain loop on two threads that split the tree's top-level folders between
 *   them and share nothing else (`issue-30-floor-loop.ts`): what two threads cost without the
 *   walk's hand-over in walk order;
 * - the same loop on one thread;
 * - `rg -l` over the same files, when it is on PATH.
 *
 * The split is the fair reference, since it keeps both cores busy as the search does: on this
 * machine the same loop mostly cost 680–720 ms of CPU while another ran on the other core,
 * and 870–900 ms alone (test/bench/README.md, stop 43).
 *
 * Runs from test/bench/issue-30.ts (`node --import tsx test/bench/issue-30.ts floor`).
 */
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createReadOnlyFileTools } from '../../src/collections/files/read-tools.js';
import { validateReadToolsOptions } from '../../src/collections/files/read-options.js';
import { locateRipgrep } from '../../src/collections/files/search/ripgrep.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { median, ms, ratio, type SummaryRow } from './harness.js';
import { runLoop, type LoopCounts, type LoopRound } from './issue-30-floor-loop.js';
import { REAL_TREE, REAL_TREE_SKIPPED, RG_SAME_FILES, ripgrepLines } from './server.js';

const PATTERN = '[xq]u{2}x\\d{3}';
const ROUNDS = 6;

interface Run {
  readonly wall: number;
  readonly cpu: number;
}

/** Wall and CPU (every thread of this process) of one run of `action`. */
async function timed(action: () => Promise<unknown>): Promise<Run> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await action();
  const cpu = process.cpuUsage(cpuBefore);
  return { wall: performance.now() - started, cpu: (cpu.user + cpu.system) / 1000 };
}

/** A loop round on `worker` (rejects if the worker fails). */
async function onWorker(worker: Worker, round: LoopRound): Promise<LoopCounts> {
  const answer = once(worker, 'message');
  worker.postMessage(round);
  const [counts] = (await answer) as [LoopCounts];
  return counts;
}

export async function walkFloor(): Promise<Omit<SummaryRow, 'suite'>[]> {
  const workspace = new Workspace(REAL_TREE);
  const search = createReadOnlyFileTools({ workspace, skippedFolders: REAL_TREE_SKIPPED, ripgrep: false }).tools.find((tool) => tool.name === 'search_files')!;
  const { maxSearchFileBytes } = validateReadToolsOptions({ workspace });
  const units = readdirSync(REAL_TREE, { withFileTypes: true })
    .filter((entry) => (entry.isDirectory() && !REAL_TREE_SKIPPED.includes(entry.name)) || entry.isFile())
    .map((entry) => ({ absolute: path.join(REAL_TREE, entry.name), folder: entry.isDirectory() }));
  const round = (): LoopRound => ({ units, pattern: PATTERN, skipped: REAL_TREE_SKIPPED, maxFileBytes: maxSearchFileBytes, next: new SharedArrayBuffer(4) });
  const session = createSession();
  const rg = await locateRipgrep(true);
  const workers = [0, 1].map(() => new Worker(new URL('./issue-30-floor-loop.ts', import.meta.url)));
  try {
    // What each loop read and let through, as "files/may match": the loops must agree.
    const counted: string[] = [];
    const sides: (() => Promise<unknown>)[] = [
      async () => {
        const outcome = await runTool(search, { pattern: PATTERN, limit: 1000 }, { session });
        if (outcome.isError) throw new Error(outcome.text);
      },
      async () => {
        const shared = round();
        const [one, two] = (await Promise.all(workers.map((worker) => onWorker(worker, shared)))) as [LoopCounts, LoopCounts];
        counted.push(`${one.files + two.files}/${one.mayMatch + two.mayMatch}`);
      },
      async () => {
        const { files, mayMatch } = runLoop(round());
        counted.push(`${files}/${mayMatch}`);
      },
    ];
    if (rg !== undefined) sides.push(() => ripgrepLines(rg, [...RG_SAME_FILES, '-l', '--', PATTERN, '.'], REAL_TREE));
    const runs: Run[][] = sides.map(() => []);
    for (let turn = 0; turn <= ROUNDS; turn += 1) {
      for (let index = 0; index < sides.length; index += 1) {
        const side = (index + turn) % sides.length;
        const run = await timed(sides[side]!);
        if (turn > 0) runs[side]!.push(run);
      }
    }
    const agreed = [...new Set(counted)];
    if (agreed.length !== 1) throw new Error(`The loops read or let through different numbers of files (files/may match): ${agreed.join(', ')}.`);
    const files = agreed[0]!.split('/')[0];
    const [searched, split, alone, ripgrep] = runs.map((sideRuns) => ({ wall: median(sideRuns.map((run) => run.wall)), cpu: median(sideRuns.map((run) => run.cpu)) })) as [Run, Run, Run, Run | undefined];
    return [
      {
        case: `node_modules, \`${PATTERN}\`: the search against a plain loop over the same ${files} files, split over two threads (${ROUNDS} each)`,
        ours: `search (ripgrep: false) ${ms(searched.wall)}, CPU ${ms(searched.cpu)}`,
        reference: `loop on two threads ${ms(split.wall)}, CPU ${ms(split.cpu)}; on one ${ms(alone.wall)}, CPU ${ms(alone.cpu)}${ripgrep === undefined ? '' : `; rg -l ${ms(ripgrep.wall)}, the loop on two threads ${ratio(split.wall / ripgrep.wall)} of it`}`,
        ratio: `${ratio(searched.wall / split.wall)} (CPU ${ratio(searched.cpu / split.cpu)})`,
        target: 'where it goes: near 1× is the floor of reading every file through Node.js',
        verdict: '-',
      },
    ];
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
