/**
 * find_files against `rg --files -g` on the generated tree (see tree.ts): the same glob over
 * the same files, side by side in one run, with the number of files each found. find_files
 * does not use ripgrep: it walks the tree in a worker thread with synchronous calls.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createReadOnlyFileTools } from '../../src/collections/files/read-tools.js';
import { locateRipgrep } from '../../src/collections/files/search/ripgrep.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { compare, ms, printTable, ratio, record, verdict } from './harness.js';
import { benchTree, RARE_GLOB, RIPGREP_SAME_FILES } from './tree.js';

const execFileAsync = promisify(execFile);

const GLOBS: readonly { label: string; glob: string; target?: number }[] = [
  { label: 'rare glob', glob: RARE_GLOB, target: 1.2 },
  { label: 'glob with a folder', glob: 'packages/pkg-1/**/*.ts' },
  { label: 'common glob (17,400 files)', glob: '*.ts' },
];

/** Runs the benchmark and prints a table. */
export async function run(): Promise<void> {
  const { root } = benchTree();
  // rg found on PATH the way search_files finds it.
  const rg = await locateRipgrep(true);
  const session = createSession();
  const tool = createReadOnlyFileTools({ workspace: new Workspace(root) }).tools.find((candidate) => candidate.name === 'find_files')!;
  const rows: string[][] = [['glob', 'find_files', 'rg --files -g', 'ratio', 'files found (ours / rg)']];
  for (const { label, glob, target } of GLOBS) {
    const ours = async (): Promise<number> => {
      const result = await runTool(tool, { pattern: glob }, { session });
      if (result.isError) throw new Error(`find_files failed: ${result.text}`);
      return (result.data as { total: number }).total;
    };
    if (rg === undefined) {
      const started = performance.now();
      const found = await ours();
      rows.push([`${label}: ${glob}`, ms(performance.now() - started), '-', '-', `${found} / -`]);
      continue;
    }
    const reference = async (): Promise<number> => {
      const { stdout } = await execFileAsync(rg, [...RIPGREP_SAME_FILES, '--files', '-g', glob, '.'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
      return stdout.split('\n').filter((line) => line !== '').length;
    };
    const result = await compare(ours, reference);
    rows.push([`${label}: ${glob}`, ms(result.ours), ms(result.reference), ratio(result.ratio), `${result.lastOurs} / ${result.lastReference}`]);
    if (target !== undefined) {
      record({
        suite: 'find_files',
        case: `${label} ${glob}`,
        ours: ms(result.ours),
        reference: `${ms(result.reference)} (rg --files -g '${glob}')`,
        ratio: ratio(result.ratio),
        target: `≤ ${target}×`,
        verdict: result.lastOurs === result.lastReference ? verdict(result.ratio, target) : 'missed (different files)',
      });
    }
  }
  printTable(rows);
  console.log(`\nReference: rg ${RIPGREP_SAME_FILES.join(' ')} --files -g <glob> . Times include reading modification times (find_files lists newest first) and formatting the reply.`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
