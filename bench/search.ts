/**
 * search_files against ripgrep on the same generated tree, side by side in one run.
 *
 * The tree looks like a mid-sized TypeScript repository: 4,000 source files in nested
 * packages, a `node_modules` and a `.git` that both tools skip, a few binary files and one
 * large log. Each query runs a few times; the median is reported with the ratio to ripgrep,
 * and the number of files each tool found is compared so a fast wrong answer shows.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { createReadOnlyFileTools } from '../src/collections/files/read-tools.js';
import { runTool } from '../src/run-tool.js';
import { createSession } from '../src/session.js';
import { Workspace } from '../src/workspace/workspace.js';

const run_ = promisify(execFile);

const SOURCE_FILES = 4_000;
const DEPENDENCY_FILES = 1_000;
const RUNS = 5;
const SKIPPED = ['.git', 'node_modules', 'bin', 'obj', '.toolbelt'];

interface Query {
  readonly label: string;
  readonly input: { pattern: string; mode?: 'files' | 'lines' | 'counts'; ignore_case?: boolean; include?: string; limit?: number };
  readonly rg: string[];
}

const QUERIES: readonly Query[] = [
  { label: 'literal, files', input: { pattern: 'TODO', limit: 1_000 }, rg: ['-l', 'TODO'] },
  { label: 'regex, lines', input: { pattern: 'function\\s+handle\\w+Event', mode: 'lines', limit: 1_000 }, rg: ['-n', 'function\\s+handle\\w+Event'] },
  { label: 'rare literal, files', input: { pattern: 'XYZZY_MARKER' }, rg: ['-l', 'XYZZY_MARKER'] },
  { label: 'ignore case, counts', input: { pattern: 'fixme', mode: 'counts', ignore_case: true, limit: 1_000 }, rg: ['-c', '-i', 'fixme'] },
  { label: 'include *.md, files', input: { pattern: 'install', include: '*.md', limit: 1_000 }, rg: ['-l', '-g', '*.md', 'install'] },
];

/** Runs the benchmark and prints a table. */
export async function run(): Promise<void> {
  const rg = await findRipgrep();
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-bench-search-'));
  try {
    const started = performance.now();
    const stats = await buildTree(root);
    console.log(`Tree: ${stats.files} files, ${(stats.bytes / 1024 / 1024).toFixed(1)} MB, built in ${Math.round(performance.now() - started)} ms (${root})`);
    const files = createReadOnlyFileTools({ workspace: new Workspace(root) });
    const search = files.tools.find((tool) => tool.name === 'search_files')!;
    const session = createSession();

    const rows: string[][] = [['query', 'search_files (median ms)', 'ripgrep (median ms)', 'ratio', 'files found (tool / rg)']];
    for (const query of QUERIES) {
      let toolFiles = 0;
      const toolTimes: number[] = [];
      for (let index = 0; index < RUNS; index += 1) {
        const t0 = performance.now();
        const result = await runTool(search, query.input, { session });
        toolTimes.push(performance.now() - t0);
        if (result.isError) throw new Error(`search_files failed: ${result.text}`);
        toolFiles = (result.data as { matches: unknown[] }).matches.length;
      }
      const toolMedian = median(toolTimes);
      if (rg === undefined) {
        rows.push([query.label, toolMedian.toFixed(1), '-', '-', `${toolFiles} / -`]);
        continue;
      }
      const args = ['--no-ignore', '--hidden', '--no-messages', ...SKIPPED.flatMap((folder) => ['-g', `!${folder}`]), ...query.rg, '.'];
      let rgFiles = 0;
      const rgTimes: number[] = [];
      for (let index = 0; index < RUNS; index += 1) {
        const t0 = performance.now();
        const output = await run_(rg, args, { cwd: root, maxBuffer: 256 * 1024 * 1024 }).catch((error: { stdout?: string; code?: number }) => {
          if (error.code === 1) return { stdout: '' }; // no match
          throw error;
        });
        rgTimes.push(performance.now() - t0);
        rgFiles = countRipgrepFiles(output.stdout, query.rg[0]!);
      }
      const rgMedian = median(rgTimes);
      rows.push([query.label, toolMedian.toFixed(1), rgMedian.toFixed(1), `${(toolMedian / rgMedian).toFixed(2)}x`, `${toolFiles} / ${rgFiles}`]);
    }
    printTable(rows);
    if (rg === undefined) console.log('\nripgrep (rg) is not installed, so only search_files was timed. Install it (apt-get install ripgrep) to compare.');
    else console.log(`\nripgrep: ${rg}, ${os.cpus().length} CPUs. search_files timings include starting its worker thread and the reply formatting; ripgrep's include starting a process.`);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

async function findRipgrep(): Promise<string | undefined> {
  try {
    const { stdout } = await run_('rg', ['--version']);
    return stdout.length > 0 ? 'rg' : undefined;
  } catch {
    return undefined;
  }
}

/** A deterministic pseudo-random generator, so every run builds the same tree. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = ['user', 'order', 'cart', 'price', 'session', 'token', 'request', 'result', 'config', 'cache', 'item', 'query', 'stream', 'buffer'];

/** Builds the benchmark's tree under `root` (the same tree every time); exported for profiling scripts. */
export async function buildTree(root: string): Promise<{ files: number; bytes: number }> {
  const next = random(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  let files = 0;
  let bytes = 0;
  const write = async (relative: string, content: string | Buffer): Promise<void> => {
    const absolute = path.join(root, relative);
    await fs.mkdir(path.dirname(absolute), { recursive: true });
    await fs.writeFile(absolute, content);
    files += 1;
    bytes += content.length;
  };

  const sourceFile = (): string => {
    const lines: string[] = [`import { ${pick(WORDS)}Service } from '../${pick(WORDS)}/service';`, ''];
    const functions = 3 + Math.floor(next() * 12);
    for (let index = 0; index < functions; index += 1) {
      const name = `${pick(WORDS)}${pick(WORDS).replace(/^./, (c) => c.toUpperCase())}`;
      lines.push(next() < 0.01 ? `export function handle${name}Event(event: Event): void {` : `export function ${name}(input: string): string {`);
      const body = 2 + Math.floor(next() * 10);
      for (let line = 0; line < body; line += 1) {
        const roll = next();
        if (roll < 0.002) lines.push('  // TODO: handle the error case');
        else if (roll < 0.003) lines.push('  // FixMe: this is slow');
        else lines.push(`  const ${pick(WORDS)}${line} = input.${pick(['trim', 'slice', 'toLowerCase'])}() + '${pick(WORDS)}';`);
      }
      lines.push('  return input;', '}', '');
    }
    return lines.join('\n');
  };

  for (let index = 0; index < SOURCE_FILES; index += 1) {
    const depth = 1 + Math.floor(next() * 3);
    const folders = Array.from({ length: depth }, () => pick(WORDS));
    await write(`packages/pkg-${index % 40}/src/${folders.join('/')}/file-${index}.ts`, sourceFile());
  }
  for (let index = 0; index < 200; index += 1) {
    await write(`docs/page-${index}.md`, `# Page ${index}\n\n${next() < 0.3 ? 'To install, run npm install.\n' : 'Nothing to see.\n'}`);
  }
  for (let index = 0; index < DEPENDENCY_FILES; index += 1) await write(`node_modules/dep-${index % 50}/lib/file-${index}.js`, sourceFile());
  for (let index = 0; index < 100; index += 1) await write(`.git/objects/${index}`, Buffer.from([0x78, 0x01, 0, 1, 2, 3]));
  for (let index = 0; index < 20; index += 1) await write(`assets/image-${index}.png`, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), Buffer.alloc(20_000, 1)]));
  await write('logs/app.log', 'INFO started\n'.repeat(300_000) + 'XYZZY_MARKER found\n');
  return { files, bytes };
}

function countRipgrepFiles(stdout: string, flag: string): number {
  const lines = stdout.split('\n').filter((line) => line !== '');
  if (flag === '-l' || flag === '-c') return lines.length;
  return new Set(lines.map((line) => line.slice(0, line.indexOf(':')))).size;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function printTable(rows: readonly string[][]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const [index, row] of rows.entries()) {
    console.log(`| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`);
    if (index === 0) console.log(`| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`);
  }
}
