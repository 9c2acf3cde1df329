import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectSnippets, importedPackages, type Snippet } from './snippets.js';

/**
 * Documentation as code: every TypeScript snippet of the README and the pages beside the code
 * is type-checked under `strict` against the package as a user installs it (`npm pack`, then
 * `npm install` of the tarball, the frameworks the snippets import and `@types/node` into a
 * fresh project), in one `tsc` run where each snippet is a module of its own. Snippets marked
 * `snippet:run` are then run with Node.js. See `snippets.ts` for the marks.
 */
const run = promisify(execFile);
const repository = path.resolve(import.meta.dirname, '..', '..');
const snippets = collectSnippets(repository).filter((snippet) => snippet.check !== 'skip');
const errorsByFile = new Map<string, string[]>();
let project: string;

/** The file a snippet is written to: `adapters/openai/README.md` line 13 → `adapters-openai-README-13.ts`. */
function fileOf(snippet: Snippet): string {
  return `${snippet.page.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-')}-${snippet.line}.${snippet.language}`;
}

/** The version the repository's lockfile installed, so the install hits npm's cache; else the latest. */
function versionOf(name: string): string {
  const manifest = path.join(repository, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) return name;
  return `${name}@${(JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version}`;
}

beforeAll(async () => {
  if (!existsSync(path.join(repository, 'dist', 'src', 'index.js'))) {
    await run('npm', ['run', 'build'], { cwd: repository });
  }
  project = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-snippets-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', project], { cwd: repository });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  const imported = new Set(snippets.flatMap((snippet) => importedPackages(snippet.code)));
  imported.delete('agent-toolbelt');
  if (imported.has('react') || imported.has('next')) imported.add('@types/react');
  if ([...imported].some((name) => name.startsWith('@langchain/') || name === 'langchain')) imported.add('@langchain/core');
  const packages = [...new Set(['zod', '@types/node', 'typescript', ...imported])].map(versionOf);
  await fs.writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'snippets', private: true, type: 'module' }));
  // No install scripts and no optional (platform binary) packages: type-checking and running
  // the snippets needs neither, and they cost time (next brings a 100 MB compiler binary).
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', '--omit=optional', path.join(project, filename), ...packages], {
    cwd: project,
    timeout: 420_000,
  });

  await fs.mkdir(path.join(project, 'snippets'));
  for (const snippet of snippets) {
    // `export {}` makes every snippet a module of its own, also one without imports; it goes
    // last so the file's line numbers are the snippet's.
    await fs.writeFile(path.join(project, 'snippets', fileOf(snippet)), `${snippet.code}\nexport {};\n`);
  }
  await fs.writeFile(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        lib: ['ES2023'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        strict: true,
        jsx: 'react-jsx',
        skipLibCheck: true,
        rootDir: 'snippets',
        outDir: 'out',
      },
      include: ['snippets'],
    }),
  );
  const tsc = path.join(project, 'node_modules', 'typescript', 'bin', 'tsc');
  const output = await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: project, timeout: 240_000 }).then(
    ({ stdout: text }) => text,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  // `snippets/x.ts(12,5): error TS2304: …` and its indented continuation lines.
  let current: string[] | undefined;
  for (const line of output.split('\n')) {
    const located = /^snippets\/([^(]+)\((\d+),(\d+)\): (.*)$/.exec(line);
    if (located) {
      const [, file, row, column, message] = located as unknown as [string, string, string, string, string];
      current = errorsByFile.get(file) ?? [];
      errorsByFile.set(file, current);
      current.push(`line ${row}, column ${column}: ${message}`);
    } else if (current && line.startsWith(' ')) {
      current.push(line);
    } else if (line.trim()) {
      current = undefined;
      errorsByFile.set('(tsc)', [...(errorsByFile.get('(tsc)') ?? []), line]);
    }
  }
}, 720_000);

afterAll(async () => {
  if (project) await fs.rm(project, { recursive: true, force: true });
});

describe('the documentation snippets', () => {
  it('are found, in the README and the pages beside the code', () => {
    expect(snippets.length).toBeGreaterThan(10);
    expect(new Set(snippets.map((snippet) => snippet.page))).toContain('README.md');
  });

  it('type-check without errors outside the snippets themselves', () => {
    expect(errorsByFile.get('(tsc)') ?? []).toEqual([]);
  });

  for (const snippet of snippets) {
    const where = `${snippet.page}:${snippet.line}`;
    it(`${where} type-checks under strict`, () => {
      const errors = (errorsByFile.get(fileOf(snippet)) ?? []).map((error) =>
        error.replace(/^line (\d+)/, (_, row: string) => `line ${snippet.line + Number(row)} of ${snippet.page}`),
      );
      expect(errors, `the snippet at ${where} does not compile`).toEqual([]);
    });
    if (snippet.check === 'run') {
      it(`${where} runs`, async () => {
        const script = path.join(project, 'out', fileOf(snippet).replace(/\.tsx?$/, '.js'));
        const result = await run(process.execPath, [script], { cwd: project, timeout: 25_000 }).then(
          () => 'exit 0',
          (error: { code?: number; stderr?: string }) => `exit ${error.code}: ${error.stderr}`,
        );
        expect(result, `the snippet at ${where} failed when run`).toBe('exit 0');
      });
    }
  }
});
