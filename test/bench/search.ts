/**
 * search_files against ripgrep on the generated tree (see tree.ts), side by side in one run.
 *
 * Each query runs through search_files twice: as installed (handing the scan to ripgrep when
 * `rg` is on PATH) and with `ripgrep: false` (the pure Node.js search), each against the
 * ripgrep command that answers the same question over the same files. The number of files
 * each found is compared, so a fast wrong answer shows.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createReadOnlyFileTools } from '../../src/collections/files/read-tools.js';
import { locateRipgrep } from '../../src/collections/files/search/ripgrep.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { compare, ms, printTable, ratio, record, verdict } from './harness.js';
import { benchTree, RARE_REGEX, RIPGREP_SAME_FILES } from './tree.js';

const execFileAsync = promisify(execFile);

interface Query {
  readonly label: string;
  readonly input: { pattern: string; path?: string; mode?: 'files' | 'lines' | 'counts'; ignore_case?: boolean; include?: string; limit?: number };
  /** The ripgrep flags that ask the same question. */
  readonly rg: readonly string[];
  /** Upper bounds on the ratio to ripgrep: with ripgrep on PATH, and with the Node.js search. */
  readonly targets?: { readonly ripgrep: number; readonly node: number };
}

const QUERIES: readonly Query[] = [
  { label: 'rare regex, files', input: { pattern: RARE_REGEX }, rg: ['-l', RARE_REGEX], targets: { ripgrep: 1.2, node: 4 } },
  { label: 'common literal, files, limit 1000', input: { pattern: 'TODO', limit: 1_000 }, rg: ['-l', 'TODO'] },
  { label: 'common literal in packages/, files', input: { pattern: 'TODO', path: 'packages' }, rg: ['-l', 'TODO'] },
  { label: 'regex, lines, limit 1000', input: { pattern: 'function\\s+handle\\w+Event', mode: 'lines', limit: 1_000 }, rg: ['-n', 'function\\s+handle\\w+Event'] },
  { label: 'ignore case, counts, limit 1000', input: { pattern: 'fixme', mode: 'counts', ignore_case: true, limit: 1_000 }, rg: ['-c', '-i', 'fixme'] },
  { label: 'include *.md, files, limit 1000', input: { pattern: 'install', include: '*.md', limit: 1_000 }, rg: ['-l', '-g', '*.md', 'install'] },
  // The byte prefilter's cases: a required literal after `\w+`, a caseless literal, and a pattern with no literal at all (matched on every file).
  { label: 'regex, literal after \\w+, files', input: { pattern: '\\w+NeverThere\\d' }, rg: ['-l', '\\w+NeverThere\\d'] },
  { label: 'ignore case, rare literal, files', input: { pattern: 'quuxneverthere', ignore_case: true }, rg: ['-l', '-i', 'quuxneverthere'] },
  { label: 'regex without a literal, files', input: { pattern: '[xq]u{2}x\\d{3}' }, rg: ['-l', '[xq]u{2}x\\d{3}'] },
];

/** Runs the benchmark and prints a table. */
export async function run(): Promise<void> {
  const { root } = benchTree();
  // rg found on PATH the way search_files finds it.
  const rg = await locateRipgrep(true);
  const session = createSession();
  const searchWith = (ripgrep: boolean) => {
    const files = createReadOnlyFileTools({ workspace: new Workspace(root), ...(ripgrep ? {} : { ripgrep: false }) });
    return files.tools.find((tool) => tool.name === 'search_files')!;
  };
  const backends = [
    { name: rg === undefined ? 'search_files (no rg on PATH)' : 'search_files (ripgrep)', tool: searchWith(true), target: 'ripgrep' as const },
    { name: 'search_files (Node.js)', tool: searchWith(false), target: 'node' as const },
  ];
  const rows: string[][] = [['query', 'backend', 'search_files', 'rg', 'ratio', 'files found (ours / rg)']];
  for (const query of QUERIES) {
    for (const backend of backends) {
      const ours = async (): Promise<number> => {
        const result = await runTool(backend.tool, query.input, { session });
        if (result.isError) throw new Error(`search_files failed: ${result.text}`);
        return (result.data as { matches: unknown[] }).matches.length;
      };
      if (rg === undefined) {
        const started = performance.now();
        const found = await ours();
        rows.push([query.label, backend.name, ms(performance.now() - started), '-', '-', `${found} / -`]);
        continue;
      }
      const reference = async (): Promise<number> => countFiles(await ripgrep(rg, root, query.rg, query.input.path ?? '.'), query.rg[0]!);
      const result = await compare(ours, reference);
      rows.push([query.label, backend.name, ms(result.ours), ms(result.reference), ratio(result.ratio), `${result.lastOurs} / ${result.lastReference}`]);
      const bound = query.targets?.[backend.target];
      if (bound !== undefined) {
        record({
          suite: 'search_files',
          case: `${query.label} (${backend.target === 'ripgrep' ? 'ripgrep on PATH' : 'Node.js fallback'})`,
          ours: ms(result.ours),
          reference: `${ms(result.reference)} (rg ${query.rg.join(' ')})`,
          ratio: ratio(result.ratio),
          target: `≤ ${bound}×`,
          verdict: result.lastOurs === result.lastReference ? verdict(result.ratio, bound) : `missed (found ${result.lastOurs}, rg ${result.lastReference})`,
        });
      }
    }
  }
  printTable(rows);
  console.log(
    `\nReference: rg ${RIPGREP_SAME_FILES.join(' ')} <flags> . (the same files search_files looks at). ` +
      'Times include starting ripgrep, the worker thread and formatting the reply. Queries with limit 1000 may stop before ripgrep does.',
  );
}

async function ripgrep(rg: string, root: string, flags: readonly string[], folder: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync(rg, [...RIPGREP_SAME_FILES, '--no-messages', ...flags, folder], { cwd: root, maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    if ((error as { code?: number }).code === 1) return ''; // no match
    throw error;
  }
}

function countFiles(stdout: string, flag: string): number {
  const lines = stdout.split('\n').filter((line) => line !== '');
  if (flag === '-l' || flag === '-c') return lines.length;
  return new Set(lines.map((line) => line.slice(0, line.indexOf(':')))).size;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
