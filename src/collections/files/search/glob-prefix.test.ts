import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../../run-tool.js';
import { createSession } from '../../../session.js';
import { Workspace } from '../../../workspace/workspace.js';
import { globFolders } from './glob-prefix.js';
import { compileGlob, globForWorker, SMALL_FOLDER_NAMES } from '../find-files.js';
import { findInSmallFolder, includer, plainTail } from './folder-listing.js';
import { findInWorker } from './worker-pool.js';
import { createReadOnlyFileTools } from '../read-tools.js';

/** A deterministic pseudo-random generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('globFolders', () => {
  it('finds the folders a match can lie under', () => {
    const facts = globFolders('pkg-0/src/mod-1/*.js');
    const folders = new RegExp(facts.folders!.source, facts.folders!.flags);
    expect(['pkg-0', 'pkg-0/src', 'pkg-0/src/mod-1'].every((folder) => folders.test(folder))).toBe(true);
    expect(['pkg-1', 'pkg-0/lib', 'pkg-0/src/mod-1/deeper', 'pkg-0/src/mod-2'].some((folder) => folders.test(folder))).toBe(false);
  });

  it('lets anything below a `**` through, and nothing beside its start', () => {
    const facts = globFolders('pkg-1/**/*.js');
    const folders = new RegExp(facts.folders!.source, facts.folders!.flags);
    expect(['pkg-1', 'pkg-1/a', 'pkg-1/a/b/.c'].every((folder) => folders.test(folder))).toBe(true);
    expect(folders.test('pkg-10')).toBe(false);
  });

  it('says nothing for globs that match names at any depth, negations and braces across segments', () => {
    expect(globFolders('*.ts')).toEqual({});
    expect(globFolders('**/*.ts')).toEqual({});
    expect(globFolders('!src/*.ts')).toEqual({});
    expect(globFolders('{src/a,lib}/*.ts')).toEqual({});
    expect(globFolders('src/**').folders).toBeDefined();
  });

  it('gives the literal folder part a walk may start at, and none where a name is a wildcard, `.`, `..` or empty', () => {
    expect(globFolders('packages/pkg-0/*/index.ts').base).toBe('packages/pkg-0');
    expect(globFolders('docs/*.md').base).toBe('docs');
    expect(globFolders('docs/api/index.md').base).toBe('docs/api');
    expect(globFolders('pkg-1/**/*.js').base).toBe('pkg-1');
    expect(globFolders('src/a b/*.js').base).toBe('src/a b');
    for (const glob of ['*/src/*.ts', 'pkg-?/x.js', 'pkg-{0,1}/x.js', '[ab]/x.js', 'a/../b/*.ts', 'a//b/*.ts', '@(a|b)/x.js']) {
      expect(globFolders(glob).base, glob).toBeUndefined();
    }
    expect(globFolders('a/b/+(c)/x.js').base).toBe('a/b');
  });

  it('says when one listing answers the glob: every match directly in its literal folder part', () => {
    for (const glob of ['docs/*.md', 'docs/api/index.md', 'src/a b/*.js', 'docs/a**']) expect(globFolders(glob).oneFolder, glob).toBe(true);
    for (const glob of ['pkg-1/**/*.js', 'docs/**', 'packages/pkg-0/*/index.ts', 'a/b/+(c)/x.js', '*/x.js', '*.ts']) expect(globFolders(glob).oneFolder, glob).toBeUndefined();
    // `**` inside a name is a `*`: it does not reach into folders.
    expect(picomatch('docs/a**', { dot: true })('docs/ab/c.md')).toBe(false);
  });
});

/** A small tree shaped like the bench's (packages, nested modules, docs, dot folders, a skipped folder, a linked folder). */
async function buildTree(root: string): Promise<void> {
  const files: string[] = [];
  for (let pkg = 0; pkg < 4; pkg += 1) {
    for (let module = 0; module < 4; module += 1) {
      for (let index = 0; index < 6; index += 1) {
        files.push(`pkg-${pkg}/src/mod-${module}/file-${index}.js`, `pkg-${pkg}/src/mod-${module}/deep/er/file-${index}.ts`);
      }
      files.push(`pkg-${pkg}/src/mod-${module}/index.js`, `pkg-${pkg}/test/mod-${module}.test.js`);
    }
    files.push(`pkg-${pkg}/package.json`, `pkg-${pkg}/.config/settings.js`);
  }
  files.push('pkg-10/src/mod-1/file-0.js', 'docs/guide.md', 'docs/api/index.md', 'node_modules/dep/index.js', '.github/workflows/ci.yml', 'src/a b/[x].js', 'top.js');
  for (const file of files) {
    await fs.mkdir(path.join(root, path.dirname(file)), { recursive: true });
    await fs.writeFile(path.join(root, file), '');
  }
  await fs.symlink(path.join(root, 'pkg-0'), path.join(root, 'linked-pkg'));
}

/**
 * What find_files found before the pruning: every file and link under the root (skipped folders
 * not entered, links not followed) that the glob matches, as the whole walk saw them.
 */
async function wholeWalk(root: string, pattern: string): Promise<string[]> {
  const matches = compileGlob(pattern, 'pattern');
  const found: string[] = [];
  const visit = async (folder: string, fromStart: string): Promise<void> => {
    for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
      const path_ = fromStart === '' ? entry.name : `${fromStart}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!['node_modules', '.git', 'bin', 'obj', '.toolbelt'].includes(entry.name)) await visit(path.join(folder, entry.name), path_);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && matches(path_)) {
        found.push(entry.isSymbolicLink() ? `${path_} -> ${await fs.readlink(path.join(folder, entry.name))}` : path_);
      }
    }
  };
  await visit(root, '');
  return found.sort();
}

/** A workspace whose listing goes through its own methods: find_files walks it on the main thread. */
class WalkedWorkspace extends Workspace {
  override list(...args: Parameters<Workspace['list']>): ReturnType<Workspace['list']> {
    return super.list(...args);
  }
}

describe('find_files with the walk started at the glob and folders pruned', () => {
  let root = '';
  beforeAll(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-glob-prefix-')));
    await buildTree(root);
  });
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  const globs = [
    'pkg-0/src/mod-1/*.js',
    'pkg-1/**/*.js',
    'pkg-1/**',
    'pkg-*/src/mod-2/*.js',
    'pkg-?/test/*.js',
    '*/src/*/index.js',
    '**/deep/**/*.ts',
    'pkg-0/src/**/er/*.ts',
    'pkg-{0,2}/src/mod-3/*.{js,ts}',
    'pkg-0/.config/*.js',
    'docs/**/*.md',
    'docs/*.md',
    'node_modules/dep/*.js',
    'linked-pkg/src/mod-0/*.js',
    'missing/folder/*.js',
    'top.js/*.js',
    'src/a b/*.js',
    'src/a b/\\[x\\].js',
    'docs/api/index.md',
    'pkg-0/../pkg-1/src/mod-0/*.js',
    'pkg-0//src/mod-0/*.js',
    './pkg-2/src/mod-0/*.js',
    '*.js',
    '**/index.js',
  ];

  it('finds exactly the files the whole walk finds, for every glob shape, in the worker and through the workspace', async () => {
    const session = createSession();
    const options = { maxFindResults: 10_000, maxReadCharacters: 1_000_000 };
    const inWorker = createReadOnlyFileTools({ workspace: new Workspace(root), ...options }).tools.find((tool) => tool.name === 'find_files')!;
    const throughWorkspace = createReadOnlyFileTools({ workspace: new WalkedWorkspace(root), ...options }).tools.find((tool) => tool.name === 'find_files')!;
    expect(new WalkedWorkspace(root).capabilities.listsLocalDisk).toBe(false);
    const paths = (result: { data?: unknown }) => ((result.data as { files?: { path: string; target?: string }[] }).files ?? []).map((file) => `${file.path}${file.target === undefined ? '' : ` -> ${file.target}`}`).sort();
    for (const pattern of globs) {
      const reference = await wholeWalk(root, pattern);
      const [worker, workspace] = await Promise.all([runTool(inWorker, { pattern }, { session }), runTool(throughWorkspace, { pattern }, { session })]);
      expect(paths(worker), pattern).toEqual(reference);
      expect(paths(workspace), pattern).toEqual(reference);
      // Both walks look at the same files, so their replies agree word for word.
      expect(worker.text, pattern).toBe(workspace.text);
    }
  });

  it('answers a glob of one small folder on this thread exactly as the search worker does', async () => {
    const signal = new AbortController().signal;
    const oneFolder = globs.filter((glob) => {
      compileGlob(glob, 'pattern');
      return globForWorker(glob).oneFolder === true;
    });
    expect(oneFolder.length).toBeGreaterThanOrEqual(8);
    for (const glob of oneFolder) {
      const job = { start: root, root, skipped: ['node_modules', '.git', 'bin', 'obj', '.toolbelt'], include: globForWorker(glob), keep: 3 };
      const here = findInSmallFolder(job, SMALL_FOLDER_NAMES);
      expect(here, glob).toBeDefined();
      expect(here, glob).toEqual(await findInWorker(job, signal));
    }
    // A folder with more names than the bound (7 files and `deep/` here) is left to the worker, whole.
    const job = { start: root, root, skipped: [], include: globForWorker('pkg-0/src/mod-1/*.js'), keep: 3 };
    expect(findInSmallFolder(job, 8)).toEqual(await findInWorker(job, signal));
    expect(findInSmallFolder(job, 7)).toBeUndefined();
    expect(findInSmallFolder({ ...job, include: globForWorker('pkg-0/**/*.js') }, 1_000)).toBeUndefined();
  });

  it('starts at the glob below a path given, as the whole walk from that path finds', async () => {
    const session = createSession();
    const options = { maxFindResults: 10_000, maxReadCharacters: 1_000_000 };
    const inWorker = createReadOnlyFileTools({ workspace: new Workspace(root), ...options }).tools.find((tool) => tool.name === 'find_files')!;
    const throughWorkspace = createReadOnlyFileTools({ workspace: new WalkedWorkspace(root), ...options }).tools.find((tool) => tool.name === 'find_files')!;
    const paths = (result: { data?: unknown }) => ((result.data as { files?: { path: string }[] }).files ?? []).map((file) => file.path).sort();
    for (const pattern of ['src/mod-1/*.js', 'src/**/er/*.ts', 'test/*.js', 'pkg-0/src/*.js']) {
      const reference = (await wholeWalk(path.join(root, 'pkg-0'), pattern)).map((found) => `pkg-0/${found}`);
      const [worker, workspace] = await Promise.all([runTool(inWorker, { pattern, path: 'pkg-0' }, { session }), runTool(throughWorkspace, { pattern, path: 'pkg-0' }, { session })]);
      expect(paths(worker), pattern).toEqual(reference);
      expect(paths(workspace), pattern).toEqual(reference);
      expect(worker.text, pattern).toBe(workspace.text);
    }
  });
});

describe('globForWorker', () => {
  /** Paths of a few levels made of `parts`. */
  const somePaths = (next: () => number, parts: readonly string[], count: number): string[] =>
    Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 4) }, () => parts[Math.floor(next() * parts.length)]!).join('/'));

  it('matches exactly the paths compileGlob matches, in the include test of the worker', () => {
    const globs = ['*.ts', '**/*.ts', 'src/*.ts', 'src/**', '*.{md,txt}', 'a?c.js', '[ab]*.md', '.*', 'f1*', 'src/deep/**/*.ts', './src/*.ts', '/a/b/*', 'node_modules', '*'];
    globs.push('*.test.ts', 'src/**/*.test.ts', '!*.md', '*.+(md)', 'a\\.md', '*[.]md', '*.m?', '*.', '**/x-y_z.md', 'y.md', '*.MD', '@(a|b).md');
    const next = random(3);
    const parts = ['src', 'deep', 'a', 'b', 'abc.js', 'x.ts', 'y.md', '.hidden', 'f10.txt', 'node_modules', 'README', 'a.b.ts', 'x.test.ts', 'a.md', 'b.MD', '.md', 'x-y_z.md', 'md'];
    const paths = somePaths(next, parts, 600);
    for (const glob of globs) {
      const expected = compileGlob(glob, 'include');
      const worker = includer(globForWorker(glob));
      for (const candidate of paths) expect([glob, candidate, worker(candidate)]).toEqual([glob, candidate, expected(candidate)]);
    }
  });

  it('matches exactly as compileGlob on random globs, whatever plain text ends them', () => {
    const next = random(11);
    const tokens = ['*', '**', '?', '.', 'md', 'ts', '/', 'a', '[ab]', '{md,ts}', '!', '-', '_', '\\.', '+(md)', 'x.md', '.ts', '@(a|b)'];
    const parts = ['a', 'b', 'a.md', 'b.ts', '.ts', 'x.md', 'amd', 'a-b.md', 'a_.ts', '.', 'ab', 'md', 'a.md.ts', 'a.b'];
    const paths = somePaths(next, parts, 300);
    let compared = 0;
    for (let index = 0; index < 400; index += 1) {
      const glob = Array.from({ length: 1 + Math.floor(next() * 4) }, () => tokens[Math.floor(next() * tokens.length)]!).join('');
      let expected: (fromStart: string) => boolean;
      try {
        expected = compileGlob(glob, 'include');
      } catch {
        continue; // Refused on the main thread (too many stars, or not a glob): never reaches the worker.
      }
      const worker = includer(globForWorker(glob));
      for (const candidate of paths) expect([glob, candidate, worker(candidate)]).toEqual([glob, candidate, expected(candidate)]);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(300);
  });

  it('names the plain text a glob ends with, and none where a match may end otherwise', () => {
    expect(plainTail({ glob: '*.md', flags: '' })).toBe('.md');
    expect(plainTail({ glob: 'src/**/*.test.ts', flags: '' })).toBe('.test.ts');
    for (const glob of ['*.{md,ts}', '*.+(md)', '!*.md', '*.m?', 'src/**', '*[.]']) expect([glob, plainTail({ glob, flags: '' })]).toEqual([glob, '']);
    expect(plainTail({ glob: '*.md', flags: 'i' })).toBe('');
  });
});
