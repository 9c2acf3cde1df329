/**
 * What every benchmark case shares: timing ours against a reference side by side
 * (alternating, after a warm-up, medians), peak memory measured in a fresh process, and the
 * summary table `npm run bench` ends with. Nothing here asserts: machines are noisy, so the
 * numbers are printed for a person to read.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Runs each side this many times, untimed, before measuring. */
export const WARMUP_RUNS = 2;
/** Timed runs per side; the median is reported. */
export const TIMED_RUNS = 9;

/** One line of the summary table. */
export interface SummaryRow {
  readonly suite: string;
  readonly case: string;
  readonly ours: string;
  readonly reference: string;
  readonly ratio: string;
  readonly target: string;
  /** `met`, `missed`, or `-` when the case has no target. */
  readonly verdict: string;
}

const summary: SummaryRow[] = [];

/** Adds a row to the summary printed at the end of `npm run bench`. */
export function record(row: SummaryRow): void {
  summary.push(row);
}

/** The rows recorded so far, in order. */
export function summaryRows(): readonly SummaryRow[] {
  return summary;
}

/**
 * This run's figure for one row of an issue's table (issue 16's rows are in
 * test/bench/issue-16.ts): any suite that measures a row records it here, and the table printed
 * at the end of the run fills its "now" column from these.
 */
export interface IssueFigure {
  /** The row's id in the issue's table, such as `write-3000-lines`. */
  readonly row: string;
  /** What was measured, as the table shows it. */
  readonly now: string;
  /** `met`, or `missed` with what missed. */
  readonly verdict: string;
}

const issueFigureRows = new Map<string, IssueFigure>();

/** Records (or replaces) this run's figure for a row of an issue's table. */
export function recordIssueFigure(figure: IssueFigure): void {
  issueFigureRows.set(figure.row, figure);
}

/** The issue figures recorded so far, by row id. */
export function issueFigures(): ReadonlyMap<string, IssueFigure> {
  return issueFigureRows;
}

/** Side-by-side timing of two actions. */
export interface Comparison<T> {
  /** Median milliseconds of ours. */
  readonly ours: number;
  /** Median milliseconds of the reference. */
  readonly reference: number;
  /** `ours / reference`. */
  readonly ratio: number;
  /** What each side returned on its last run, to check that both did the same work. */
  readonly lastOurs: T;
  readonly lastReference: T;
}

/**
 * Times `ours` against `reference`: {@link WARMUP_RUNS} untimed runs of each, then
 * {@link TIMED_RUNS} timed runs that alternate which side goes first, so drift in the
 * machine's load (or its page cache) falls on both. Reports medians.
 */
export async function compare<T>(
  ours: () => Promise<T>,
  reference: () => Promise<T>,
  options: { warmup?: number; runs?: number } = {},
): Promise<Comparison<T>> {
  const warmup = options.warmup ?? WARMUP_RUNS;
  const runs = options.runs ?? TIMED_RUNS;
  let lastOurs!: T;
  let lastReference!: T;
  for (let index = 0; index < warmup; index += 1) {
    lastOurs = await ours();
    lastReference = await reference();
  }
  const oursTimes: number[] = [];
  const referenceTimes: number[] = [];
  const timeOurs = async (): Promise<void> => {
    const started = performance.now();
    lastOurs = await ours();
    oursTimes.push(performance.now() - started);
  };
  const timeReference = async (): Promise<void> => {
    const started = performance.now();
    lastReference = await reference();
    referenceTimes.push(performance.now() - started);
  };
  for (let index = 0; index < runs; index += 1) {
    if (index % 2 === 0) {
      await timeOurs();
      await timeReference();
    } else {
      await timeReference();
      await timeOurs();
    }
  }
  const oursMedian = median(oursTimes);
  const referenceMedian = median(referenceTimes);
  return { ours: oursMedian, reference: referenceMedian, ratio: oursMedian / referenceMedian, lastOurs, lastReference };
}

/**
 * CPU milliseconds the process `pid` has used so far, all its threads, ended ones too, from
 * `/proc/<pid>/stat` (Linux; 10 ms ticks, so measure over a second or more).
 */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, fields 14 and 15 of the whole line: 12 and 13 after the name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** What a case run in a fresh process reports (see {@link runInFreshProcess}). */
export interface FreshProcessResult {
  readonly ms: number;
  /** Peak resident memory above the process's own resident memory just before the case. */
  readonly peakGrowthBytes: number;
  readonly [key: string]: unknown;
}

/**
 * Runs `test/bench/<script>` in a fresh Node.js process and returns the JSON it prints last. A
 * fresh process gives memory readings that earlier cases (a tree built, a search worker
 * kept) cannot blur. The script measures itself with {@link measurePeak}.
 */
export async function runInFreshProcess(script: string, args: readonly string[]): Promise<FreshProcessResult> {
  const benchFolder = path.dirname(fileURLToPath(import.meta.url));
  const { stdout } = await execFileAsync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(benchFolder, script), ...args], {
    cwd: path.resolve(benchFolder, '..', '..'),
    maxBuffer: 16 * 1024 * 1024,
  });
  const last = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as FreshProcessResult;
}

/**
 * Times `action` and measures the peak resident memory it adds to this process: sampled
 * every millisecond while it runs, and read from the kernel's high-water mark when the
 * action set a new one. Call it in a fresh process (see {@link runInFreshProcess}).
 */
export async function measurePeak<T>(action: () => Promise<T>): Promise<{ ms: number; peakGrowthBytes: number; value: T }> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage.rss();
  const highWaterBefore = process.resourceUsage().maxRSS * 1024;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 1);
  const started = performance.now();
  const value = await action();
  const ms = performance.now() - started;
  clearInterval(sampler);
  const highWaterAfter = process.resourceUsage().maxRSS * 1024;
  peak = Math.max(peak, process.memoryUsage.rss());
  // The high-water mark only says something about this action when the action raised it.
  if (highWaterAfter > highWaterBefore) peak = Math.max(peak, highWaterAfter);
  return { ms, peakGrowthBytes: peak - baseline, value };
}

/** Prints a Markdown table: the first row is the header. */
export function printTable(rows: readonly (readonly string[])[]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  for (const [index, row] of rows.entries()) {
    console.log(`| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`);
    if (index === 0) console.log(`| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`);
  }
}

/** `12.3 ms` */
export function ms(value: number): string {
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
}

/** `1.07×` */
export function ratio(value: number): string {
  return `${value.toFixed(2)}×`;
}

/** `12.3 MB` (MiB) */
export function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `met` or `missed`, for a value against an upper bound. */
export function verdict(value: number, bound: number): string {
  return value <= bound ? 'met' : 'missed';
}

/** The machine the numbers came from, for the summary and the README. */
export async function describeMachine(): Promise<string> {
  const cpus = os.cpus();
  const ripgrep = await execFileAsync('rg', ['--version']).then(
    ({ stdout }) => stdout.split('\n')[0]!,
    () => 'ripgrep not installed',
  );
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, ${os.type()} ${os.release()}, Node.js ${process.version}, ${ripgrep}`;
}
