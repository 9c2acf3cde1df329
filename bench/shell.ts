/**
 * run_shell against raw `child_process`, side by side in one run: many small commands, one
 * large output, and a flood (throughput and peak memory). Prints ratios; asserts nothing.
 */
import { exec, spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { createShellTools } from '../src/collections/shell/index.js';
import { runTool } from '../src/run-tool.js';
import { createSession } from '../src/session.js';
import { Workspace } from '../src/workspace/workspace.js';

const SMALL_RUNS = 40;
const LARGE_COMMAND = 'seq 1 1000000';
const FLOOD_BYTES = 200 * 1024 * 1024;
const MB = 1024 * 1024;

const execAsync = promisify(exec);

/** Runs the benchmark and prints a table. */
export async function run(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-bench-shell-'));
  try {
    const workspace = new Workspace(root);
    const tool = createShellTools({ workspace }).tools[0]!;
    const session = createSession();
    const viaTool = (command: string) => runTool(tool, { command }, { session, mode: 'auto' });
    const viaSpawn = (command: string) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn('bash', ['-c', command], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        let bytes = 0;
        child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
        child.stderr.on('data', (chunk: Buffer) => (bytes += chunk.length));
        child.on('error', reject);
        child.on('close', () => resolve(bytes));
      });
    const viaExec = (command: string) => execAsync(command, { cwd: root, shell: 'bash', maxBuffer: 1024 * MB });

    await viaTool('true');
    await viaSpawn('true');

    const rows: string[][] = [['case', 'run_shell', 'spawn', 'exec', 'run_shell / spawn']];
    const small = [await time(async () => { for (let i = 0; i < SMALL_RUNS; i += 1) await viaTool('echo hello'); })];
    const smallSpawn = await time(async () => { for (let i = 0; i < SMALL_RUNS; i += 1) await viaSpawn('echo hello'); });
    const smallExec = await time(async () => { for (let i = 0; i < SMALL_RUNS; i += 1) await viaExec('echo hello'); });
    rows.push([`${SMALL_RUNS} × echo hello`, ms(small[0]!), ms(smallSpawn), ms(smallExec), ratio(small[0]!, smallSpawn)]);

    const large = await time(() => viaTool(LARGE_COMMAND));
    const largeSpawn = await time(() => viaSpawn(LARGE_COMMAND));
    const largeExec = await time(() => viaExec(LARGE_COMMAND));
    rows.push([`${LARGE_COMMAND} (6.9 MB)`, ms(large), ms(largeSpawn), ms(largeExec), ratio(large, largeSpawn)]);

    const floodCommand = `yes 'a line of flood output' | head -c ${FLOOD_BYTES}`;
    const toolFlood = await withPeakMemory(() => viaTool(floodCommand));
    const spawnFlood = await withPeakMemory(() => viaSpawn(floodCommand));
    rows.push([`flood ${FLOOD_BYTES / MB} MB`, ms(toolFlood.ms), ms(spawnFlood.ms), 'n/a (would buffer it all)', ratio(toolFlood.ms, spawnFlood.ms)]);
    printTable(rows);
    console.log(
      `\nflood peak RSS growth: run_shell ${(toolFlood.growth / MB).toFixed(1)} MB (keeps head and tail, spills up to 50,000,000 characters), ` +
        `raw spawn counting bytes ${(spawnFlood.growth / MB).toFixed(1)} MB; ` +
        `throughput run_shell ${(FLOOD_BYTES / MB / (toolFlood.ms / 1000)).toFixed(0)} MB/s, spawn ${(FLOOD_BYTES / MB / (spawnFlood.ms / 1000)).toFixed(0)} MB/s`,
    );
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

async function time(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

async function withPeakMemory(action: () => Promise<unknown>): Promise<{ ms: number; growth: number }> {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const elapsed = await time(action);
  clearInterval(sampler);
  return { ms: elapsed, growth: Math.max(peak, process.memoryUsage().rss) - baseline };
}

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}

function ratio(a: number, b: number): string {
  return `${(a / b).toFixed(2)}×`;
}

function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const [index, row] of rows.entries()) {
    console.log(`| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`);
    if (index === 0) console.log(`| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
