/**
 * Issue 16's table ("Performance, server grade"), row for row as the issue states it: what was
 * measured before the work and the target. The "now" column is filled from the figures this
 * run's suites recorded with `recordIssueFigure` (most in server.ts; the output flood can come
 * from shell.ts, the spec sizes from specs.ts).
 */
import { issueFigures, printTable, recordIssueFigure } from './harness.js';

/** One row of the issue's table. */
interface IssueRow {
  readonly id: string;
  readonly what: string;
  /** The issue's "now" column: the figure before the work. */
  readonly before: string;
  readonly target: string;
}

/** The rows, in the issue's order. */
export const ISSUE_16_ROWS: readonly IssueRow[] = [
  {
    id: 'write-3000-lines',
    what: '`write_file` of a 3,000-line file, every line changed',
    before: '515 ms, the event loop blocked 507 ms, and `data.diff` then missing (the diff timed out)',
    target: '≤ 20 ms of event-loop block for any file up to 10 MB; `data.diff` always present (bounded in size, saying when it was cut)',
  },
  {
    id: 'replace-10000',
    what: '`edit_file` with `replace_all` on 10,000 lines (10,000 replacements)',
    before: '540 ms (plain `String.replaceAll`: 0.5 ms)',
    target: '≤ 10 ms + the write; the reply and `data.diff` built from the known spans',
  },
  { id: 'replace-4mb', what: '`edit_file` with `replace_all`, 4 MB file, 4 million replacements', before: '6.5–9.4 s', target: '≤ 300 ms' },
  {
    id: 'concurrent-searches',
    what: '8 concurrent `search_files` (rare literal, ripgrep on PATH) on `node_modules`: longest event-loop delay',
    before: 'median 191 ms, worst 356 ms (8 `rg` child processes: 15 ms); each ripgrep start blocked the main thread 4–46 ms',
    target: '≤ 25 ms',
  },
  {
    id: 'ripgrep-ratios',
    what: '`search_files` with ripgrep on PATH, `node_modules`: rare literal / alternation in `lines` mode / `ignore_case` in `counts` mode',
    before: '1.47× / 1.59× / 3.78× `rg`',
    target: '≤ 1.2× each',
  },
  {
    id: 'ripgrep-ignore-case-files',
    what: '`search_files` with ripgrep on PATH, `node_modules`, `ignore_case` in `files` mode',
    before: '5.2× `rg`',
    target: '≤ 1.2×',
  },
  { id: 'node-ratios', what: 'the same without ripgrep (`ripgrep: false`)', before: '3.5× / 2.6× / 4.8× `rg`', target: '≤ 2.5× each' },
  {
    id: 'small-tree',
    what: '`search_files` on a 1,000-file tree with ripgrep on PATH',
    before: '1.5–1.6× `rg` (slower than our own walk, 0.7–1.3×)',
    target: 'never slower than without ripgrep',
  },
  {
    id: 'anchored-globs',
    what: '`find_files` with a glob anchored in a folder',
    before: '56 ms vs fast-glob 2.1 ms (27×) on 100k files; 2.2 ms vs 0.46 ms (4.9×) on 1k',
    target: '≤ 1.2× the fastest of `rg --files -g`, `fd` and fast-glob on every glob shape',
  },
  { id: 'flood-1gb', what: '`run_shell` with 1 GB of output', before: '4.4 s, 3.6× a spawn that reads the pipe (1.2 s); memory growth 35 MB', target: '≤ 2× the piped spawn, memory as now' },
  {
    id: 'default-specs',
    what: 'the default files + shell tools (10) as sent, through each adapter',
    before: 'AI SDK 8,291 · MCP 8,811 · LangChain 9,151 · OpenAI 9,549 characters',
    target: '≤ 8,000 through every adapter, with no rule or limit dropped from the descriptions',
  },
];

/** The rows no suite of this run has measured yet. */
export function unmeasuredIssue16Rows(): string[] {
  return ISSUE_16_ROWS.filter((row) => !issueFigures().has(row.id)).map((row) => row.id);
}

/** Prints the issue's table with this run's figures in the "now" column. */
export function printIssue16Table(): void {
  const figures = issueFigures();
  printTable([
    ['what', 'before', 'now', 'target', 'verdict'],
    ...ISSUE_16_ROWS.map((row) => {
      const figure = figures.get(row.id);
      return [row.what, row.before, figure?.now ?? 'not measured in this run', row.target, figure?.verdict ?? '-'];
    }),
  ]);
}

/** The run_shell flood's figures, as test/bench/shell-flood-child.ts reports them for each side. */
export interface FloodFigures {
  readonly ms: number;
  readonly peakGrowthBytes: number;
}

/** Memory growth the flood row allows: "memory as now" (35 MB before), with the shell bench's own 50 MB bound. */
const FLOOD_MEMORY_BOUND_BYTES = 50 * 1024 ** 2;
const FLOOD_RATIO_TARGET = 2;

/** Issue 16's run_shell flood row, from one flood through run_shell and one through a piped spawn. */
export function recordFloodFigure(tool: FloodFigures, spawn: FloodFigures): void {
  const ratio = tool.ms / spawn.ms;
  const growth = tool.peakGrowthBytes / 1024 ** 2;
  const missed = [ratio > FLOOD_RATIO_TARGET ? `time over ${FLOOD_RATIO_TARGET}×` : undefined, tool.peakGrowthBytes > FLOOD_MEMORY_BOUND_BYTES ? 'memory over 50 MB' : undefined].filter(Boolean);
  recordIssueFigure({
    row: 'flood-1gb',
    now: `${(tool.ms / 1000).toFixed(1)} s, ${ratio.toFixed(2)}× a spawn that reads the pipe (${(spawn.ms / 1000).toFixed(1)} s); memory growth ${growth.toFixed(0)} MB`,
    verdict: missed.length === 0 ? 'met' : `missed (${missed.join(', ')})`,
  });
}
