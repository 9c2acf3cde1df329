/**
 * run_shell against a bare `child_process.spawn`, side by side in one run.
 *
 * - Per-call overhead: `true` through `runTool(run_shell)` against `spawn('bash', ['-c',
 *   'true'])` awaited to `close`. Each timed sample is {@link CALLS_PER_SAMPLE} calls in a row;
 *   the table shows the median sample divided by that count, so one number is one call.
 * - Extra rows without a target: `echo hello` the same way (a little output through the
 *   pipes), and `seq 1 1000000` (6.9 MB of output, cut to fit the reply and saved to a file).
 * - The event-loop block of starting `true` in a process holding a gigabyte
 *   (src/collections/shell/test-support/spawn-block-harness.ts): run_shell, which starts it from
 *   the spawn host, against a program spawned from the process itself (which forks it).
 * - A 1 GB flood in a fresh process per side (test/bench/shell-flood-child.ts), three times
 *   each, alternating: time, peak resident memory growth, and for run_shell the reply's length
 *   against its budget (`maxOutputCharacters`) and the size of the saved copy (capped by
 *   `maxSpillCharacters`). Also issue 16's flood row (`recordFloodFigure`).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { createShellTools } from '../../src/collections/shell/index.js';
import { DEFAULT_MAX_OUTPUT_CHARACTERS, DEFAULT_MAX_SPILL_CHARACTERS } from '../../src/collections/shell/options.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { prepareSpawnHost } from '../../src/workspace/spawn-host-client.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { compare, median, megabytes, ms, printTable, ratio, record, runInFreshProcess, verdict, type FreshProcessResult } from './harness.js';
import { recordFloodFigure } from './issue-16.js';

/** Calls per timed sample in the per-call cases: enough that timer resolution does not matter. */
const CALLS_PER_SAMPLE = 20;
const OVERHEAD_TARGET = 1.5;
const FLOOD_BYTES = 1024 ** 3;
const FLOOD_MEMORY_TARGET_BYTES = 50 * 1024 ** 2;
/** Floods per side; the medians are reported. */
const FLOOD_RUNS = 3;
const LARGE_COMMAND = 'seq 1 1000000';
/** The big-process case: run_shell `true` in a process grown to this size, this many times. */
const SPAWN_BLOCK_HARNESS = '../../src/collections/shell/test-support/spawn-block-harness.ts';
const SPAWN_BLOCK_MEGABYTES = 1024;
const SPAWN_BLOCK_CALLS = 5;
const SPAWN_BLOCK_TARGET_MS = 20;
const SUITE = 'shell';

/** Runs the cases, prints a table and records the summary rows. */
export async function run(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-bench-shell-'));
  try {
    const rows: string[][] = [['case', 'run_shell', 'bare spawn', 'ratio', 'notes']];
    const viaTool = await toolRunner(root);
    const viaSpawn = (command: string) => spawnToClose(command, root);

    const overhead = await comparePerCall(() => viaTool('true'), () => viaSpawn('true'));
    rows.push(['`true`, per call', ms(overhead.ours), ms(overhead.reference), ratio(overhead.ratio), `median of ${CALLS_PER_SAMPLE}-call samples ÷ ${CALLS_PER_SAMPLE}`]);
    record({
      suite: SUITE,
      case: '`true`, per call',
      ours: ms(overhead.ours),
      reference: `${ms(overhead.reference)} (bare spawn)`,
      ratio: ratio(overhead.ratio),
      target: `≤ ${ratio(OVERHEAD_TARGET)}`,
      verdict: verdict(overhead.ratio, OVERHEAD_TARGET),
    });

    const echo = await comparePerCall(() => viaTool('echo hello'), () => viaSpawn('echo hello'));
    rows.push(['`echo hello`, per call', ms(echo.ours), ms(echo.reference), ratio(echo.ratio), 'same, with a line of output']);
    recordExtra('`echo hello`, per call', echo.ours, echo.reference);

    const large = await compare(() => viaTool(LARGE_COMMAND), () => viaSpawn(LARGE_COMMAND), { runs: 5 });
    rows.push([`\`${LARGE_COMMAND}\` (6.9 MB)`, ms(large.ours), ms(large.reference), ratio(large.ratio), 'reply cut to fit, whole output saved']);
    recordExtra(`\`${LARGE_COMMAND}\` (6.9 MB)`, large.ours, large.reference);

    const block = await runInFreshProcess(SPAWN_BLOCK_HARNESS, [String(SPAWN_BLOCK_MEGABYTES), String(SPAWN_BLOCK_CALLS)]);
    const hostedBlock = median(block.hosted as number[]);
    const hereBlock = median(block.here as number[]);
    rows.push([
      `\`true\` at ${formatCount(Number(block.residentMegabytes))} MB resident, event-loop block`,
      ms(hostedBlock),
      ms(hereBlock),
      ratio(hostedBlock / hereBlock),
      `median of ${SPAWN_BLOCK_CALLS}; run_shell starts it from the spawn host, the bare spawn forks this process`,
    ]);
    record({
      suite: SUITE,
      case: '`true` at 1 GB resident, event-loop block',
      ours: ms(hostedBlock),
      reference: `${ms(hereBlock)} (spawned from the process)`,
      ratio: ratio(hostedBlock / hereBlock),
      target: `≤ ${ms(SPAWN_BLOCK_TARGET_MS)}`,
      verdict: verdict(hostedBlock, SPAWN_BLOCK_TARGET_MS),
    });

    // One flood per side in a fresh process, alternating, FLOOD_RUNS times; medians.
    const toolFloods: FreshProcessResult[] = [];
    const spawnFloods: FreshProcessResult[] = [];
    for (let run = 0; run < FLOOD_RUNS; run += 1) {
      toolFloods.push(await runInFreshProcess('shell-flood-child.ts', ['tool', String(FLOOD_BYTES)]));
      spawnFloods.push(await runInFreshProcess('shell-flood-child.ts', ['spawn', String(FLOOD_BYTES)]));
    }
    const toolFlood = medianFlood(toolFloods);
    const spawnFlood = medianFlood(spawnFloods);
    const replyCharacters = Number(toolFlood.replyCharacters);
    const spillBytes = Number(toolFlood.spillBytes);
    rows.push([
      '1 GB flood, time',
      ms(toolFlood.ms),
      ms(spawnFlood.ms),
      ratio(toolFlood.ms / spawnFlood.ms),
      `run_shell cleans, windows and saves ${megabytes(spillBytes)}; spawn only counts bytes`,
    ]);
    rows.push([
      '1 GB flood, peak RSS growth',
      megabytes(toolFlood.peakGrowthBytes),
      megabytes(spawnFlood.peakGrowthBytes),
      ratio(toolFlood.peakGrowthBytes / spawnFlood.peakGrowthBytes),
      `fresh process per side; median of ${FLOOD_RUNS}`,
    ]);
    rows.push([
      '1 GB flood, reply length',
      `${formatCount(replyCharacters)} chars`,
      '-',
      '-',
      `budget (maxOutputCharacters) ${formatCount(DEFAULT_MAX_OUTPUT_CHARACTERS)}; saved copy capped at ${formatCount(DEFAULT_MAX_SPILL_CHARACTERS)} chars`,
    ]);
    printTable(rows);

    recordExtra('1 GB flood, time', toolFlood.ms, spawnFlood.ms);
    recordFloodFigure(toolFlood, spawnFlood);
    record({
      suite: SUITE,
      case: '1 GB flood, peak RSS growth',
      ours: megabytes(toolFlood.peakGrowthBytes),
      reference: `${megabytes(spawnFlood.peakGrowthBytes)} (bare spawn)`,
      ratio: ratio(toolFlood.peakGrowthBytes / spawnFlood.peakGrowthBytes),
      target: `≤ ${megabytes(FLOOD_MEMORY_TARGET_BYTES)}`,
      verdict: verdict(toolFlood.peakGrowthBytes, FLOOD_MEMORY_TARGET_BYTES),
    });
    record({
      suite: SUITE,
      case: '1 GB flood, reply length',
      ours: `${formatCount(replyCharacters)} chars`,
      reference: '-',
      ratio: '-',
      target: `≤ ${formatCount(DEFAULT_MAX_OUTPUT_CHARACTERS)} chars`,
      verdict: verdict(replyCharacters, DEFAULT_MAX_OUTPUT_CHARACTERS),
    });
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

/**
 * Runs a command through `runTool(run_shell)` in auto mode (no approval asked), failing loudly
 * on an error reply; once the spawn host is up, as it is in a host that made its tools at start.
 */
async function toolRunner(root: string): Promise<(command: string) => Promise<string>> {
  const tool = createShellTools({ workspace: new Workspace(root) }).tools[0]!;
  await prepareSpawnHost();
  const session = createSession();
  return async (command) => {
    const result = await runTool(tool, { command }, { session, mode: 'auto' });
    if (result.isError) throw new Error(`run_shell failed: ${result.text}`);
    return result.text;
  };
}

/** The reference: a bare spawn of bash, its output read and dropped, awaited to `close`. */
function spawnToClose(command: string, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', () => resolve(''));
  });
}

/** {@link compare} over samples of {@link CALLS_PER_SAMPLE} calls, reported per call. */
async function comparePerCall(ours: () => Promise<unknown>, reference: () => Promise<unknown>): Promise<{ ours: number; reference: number; ratio: number }> {
  const repeat = (action: () => Promise<unknown>) => async () => {
    for (let index = 0; index < CALLS_PER_SAMPLE; index += 1) await action();
  };
  const result = await compare(repeat(ours), repeat(reference));
  return { ours: result.ours / CALLS_PER_SAMPLE, reference: result.reference / CALLS_PER_SAMPLE, ratio: result.ratio };
}

/** A summary row for a case shown for context, without a target. */
function recordExtra(name: string, ours: number, reference: number): void {
  record({ suite: SUITE, case: name, ours: ms(ours), reference: `${ms(reference)} (bare spawn)`, ratio: ratio(ours / reference), target: '-', verdict: '-' });
}

/** The median time and the median memory growth of several floods (each median on its own). */
function medianFlood(runs: readonly FreshProcessResult[]): FreshProcessResult {
  const byTime = [...runs].sort((a, b) => a.ms - b.ms);
  return { ...byTime[Math.floor(runs.length / 2)]!, ms: median(runs.map((run) => run.ms)), peakGrowthBytes: median(runs.map((run) => run.peakGrowthBytes)) };
}

function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
}
