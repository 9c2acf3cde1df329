import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool, type RunToolResult } from '../../../run-tool.js';
import { createSession } from '../../../session.js';
import type { ToolDefinition } from '../../../tool.js';
import { Workspace } from '../../../workspace/workspace.js';
import { globForWorker } from '../find-files.js';
import { createReadTools } from '../read-tools.js';
import { listsLocalDisk, readsLocalDisk } from './local-disk.js';
import { locateRipgrep } from './ripgrep.js';
import { findInWorker } from './worker-pool.js';
import { walkFiles } from './walk.js';

/** A workspace that reads through its own methods, as a container or remote workspace would: search_files must use them. */
class ThroughMethods extends Workspace {
  opened = 0;
  listed = 0;
  override open(absolute: string): ReturnType<Workspace['open']> {
    this.opened += 1;
    return super.open(absolute);
  }
  override list(absolute: string): ReturnType<Workspace['list']> {
    this.listed += 1;
    return super.list(absolute);
  }
}

/** A deterministic pseudo-random generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = ['alpha', 'beta', 'needle', 'Needle', 'NEEDLE', 'haystack', 'foo(bar)', 'a.b', 'café', 'x', '', 'TODO', 'naïve needle'];
/** Bytes of the size cap in these tests: some files are over it, one large file under it is read in several chunks by the worker. */
const CAP = 3 * 1024 * 1024;

let base: string;
let root: string;

/** A random tree with the awkward cases: CRLF, BOMs, binary, UTF-16, Latin-1, empty, over the cap, a 2 MB file, links, skipped folders. */
async function buildCorpus(seed: number): Promise<void> {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const put = async (relative: string, content: string | Buffer): Promise<void> => {
    const absolute = path.join(root, relative);
    await fs.mkdir(path.dirname(absolute), { recursive: true });
    await fs.writeFile(absolute, content);
  };
  const text = (lines: number, eol: string): string =>
    Array.from({ length: lines }, () => Array.from({ length: 1 + Math.floor(next() * 5) }, () => pick(WORDS)).join(' ')).join(eol) + (next() < 0.7 ? eol : '');
  const folders = ['', 'src', 'src/deep', 'src/deep/er', 'docs', 'a-b', 'a', 'a/b', 'node_modules/pkg', '.git', 'Z'];
  for (let index = 0; index < 120; index += 1) {
    const folder = pick(folders);
    const name = `${folder === '' ? '' : `${folder}/`}f${index}.${pick(['ts', 'md', 'txt', 'js'])}`;
    const roll = next();
    if (roll < 0.05) await put(name, Buffer.concat([Buffer.from('needle\n'), Buffer.from([0]), Buffer.from('needle')]));
    else if (roll < 0.08) await put(name, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('needle\n', 'utf16le')]));
    else if (roll < 0.11) await put(name, Buffer.from('needle caf\xe9\n', 'latin1'));
    else if (roll < 0.13) await put(name, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from(' needle\n')]));
    else if (roll < 0.16) await put(name, '');
    else if (roll < 0.2) await put(name, `\ufeff${text(5, '\n')}`);
    else await put(name, text(1 + Math.floor(next() * 40), next() < 0.3 ? '\r\n' : '\n'));
  }
  await put('big/over-cap.txt', `needle\n${'x'.repeat(CAP)}\n`);
  // Over the worker's 1 MB read: several chunks, a multi-byte character and a match across their edges.
  const line = 'naïve haystack line\n';
  await put('big/chunks.txt', `${line.repeat(60_000)}needle at the end\n${line.repeat(50_000)}needle again`);
  await put('big/late-binary.txt', Buffer.concat([Buffer.from('needle\n'.repeat(200_000)), Buffer.from([0])]));
  await put('big/late-latin1.txt', Buffer.concat([Buffer.from('needle\n'.repeat(200_000)), Buffer.from([0xe9, 0x0a])]));
  // A BOM before a first line that is the whole match: `^needle$` must see the line without it.
  await put('docs/bom-first.md', '\ufeffneedle\r\nother\n');
  await put('docs/folds.md', 'Kelvin \u212aelvin\r\n\u017fkip skip\nſKIP\nnone\n');
  await fs.symlink('src', path.join(root, 'link-dir'));
  await fs.symlink('big/chunks.txt', path.join(root, 'link-file.txt'));
}

let disk: ToolDefinition<any>;
let through: ToolDefinition<any>;
let findOnDisk: ToolDefinition<any>;
let viaRipgrep: ToolDefinition<any>;
let findThrough: ToolDefinition<any>;
let throughWorkspace: ThroughMethods;
const session = createSession();

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-search-disk-')));
  root = path.join(base, 'root');
  await fs.mkdir(root);
  await buildCorpus(7);
  const workspace = new Workspace(root);
  throughWorkspace = new ThroughMethods(root);
  expect(readsLocalDisk(workspace)).toBe(true);
  expect(readsLocalDisk(throughWorkspace)).toBe(false);
  expect(listsLocalDisk(workspace)).toBe(true);
  expect(listsLocalDisk(throughWorkspace)).toBe(false);
  const named = (tools: ToolDefinition<any>[], name: string): ToolDefinition<any> => tools.find((tool) => tool.name === name)!;
  const onDisk = createReadTools({ workspace, maxSearchFileBytes: CAP, ripgrep: false });
  const throughMethods = createReadTools({ workspace: throughWorkspace, maxSearchFileBytes: CAP });
  disk = named(onDisk, 'search_files');
  through = named(throughMethods, 'search_files');
  findOnDisk = named(onDisk, 'find_files');
  viaRipgrep = named(createReadTools({ workspace, maxSearchFileBytes: CAP, ripgrep: true, ripgrepAfterFiles: 0 }), 'search_files');
  findThrough = named(throughMethods, 'find_files');
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const QUERIES: readonly Record<string, unknown>[] = [
  { pattern: 'needle' },
  { pattern: 'needle', mode: 'lines', limit: 1_000 },
  { pattern: 'needle', mode: 'counts', limit: 1_000 },
  { pattern: 'needle', ignore_case: true, mode: 'counts' },
  { pattern: 'naïve needle', mode: 'lines' },
  { pattern: 'needle again', mode: 'lines' },
  { pattern: 'foo\\(bar\\)', mode: 'lines' },
  { pattern: 'a.b', mode: 'counts' },
  { pattern: '^needle$', mode: 'lines', limit: 50 },
  { pattern: 'needle\\s*$', mode: 'counts' },
  { pattern: '(?<=naïve )needle', mode: 'lines' },
  { pattern: 'café|TODO', mode: 'lines', limit: 7 },
  { pattern: 'needle', limit: 3 },
  { pattern: 'needle', mode: 'lines', limit: 5 },
  { pattern: 'needle', include: '*.md' },
  { pattern: 'needle', include: 'src/**/*.ts', mode: 'counts' },
  { pattern: 'needle', include: '*.{ts,js}', path: 'src' },
  { pattern: 'needle', path: 'node_modules', mode: 'counts' },
  { pattern: 'needle', path: 'big/chunks.txt', mode: 'lines' },
  { pattern: 'no such text anywhere' },
  { pattern: '\\p{Lu}{6}', mode: 'counts' },
  // Mode `files` decodes only the lines that hold a required literal, and none when the pattern is its literals.
  { pattern: '^needle$', limit: 1_000 },
  { pattern: 'needle\\s*$', limit: 1_000 },
  { pattern: '(?<=naïve )needle' },
  { pattern: 'naïve needle' },
  { pattern: 'café|TODO', limit: 1_000 },
  { pattern: 'foo\\(bar\\)', limit: 1_000 },
  { pattern: 'a.b', limit: 1_000 },
  // Only the lines holding a literal are matched, ignoring case too; a plain pattern's hits are its matches.
  { pattern: 'needle', ignore_case: true, mode: 'lines', limit: 1_000 },
  { pattern: 'needle', ignore_case: true, mode: 'lines', limit: 3 },
  { pattern: 'needle', ignore_case: true, limit: 1_000 },
  { pattern: 'needle|todo', ignore_case: true, mode: 'counts', limit: 1_000 },
  { pattern: 'NEEDLE|haystack', mode: 'counts', limit: 1_000 },
  { pattern: 'n[e]{2}dle', mode: 'lines', limit: 1_000 },
  { pattern: '[nN]eedle\\b', mode: 'counts', limit: 1_000 },
  { pattern: '(?:alpha|beta) needle', ignore_case: true, mode: 'lines', limit: 1_000 },
  // A Kelvin sign or long s folds to `k` or `s` ignoring case: those files are matched whole.
  { pattern: 'kelvin', ignore_case: true, mode: 'lines' },
  { pattern: 'skip', ignore_case: true, mode: 'counts' },
];

describe('search_files on a local workspace (the worker reads the disk)', () => {
  it.each(QUERIES.map((input) => [JSON.stringify(input), input] as const))('answers %s exactly as reading through the workspace does', async (_, input) => {
    const opened = throughWorkspace.opened;
    const [fromDisk, fromMethods]: RunToolResult[] = await Promise.all([runTool(disk, input, { session }), runTool(through, input, { session })]);
    // The subclass was read through its methods, so both paths ran.
    if (!('path' in input) || input.path !== 'node_modules') expect(throughWorkspace.opened).toBeGreaterThan(opened);
    expect(fromDisk.isError).toBe(false);
    const data = (result: RunToolResult): { matches: unknown[]; limitReached: boolean } => result.data as { matches: unknown[]; limitReached: boolean };
    if (!data(fromMethods).limitReached) {
      expect(fromDisk.text).toBe(fromMethods.text);
      expect(fromDisk.data).toEqual(fromMethods.data);
    } else {
      // Cut by the limit: reading through the workspace may have looked at a few files past the
      // cut before the worker's answers came back, and names the binary ones; the results agree.
      expect(data(fromDisk).limitReached).toBe(true);
      expect(data(fromDisk).matches).toEqual(data(fromMethods).matches);
      expect(fromDisk.text.split('\n').filter((line) => !line.startsWith('Not searched:'))).toEqual(
        fromMethods.text.split('\n').filter((line) => !line.startsWith('Not searched:')),
      );
    }
  });

  it('finds what it should in the awkward files', async () => {
    const result = await runTool(disk, { pattern: 'needle (at the end|again)', mode: 'lines' }, { session });
    expect(result.text.split('\n').slice(1, 4)).toEqual(['big/chunks.txt', '60001: needle at the end', '110002: needle again']);
    const skipped = (result.data as { skipped: { binary: number; notUtf8: string[]; tooLarge: string[] } }).skipped;
    expect(skipped.tooLarge).toEqual(['big/over-cap.txt']);
    expect(skipped.notUtf8).toContain('big/late-latin1.txt');
    expect(skipped.notUtf8.filter((file) => !file.startsWith('big/'))).toHaveLength(skipped.notUtf8.length - 1);
    expect(skipped.binary).toBeGreaterThan(1);
    // The links are not followed: the chunked file is named once, under its own path.
    expect(result.text).not.toContain('link-');
  });

  it('is stopped by the regex watchdog in disk mode too, naming the file and line, and works again afterwards', async () => {
    const trapBase = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-search-trap-')));
    try {
      await fs.mkdir(path.join(trapBase, 'sub'));
      await fs.writeFile(path.join(trapBase, 'sub', 'a.txt'), 'aaa\n');
      await fs.writeFile(path.join(trapBase, 'sub', 'trap.txt'), `start\nfine\n${'a'.repeat(40)}b\n`);
      const tool = createReadTools({ workspace: new Workspace(trapBase), regexTimeoutMs: 500, ripgrep: false }).find((candidate) => candidate.name === 'search_files')!;
      const result = await runTool(tool, { pattern: '(a+)+$' }, { session });
      expect(result.isError).toBe(true);
      expect(result.text).toContain('ran for more than 0.5 s on line 3 of `sub/trap.txt` without finishing');
      expect((await runTool(tool, { pattern: 'fine' }, { session })).text).toBe('1 file match `fine` (2 files searched in the workspace):\nsub/trap.txt');
    } finally {
      await fs.rm(trapBase, { recursive: true, force: true });
    }
  });
});

const rg = await locateRipgrep(true);

describe.skipIf(rg === undefined ? 'ripgrep (rg) is not on PATH: install it (apt-get install ripgrep) to run these tests' : false)('search_files with ripgrep picking the files', () => {
  it.each(QUERIES.map((input) => [JSON.stringify(input), input] as const))('answers %s with the same matches as the Node.js search', async (_, input) => {
    const [withRipgrep, withNode]: RunToolResult[] = await Promise.all([runTool(viaRipgrep, input, { session }), runTool(disk, input, { session })]);
    expect(withRipgrep.isError).toBe(false);
    // A single file is read directly; a folder goes through ripgrep.
    expect((withRipgrep.data as { engine: string }).engine).toBe(input.path === 'big/chunks.txt' ? 'node' : 'ripgrep');
    const data = (result: RunToolResult) => {
      const { matches, limitReached } = result.data as { matches: unknown[]; limitReached: boolean };
      return { matches, limitReached };
    };
    expect(data(withRipgrep)).toEqual(data(withNode));
    // The header counts the files ripgrep looked at; the notes name only files that may match.
    const body = (text: string): string[] => text.split('\n').slice(1).filter((line) => !line.startsWith('Not searched:'));
    expect(body(withRipgrep.text)).toEqual(body(withNode.text));
  });
});

describe.skipIf(rg === undefined ? 'ripgrep (rg) is not on PATH: install it (apt-get install ripgrep) to run these tests' : false)('the hand-off to ripgrep', () => {
  /** A tree of `files` small files in folders of 50, a rare marker in two of them. */
  const tree = async (files: number): Promise<string> => {
    const treeBase = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-search-hand-off-')));
    for (let folder = 0; folder < files / 50; folder += 1) {
      await fs.mkdir(path.join(treeBase, `m${String(folder).padStart(3, '0')}`));
      await Promise.all(
        Array.from({ length: 50 }, (_, file) =>
          fs.writeFile(path.join(treeBase, `m${String(folder).padStart(3, '0')}`, `f${file}.ts`), `export const value = ${file};\n${folder * 50 + file === 137 || folder * 50 + file === files - 20 ? 'rareMarker\n' : ''}`),
        ),
      );
    }
    return treeBase;
  };

  // `r[abc]reMarker`: three literals (`rareMarker`, `rbreMarker`, `rcreMarker`) cost the walk a pass each, so a
  // hand-off may pay; `rareMarker` itself, one literal, is walked on any tree.
  it.each([
    [1_000, 'r[abc]reMarker', 'node'],
    [4_000, 'r[abc]reMarker', 'ripgrep'],
    [4_000, 'rareMarker', 'node'],
  ])('on %i files, after 300 with sparse matches of %s: finishes a listed tree with under 3,000 files left itself (ten times the 300), else asks ripgrep when the prefilter cannot help (%s)', async (files, pattern, engine) => {
    const treeBase = await tree(files);
    try {
      const search = (ripgrep: boolean) => createReadTools({ workspace: new Workspace(treeBase), ripgrep }).find((candidate) => candidate.name === 'search_files')!;
      const [withRipgrep, withNode] = [await runTool(search(true), { pattern }, { session }), await runTool(search(false), { pattern }, { session })];
      expect((withRipgrep.data as { engine: string }).engine).toBe(engine);
      expect(withRipgrep.data).toMatchObject({ matches: (withNode.data as { matches: unknown }).matches });
      expect((withNode.data as { matches: unknown[] }).matches).toHaveLength(2);
    } finally {
      await fs.rm(treeBase, { recursive: true, force: true });
    }
  });
});

describe('find_files on a local workspace (a worker walks the disk)', () => {
  const globs = ['*.ts', '*.{md,txt}', 'src/**', 'a/**/*.js', 'link-*', '**/f1*', '*', 'nothing-*.xyz'];
  it.each(globs.map((glob) => [glob]))('answers `%s` exactly as walking through the workspace does', async (glob) => {
    // A glob's folder part missing below a path (`src/**` in `src`) lists nothing: counted over all three.
    const listed = throughWorkspace.listed;
    for (const path of [undefined, 'src', 'node_modules']) {
      const input = path === undefined ? { pattern: glob } : { pattern: glob, path };
      const [fromDisk, fromMethods] = await Promise.all([runTool(findOnDisk, input, { session }), runTool(findThrough, input, { session })]);
      expect(fromDisk.isError).toBe(false);
      expect(fromDisk.text).toBe(fromMethods.text);
      expect(fromDisk.data).toEqual(fromMethods.data);
    }
    expect(throughWorkspace.listed).toBeGreaterThan(listed);
  });

  it('lists links with their targets, never following them, and skips node_modules and .git', async () => {
    const result = await runTool(findOnDisk, { pattern: '*' }, { session });
    expect(result.text).toContain('\nlink-dir -> src\n');
    expect(result.text).toContain('\nlink-file.txt -> big/chunks.txt');
    expect(result.text).not.toMatch(/link-dir\/|node_modules\/|\.git\//);
  });

  it('answers exactly as walking through the workspace does on a tree large enough to share between two threads', async () => {
    const treeBase = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-find-shared-')));
    try {
      const next = random(11);
      for (let index = 0; index < 400; index += 1) {
        const folder = path.join(treeBase, `p${index % 7}`, `d${index}`, ...(next() < 0.5 ? ['deep'] : []));
        await fs.mkdir(folder, { recursive: true });
        await fs.writeFile(path.join(folder, `f${index}.${next() < 0.5 ? 'ts' : 'md'}`), '');
        if (index % 50 === 0) await fs.symlink('..', path.join(folder, `up${index}.ts`));
        if (index % 60 === 0) await fs.mkdir(path.join(folder, 'node_modules', 'x'), { recursive: true }).then(() => fs.writeFile(path.join(folder, 'node_modules', 'x', 'hidden.ts'), ''));
      }
      const onDisk = createReadTools({ workspace: new Workspace(treeBase) }).find((tool) => tool.name === 'find_files')!;
      const through = createReadTools({ workspace: new ThroughMethods(treeBase) }).find((tool) => tool.name === 'find_files')!;
      for (const pattern of ['*.ts', 'p3/**/*.md', 'up*', 'hidden.ts']) {
        const [fromDisk, fromMethods] = await Promise.all([runTool(onDisk, { pattern }, { session }), runTool(through, { pattern }, { session })]);
        expect(fromDisk.text).toBe(fromMethods.text);
        expect(fromDisk.data).toEqual(fromMethods.data);
      }
      expect((await runTool(onDisk, { pattern: 'up*' }, { session })).text.split('\n')[0]).toBe('Found 8 files matching `up*` in the workspace, newest first:');
    } finally {
      await fs.rm(treeBase, { recursive: true, force: true });
    }
  });

  it('answers, leaving out what it cannot look at, when a path is over PATH_MAX in either thread', async () => {
    const treeBase = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-find-long-')));
    try {
      // 64 folders: the worker lists the root, then gives every other folder to its walker thread.
      for (let index = 0; index < 64; index += 1) await fs.mkdir(path.join(treeBase, `d${String(index).padStart(2, '0')}`));
      const listed = readdirSync(treeBase);
      for (const folder of [listed[0]!, listed[1]!]) {
        // A folder whose path is just under PATH_MAX holding a file whose path is over it: listed, but lstat fails.
        const start = path.join(treeBase, folder);
        const level = 'd'.repeat(250);
        const levels = Math.floor((4_090 - start.length) / (level.length + 1));
        execFileSync('bash', ['-c', `cd "$1" && for i in $(seq ${levels}); do mkdir ${level} && cd ${level}; done && touch ${'f'.repeat(246)}.txt`, 'bash', start]);
      }
      await fs.writeFile(path.join(treeBase, 'd05', 'found.txt'), 'x');
      for (const workspace of [new Workspace(treeBase), new ThroughMethods(treeBase)]) {
        const find = createReadTools({ workspace }).find((tool) => tool.name === 'find_files')!;
        const result = await runTool(find, { pattern: '*.txt' }, { session, signal: AbortSignal.timeout(10_000) });
        expect(result.text).toBe('Found 1 file matching `*.txt` in the workspace, newest first:\nd05/found.txt');
      }
    } finally {
      // Node's fs.rm cannot remove a tree deeper than PATH_MAX; rm can.
      execFileSync('rm', ['-rf', treeBase]);
    }
  }, 30_000);

  it('gives up a walk cancelled half way, and the next find_files works', async () => {
    const controller = new AbortController();
    const walking = findInWorker({ start: root, root, skipped: [], include: globForWorker('*'), keep: 100 }, controller.signal);
    controller.abort();
    expect(await walking).toBeUndefined();
    expect((await runTool(findOnDisk, { pattern: 'chunks.txt' }, { session })).text).toBe('Found 1 file matching `chunks.txt` in the workspace, newest first:\nbig/chunks.txt');
  });
});

describe('search_files disk mode across searches', () => {
  it('a search stopped at its limit while the walker is far ahead leaves nothing behind for the next one', async () => {
    const treeBase = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-search-walker-')));
    try {
      for (let folder = 0; folder < 150; folder += 1) {
        const directory = path.join(treeBase, `d${String(folder).padStart(3, '0')}`, 'inner');
        await fs.mkdir(directory, { recursive: true });
        for (let file = 0; file < 20; file += 1) await fs.writeFile(path.join(directory, `f${file}.txt`), file % 2 === 0 ? 'even needle\n' : 'odd\n');
      }
      const tools = createReadTools({ workspace: new Workspace(treeBase), ripgrep: false });
      const tool = tools.find((candidate) => candidate.name === 'search_files')!;
      const find = tools.find((candidate) => candidate.name === 'find_files')!;
      for (let round = 0; round < 3; round += 1) {
        const first = await runTool(tool, { pattern: 'needle', limit: 1 }, { session });
        expect(first.text.split('\n').slice(0, 2)).toEqual(['1 file match `needle` (1 file searched in the workspace):', 'd000/inner/f0.txt']);
        // find_files shares the walker thread: batches the search left behind must not leak into it.
        expect((await runTool(find, { pattern: 'f1?.txt' }, { session })).text.split('\n')[0]).toBe(
          'Found 1,500 files matching `f1?.txt` in the workspace; the 100 newest:',
        );
        const all = await runTool(tool, { pattern: 'needle', mode: 'counts', limit: 1_000 }, { session });
        const lines = all.text.split('\n');
        expect(lines[0]).toBe('1,000 matching lines in 1,000 files for `needle` (1,999 files searched in the workspace):');
        expect(lines[1]).toBe('d000/inner/f0.txt: 1');
        expect(lines[2]).toBe('d000/inner/f10.txt: 1');
        const odd = await runTool(tool, { pattern: '^odd$', include: 'd14*/**/f1?.txt', mode: 'counts', limit: 1_000 }, { session });
        expect(odd.text.split('\n')[0]).toBe('50 matching lines in 50 files for `^odd$` (100 files searched in the workspace):');
      }
    } finally {
      await fs.rm(treeBase, { recursive: true, force: true });
    }
  });
});

describe('search_files with an include glob on a wide tree (the worker lists folders the walker gives it while it waits)', () => {
  it('answers exactly as reading through the workspace does, whichever thread listed a folder, and a walk cut short leaves nothing for the next', async () => {
    const treeBase = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-search-shared-')));
    try {
      const next = random(17);
      for (let top = 0; top < 120; top += 1) {
        const folder = path.join(treeBase, `p${String(top).padStart(3, '0')}`);
        await fs.mkdir(path.join(folder, 'a', 'b'), { recursive: true });
        await fs.mkdir(path.join(folder, 'z'), { recursive: true });
        const line = (): string => (next() < 0.4 ? 'a needle here\n' : 'hay\n');
        await fs.writeFile(path.join(folder, 'README.md'), line() + line());
        await fs.writeFile(path.join(folder, 'x.ts'), 'needle\n');
        await fs.writeFile(path.join(folder, 'a', 'doc.md'), line());
        await fs.writeFile(path.join(folder, 'a', 'b', 'deep.md'), next() < 0.1 ? Buffer.from([0x6e, 0, 0x65]) : line());
        await fs.writeFile(path.join(folder, 'z', 'n.md'), next() < 0.1 ? Buffer.from('needle caf\xe9\n', 'latin1') : line());
      }
      const onDisk = createReadTools({ workspace: new Workspace(treeBase), ripgrep: false }).find((tool) => tool.name === 'search_files')!;
      const throughMethods = createReadTools({ workspace: new ThroughMethods(treeBase) }).find((tool) => tool.name === 'search_files')!;
      const queries: Record<string, unknown>[] = [
        { pattern: 'needle', include: '*.md', limit: 1_000 },
        { pattern: 'needle', include: '*.md', mode: 'lines', limit: 1_000 },
        { pattern: 'needle|hay', include: '*.md', mode: 'counts', limit: 1_000 },
        { pattern: 'no such text', include: '*.md' },
        { pattern: 'needle', include: 'p0[4-9]*/**/*.md', mode: 'lines', limit: 1_000 },
        { pattern: 'needle', include: '*.md', path: 'p050', mode: 'lines' },
      ];
      for (let round = 0; round < 4; round += 1) {
        for (const input of queries) {
          const [fromDisk, fromMethods] = [await runTool(onDisk, input, { session }), await runTool(throughMethods, input, { session })];
          expect([input, fromDisk.text]).toEqual([input, fromMethods.text]);
        }
        // Cut at the limit while folders were given: the first matches in walk order, and the next walk is whole.
        const cut = await runTool(onDisk, { pattern: 'needle', include: '*.md', mode: 'lines', limit: 25 }, { session });
        const whole = await runTool(throughMethods, { pattern: 'needle', include: '*.md', mode: 'lines', limit: 1_000 }, { session });
        const lines = (result: RunToolResult): { path: string; lines?: unknown[] }[] => (result.data as { matches: { path: string; lines?: unknown[] }[] }).matches;
        expect(lines(cut).flatMap((match) => (match.lines ?? []).map((line) => [match.path, line])).slice(0, 25)).toEqual(
          lines(whole).flatMap((match) => (match.lines ?? []).map((line) => [match.path, line])).slice(0, 25),
        );
      }
    } finally {
      await fs.rm(treeBase, { recursive: true, force: true });
    }
  });
});

describe('walkFiles', () => {
  it('yields the same files in the same order as a plain depth-first walk, while listing ahead', async () => {
    const reference: string[] = [];
    const visit = async (folder: string, fromStart: string): Promise<void> => {
      const entries = (await fs.readdir(folder, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const subfolders: string[] = [];
      for (const entry of entries) {
        const relative = fromStart === '' ? entry.name : `${fromStart}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!['node_modules', '.git'].includes(entry.name)) subfolders.push(entry.name);
        } else reference.push(`${relative}${entry.isSymbolicLink() ? ' (link)' : ''}`);
      }
      for (const name of subfolders) await visit(path.join(folder, name), fromStart === '' ? name : `${fromStart}/${name}`);
    };
    await visit(root, '');
    const walked: string[] = [];
    for await (const file of walkFiles(new Workspace(root), root, ['node_modules', '.git'], { unreadable: [] })) walked.push(`${file.fromStart}${file.isLink ? ' (link)' : ''}`);
    expect(walked).toEqual(reference);
    expect(walked).toContain('link-dir (link)');
  });
});
