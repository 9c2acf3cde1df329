/**
 * The benchmark's tree: 20,000 files and about 160 MB shaped like a large TypeScript
 * monorepo, generated the same way every time from a fixed seed. It is built once in the
 * system's temp folder and reused by later runs (`--fresh` rebuilds it); the first case of
 * each suite warms the page cache.
 *
 * What it holds (paths relative to the root):
 * - `packages/pkg-N/src/…/file-I.ts`: 17,400 source files, 1–3 folders deep, 8 KB on average.
 * - `docs/page-I.md`: 300 Markdown pages; about a third say "install".
 * - `logs/app-I.log`: 4 logs of 2 MB.
 * - `assets/image-I.png`: 100 PNG files (binary, passed over by a search).
 * - `__snapshots__/…/case-I.snap`: 12 snapshot files, the rare glob's answer.
 * - `node_modules/…` (1,600 files) and `.git/objects/…` (584 files): skipped by both tools.
 *
 * The rare regex `quux\w*Marker\d+` matches one line in each of 5 source files.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Bumped whenever the generator changes, so an old cached tree is not reused. */
const TREE_VERSION = 1;
const SOURCE_FILES = 17_400;
const DOC_PAGES = 300;
const LOGS = 4;
const IMAGES = 100;
const SNAPSHOTS = 12;
const DEPENDENCY_FILES = 1_600;
const GIT_OBJECTS = 584;
const RARE_FILES = 5;

/** The rare regular expression, and the glob only a few files match. */
export const RARE_REGEX = 'quux\\w*Marker\\d+';
export const RARE_GLOB = '*.snap';

/** Folders both tools skip: the tool's defaults, and the same as ripgrep flags. */
export const SKIPPED_FOLDERS = ['.git', 'node_modules', 'bin', 'obj', '.toolbelt'];

/** ripgrep flags that make it look at the same files as our tools: hidden files, no ignore files, the skipped folders left out. */
export const RIPGREP_SAME_FILES = ['--no-config', '--no-ignore', '--hidden', ...SKIPPED_FOLDERS.flatMap((folder) => ['-g', `!${folder}/`])];

export interface BenchTree {
  readonly root: string;
  readonly files: number;
  readonly bytes: number;
  /** Milliseconds spent building it; 0 when a cached tree was reused. */
  readonly builtMs: number;
}

/** The tree, built if missing (or when `fresh`). */
export function benchTree(fresh = false): BenchTree {
  const root = path.join(os.tmpdir(), `agent-toolbelt-bench-tree-v${TREE_VERSION}`);
  const marker = `${root}.json`;
  if (!fresh && fs.existsSync(marker) && fs.existsSync(root)) {
    const stats = JSON.parse(fs.readFileSync(marker, 'utf8')) as { files: number; bytes: number };
    return { root, ...stats, builtMs: 0 };
  }
  fs.rmSync(marker, { force: true });
  fs.rmSync(root, { recursive: true, force: true });
  const started = performance.now();
  const stats = buildTree(root);
  fs.writeFileSync(marker, JSON.stringify(stats));
  return { root, ...stats, builtMs: performance.now() - started };
}

/** A deterministic pseudo-random generator (a linear congruential one): the same tree every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = ['user', 'order', 'cart', 'price', 'session', 'token', 'request', 'result', 'config', 'cache', 'item', 'query', 'stream', 'buffer', 'event', 'route'];

function buildTree(root: string): { files: number; bytes: number } {
  const next = random(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const capital = (word: string): string => word[0]!.toUpperCase() + word.slice(1);
  let files = 0;
  let bytes = 0;
  const made = new Set<string>();
  const write = (relative: string, content: string | Buffer): void => {
    const absolute = path.join(root, relative);
    const folder = path.dirname(absolute);
    if (!made.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    fs.writeFileSync(absolute, content);
    files += 1;
    bytes += typeof content === 'string' ? Buffer.byteLength(content) : content.length;
  };

  const sourceFile = (rare: boolean): string => {
    const lines: string[] = [`import { ${capital(pick(WORDS))}Service } from '../${pick(WORDS)}/service';`, ''];
    const functions = 6 + Math.floor(next() * 33);
    const rareAt = rare ? Math.floor(next() * functions) : -1;
    for (let index = 0; index < functions; index += 1) {
      const name = `${pick(WORDS)}${capital(pick(WORDS))}`;
      lines.push(next() < 0.01 ? `export function handle${capital(name)}Event(event: Event): void {` : `export function ${name}(input: string): string {`);
      const body = 2 + Math.floor(next() * 10);
      for (let line = 0; line < body; line += 1) {
        const roll = next();
        if (roll < 0.002) lines.push('  // TODO: handle the error case');
        else if (roll < 0.003) lines.push('  // FixMe: this is slow');
        else lines.push(`  const ${pick(WORDS)}${line} = input.${pick(['trim', 'slice', 'toLowerCase'])}() + '${pick(WORDS)}';`);
      }
      if (index === rareAt) lines.push(`  const quux${capital(pick(WORDS))}Marker${Math.floor(next() * 100)} = input;`);
      lines.push('  return input;', '}', '');
    }
    return lines.join('\n');
  };

  const rare = new Set<number>();
  while (rare.size < RARE_FILES) rare.add(Math.floor(next() * SOURCE_FILES));
  for (let index = 0; index < SOURCE_FILES; index += 1) {
    const depth = 1 + Math.floor(next() * 3);
    const folders = Array.from({ length: depth }, () => pick(WORDS));
    write(`packages/pkg-${index % 80}/src/${folders.join('/')}/file-${index}.ts`, sourceFile(rare.has(index)));
  }
  for (let index = 0; index < DOC_PAGES; index += 1) {
    const body = Array.from({ length: 20 + Math.floor(next() * 80) }, () => `The ${pick(WORDS)} ${pick(WORDS)} is described here in some detail.`).join('\n');
    write(`docs/page-${index}.md`, `# Page ${index}\n\n${next() < 0.3 ? 'To install, run npm install.\n' : ''}${body}\n`);
  }
  for (let index = 0; index < LOGS; index += 1) {
    write(`logs/app-${index}.log`, `${'INFO request served in 12 ms\n'.repeat(2 * 1024 * 1024 / 28)}WARN done\n`);
  }
  for (let index = 0; index < IMAGES; index += 1) {
    write(`assets/image-${index}.png`, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), Buffer.alloc(20_000, index)]));
  }
  for (let index = 0; index < SNAPSHOTS; index += 1) {
    write(`packages/pkg-${index}/src/__snapshots__/case-${index}.snap`, `exports[\`case ${index}\`] = \`ok\`;\n`);
  }
  for (let index = 0; index < DEPENDENCY_FILES; index += 1) write(`node_modules/dep-${index % 50}/lib/file-${index}.js`, sourceFile(false));
  for (let index = 0; index < GIT_OBJECTS; index += 1) {
    write(`.git/objects/${(index % 256).toString(16).padStart(2, '0')}/${index}`, Buffer.from([0x78, 0x01, 0, 1, 2, 3, index & 0xff]));
  }
  return { files, bytes };
}
