/**
 * Server-grade cases (issue 16), each with its reference in the same run:
 * - the longest event-loop block during heavy calls (a 3,000-line rewrite, `replace_all` on
 *   10,000 lines and 4 million replacements, eight concurrent searches), with
 *   `measureEventLoopBlock` from test/support/event-loop.ts;
 * - `search_files` on a real tree, the repository's own `node_modules` searched as a workspace
 *   root, against `rg` with the same flags, with ripgrep on PATH and without;
 * - `find_files` with globs anchored in a folder against `rg --files -g`, `fdfind` and fast-glob.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fastGlob from 'fast-glob';
import { createFileTools } from '../../src/collections/files/index.js';
import { recordRead } from '../../src/collections/files/read-state.js';
import { createReadOnlyFileTools } from '../../src/collections/files/read-tools.js';
import { locateRipgrep } from '../../src/collections/files/ripgrep.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import type { ToolDefinition } from '../../src/tool.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { measureEventLoopBlock } from '../support/event-loop.js';
import { compare, median, ms, printTable, ratio, record, verdict } from './harness.js';
import { benchTree, RIPGREP_SAME_FILES } from './tree.js';

const execFileAsync = promisify(execFile);
const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function tool(tools: readonly ToolDefinition<any>[], name: string): ToolDefinition<any> {
  return tools.find((candidate) => candidate.name === name)!;
}

/** The median longest block and time of `runs` runs of `action` (each after `prepare`). */
async function blockOf(runs: number, prepare: () => Promise<void>, action: () => Promise<unknown>): Promise<{ block: number; time: number }> {
  const blocks: number[] = [];
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    await prepare();
    const { maxDelayMs, elapsedMs } = await measureEventLoopBlock(action);
    blocks.push(maxDelayMs);
    times.push(elapsedMs);
  }
  return { block: median(blocks), time: median(times) };
}

async function eventLoopCases(rows: string[][]): Promise<void> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-bench-server-')));
  try {
    const workspace = new Workspace(root);
    const { tools } = createFileTools({ workspace });
    const session = createSession();
    const put = async (file: string, content: string): Promise<void> => {
      const absolute = path.join(root, file);
      await fs.writeFile(absolute, content);
      recordRead(session, absolute, await fs.stat(absolute), true);
    };
    const lines = Array.from({ length: 3_000 }, (_, index) => `line ${index} of the original file, with some text`);
    const write = await blockOf(
      5,
      () => put('a.txt', lines.join('\n') + '\n'),
      () => runTool(tool(tools, 'write_file'), { path: 'a.txt', content: lines.map((line) => `${line}, changed`).join('\n') + '\n' }, { session, mode: 'auto' }),
    );
    const tenThousand = Array.from({ length: 10_000 }, (_, index) => `const value${index} = oldName(${index});`).join('\n') + '\n';
    const replace = await blockOf(
      5,
      () => put('b.ts', tenThousand),
      () => runTool(tool(tools, 'edit_file'), { path: 'b.ts', old_string: 'oldName', new_string: 'newName', replace_all: true }, { session, mode: 'auto' }),
    );
    const replaceReference = median(Array.from({ length: 5 }, () => {
      const started = performance.now();
      tenThousand.replaceAll('oldName', 'newName');
      return performance.now() - started;
    }));
    const fourMegabytes = 'a'.repeat(4 * 1024 * 1024 - 1) + '\n';
    const millions = await blockOf(
      5,
      () => put('c.txt', fourMegabytes),
      () => runTool(tool(tools, 'edit_file'), { path: 'c.txt', old_string: 'a', new_string: 'b', replace_all: true }, { session, mode: 'auto' }),
    );
    rows.push(['write_file, 3,000 lines all changed', `${ms(write.time)}, block ${ms(write.block)}`, '-', '-', 'block ≤ 20 ms']);
    rows.push(['edit_file replace_all, 10,000 replacements', `${ms(replace.time)}, block ${ms(replace.block)}`, `String.replaceAll ${ms(replaceReference)}`, '-', '≤ 10 ms + the write']);
    rows.push(['edit_file replace_all, 4 MB, 4 million replacements', `${ms(millions.time)}, block ${ms(millions.block)}`, '-', '-', '≤ 300 ms']);
    record({ suite: 'server', case: 'write_file 3,000 lines changed: event-loop block', ours: ms(write.block), reference: '-', ratio: '-', target: '≤ 20 ms', verdict: verdict(write.block, 20) });
    record({ suite: 'server', case: 'edit_file 10,000 replacements: time', ours: ms(replace.time), reference: `replaceAll ${ms(replaceReference)}`, ratio: '-', target: '≤ 10 ms + write', verdict: '-' });
    record({ suite: 'server', case: 'edit_file 4 million replacements: time', ours: ms(millions.time), reference: '-', ratio: '-', target: '≤ 300 ms', verdict: verdict(millions.time, 300) });
    record({ suite: 'server', case: 'edit_file 4 million replacements: event-loop block', ours: ms(millions.block), reference: '-', ratio: '-', target: '≤ 20 ms', verdict: verdict(millions.block, 20) });
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

/** The repository's own dependencies, searched as a workspace root (skipping only `.git`). */
const REAL_TREE = path.join(repository, 'node_modules');

async function realTreeCases(rows: string[][], rg: string | undefined): Promise<void> {
  if (rg === undefined || !existsSync(REAL_TREE)) {
    rows.push(['real tree', 'skipped: needs rg on PATH and node_modules', '-', '-', '-']);
    return;
  }
  const session = createSession();
  const cases = [
    { label: 'rare literal, files', input: { pattern: 'quuxNeverThereMarker' }, flags: ['-l'] },
    { label: 'alternation, lines', input: { pattern: 'quuxNever|zzyzxMarker', mode: 'lines' }, flags: ['-n'] },
    { label: 'ignore_case, counts', input: { pattern: 'quuxNeverThereMarker', ignore_case: true, mode: 'counts' }, flags: ['-i', '-c'] },
    { label: 'ignore_case, files', input: { pattern: 'quuxNeverThereMarker', ignore_case: true }, flags: ['-i', '-l'] },
  ];
  const reference = (flags: readonly string[], pattern: string) => async () => {
    await execFileAsync(rg, ['--no-config', '--no-ignore', '--hidden', '-g', '!.git/', ...flags, '--', pattern, '.'], { cwd: REAL_TREE, maxBuffer: 64 * 1024 * 1024 }).catch(() => undefined);
    return 0;
  };
  for (const engine of [true, false]) {
    const { tools } = createReadOnlyFileTools({ workspace: new Workspace(REAL_TREE), skippedFolders: ['.git'], ripgrep: engine });
    const search = tool(tools, 'search_files');
    for (const { label, input, flags } of cases) {
      const result = await compare(async () => (await runTool(search, input, { session })).text.length, reference(flags, input.pattern), { warmup: 1, runs: 5 });
      const target = engine ? 1.2 : 2.5;
      rows.push([`node_modules, ${label}, ${engine ? 'rg on PATH' : 'ripgrep: false'}`, ms(result.ours), `rg ${ms(result.reference)}`, ratio(result.ratio), `≤ ${target}×`]);
      record({ suite: 'server', case: `real tree ${label}, ${engine ? 'rg on PATH' : 'no ripgrep'}`, ours: ms(result.ours), reference: `rg ${ms(result.reference)}`, ratio: ratio(result.ratio), target: `≤ ${target}×`, verdict: verdict(result.ratio, target) });
    }
    // Eight at once: the longest event-loop delay while they run.
    const concurrent = await blockOf(3, async () => undefined, () => Promise.all(Array.from({ length: 8 }, () => runTool(search, cases[0]!.input, { session: createSession() }))));
    rows.push([`8 concurrent searches, node_modules, ${engine ? 'rg on PATH' : 'ripgrep: false'}`, `${ms(concurrent.time)}, block ${ms(concurrent.block)}`, '-', '-', 'block ≤ 25 ms']);
    record({ suite: 'server', case: `8 concurrent searches, ${engine ? 'rg on PATH' : 'no ripgrep'}: event-loop block`, ours: ms(concurrent.block), reference: '-', ratio: '-', target: '≤ 25 ms', verdict: verdict(concurrent.block, 25) });
  }
}

async function anchoredGlobCases(rows: string[][], rg: string | undefined): Promise<void> {
  const { root } = benchTree();
  const session = createSession();
  const find = tool(createReadOnlyFileTools({ workspace: new Workspace(root) }).tools, 'find_files');
  const fd = existsSync('/usr/bin/fdfind') ? '/usr/bin/fdfind' : undefined;
  for (const glob of ['packages/pkg-1/**/*.ts', 'packages/pkg-0/src/user/*.ts']) {
    const references: Record<string, () => Promise<number>> = {
      'fast-glob': async () => (await fastGlob(glob, { cwd: root, dot: true, ignore: ['**/node_modules/**', '**/.git/**'] })).length,
    };
    // Exit code 1 (nothing found) still prints a list: an empty one.
    const lines = (run: Promise<{ stdout: string }>) => run.then(({ stdout }) => stdout.split('\n').filter(Boolean).length, (error: { stdout?: string }) => (error.stdout ?? '').split('\n').filter(Boolean).length);
    if (rg !== undefined) references['rg --files -g'] = () => lines(execFileAsync(rg, [...RIPGREP_SAME_FILES, '--files', '-g', glob, '.'], { cwd: root, maxBuffer: 64 * 1024 * 1024 }));
    if (fd !== undefined) references.fdfind = () => lines(execFileAsync(fd, ['--no-ignore', '--hidden', '--type', 'f', '--exclude', 'node_modules', '--exclude', '.git', '--glob', '--full-path', `${root}/${glob}`, root], { maxBuffer: 64 * 1024 * 1024 }));
    const ours = async (): Promise<number> => ((await runTool(find, { pattern: glob }, { session })).data as { total: number }).total;
    let fastest = { name: '-', ms: Infinity, ours: 0, found: '' };
    for (const [name, reference] of Object.entries(references)) {
      const result = await compare(ours, reference, { warmup: 1, runs: 5 });
      if (result.reference < fastest.ms) fastest = { name, ms: result.reference, ours: result.ours, found: `${result.lastOurs} / ${result.lastReference}` };
      rows.push([`find_files ${glob}`, ms(result.ours), `${name} ${ms(result.reference)}`, ratio(result.ratio), `files ${result.lastOurs} / ${result.lastReference}`]);
    }
    record({ suite: 'server', case: `find_files ${glob}`, ours: ms(fastest.ours), reference: `${fastest.name} ${ms(fastest.ms)}`, ratio: ratio(fastest.ours / fastest.ms), target: '≤ 1.2× fastest', verdict: verdict(fastest.ours / fastest.ms, 1.2) });
  }
}

/** Runs the server-grade cases and prints one table. */
export async function run(): Promise<void> {
  const rg = await locateRipgrep(true);
  const rows: string[][] = [['case', 'ours', 'reference', 'ratio', 'target / note']];
  await eventLoopCases(rows);
  await anchoredGlobCases(rows, rg);
  await realTreeCases(rows, rg);
  printTable(rows);
  console.log('\nBlocks are the longest event-loop delay during the call (1 ms timer probe), medians of the runs. The real tree is this repository\'s node_modules, searched as a workspace root.');
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
