import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { remoteSuite } from '../../../test/remote/test-workspace.js';
import { makeReadKit, type ReadKit } from './test-support/read-kit.js';

let kit: ReadKit;
beforeEach(async () => {
  kit = await makeReadKit();
});
afterEach(async () => {
  await kit.cleanup();
});

const at = (minutesAgo: number): Date => new Date(Date.now() - minutesAgo * 60_000);

describe('globs whose matching could take hours', () => {
  it('refuses more than 3 `*` in one path segment, before any file is matched, and matches 3 in milliseconds', async () => {
    // Backtracking makes `*a*a*a*a*b` take minutes on one 255-character name of "a"s, blocking the process.
    await kit.put('a'.repeat(250), '');
    const refusal = 'has more than 3 `*` wildcards in one path segment, which can make matching a long name take hours. Use at most 3 per segment, such as "*foo*bar*", or narrow the search with path.';
    const started = Date.now();
    expect(await kit.run('find_files', { pattern: '*a*a*a*a*b' })).toMatchObject({ isError: true, text: `\`pattern\` ${refusal}` });
    expect(await kit.run('search_files', { pattern: 'x', include: 'src/?*?*?*?*b' })).toMatchObject({ isError: true, text: `\`include\` ${refusal}` });
    expect((await kit.run('find_files', { pattern: '*a*a*b' })).text).toMatch(/^No files match/);
    expect((await kit.run('find_files', { pattern: '**/**/*a*a*' })).text).toMatch(/^Found 1 file/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('find_files', () => {
  it('lists matches newest first, paths relative to the workspace root', async () => {
    await kit.put('src/old.ts', '', at(30));
    await kit.put('src/deep/newest.ts', '', at(1));
    await kit.put('middle.ts', '', at(10));
    await kit.put('notes.md', '', at(0));
    const result = await kit.run('find_files', { pattern: '*.ts' });
    expect(result.isError).toBe(false);
    expect(result.text).toBe('Found 3 files matching `*.ts` in the workspace, newest first:\nsrc/deep/newest.ts\nmiddle.ts\nsrc/old.ts');
    expect((result.data as { files: { path: string }[] }).files.map((file) => file.path)).toEqual(['src/deep/newest.ts', 'middle.ts', 'src/old.ts']);
  });

  it('matches a pattern with a slash against paths relative to the folder searched', async () => {
    await kit.put('src/a.test.ts', '', at(2));
    await kit.put('src/lib/b.test.ts', '', at(1));
    await kit.put('test/c.test.ts', '', at(0));
    expect((await kit.run('find_files', { pattern: 'src/**/*.test.ts' })).text).toBe(
      'Found 2 files matching `src/**/*.test.ts` in the workspace, newest first:\nsrc/lib/b.test.ts\nsrc/a.test.ts',
    );
    expect((await kit.run('find_files', { pattern: 'lib/*.ts', path: 'src' })).text).toBe(
      'Found 1 file matching `lib/*.ts` in `src`, newest first:\nsrc/lib/b.test.ts',
    );
    // A leading "./" or "/" means the folder searched.
    expect((await kit.run('find_files', { pattern: '/src/*.ts' })).text).toBe('Found 1 file matching `/src/*.ts` in the workspace, newest first:\nsrc/a.test.ts');
    expect((await kit.run('find_files', { pattern: './src/*.ts' })).text).toContain('\nsrc/a.test.ts');
  });

  it('shows at most 100 files and says how many more matched', async () => {
    for (let index = 0; index < 150; index += 1) await kit.put(`many/f${String(index).padStart(3, '0')}.txt`, '', at(index));
    const result = await kit.run('find_files', { pattern: '*.txt' });
    const lines = result.text.split('\n');
    expect(lines[0]).toBe('Found 150 files matching `*.txt` in the workspace; the 100 newest:');
    expect(lines.slice(1, 101)).toEqual(Array.from({ length: 100 }, (_, index) => `many/f${String(index).padStart(3, '0')}.txt`));
    expect(lines[101]).toBe('… 50 more matched and are not shown. Narrow the pattern or give a path.');
    expect(lines).toHaveLength(102);
  });

  it('does not enter .git, node_modules, bin, obj or .toolbelt, unless the search starts inside one', async () => {
    await kit.put('src/index.js', '');
    for (const folder of ['.git', 'node_modules/pkg', 'bin', 'obj', '.toolbelt/output', 'src/node_modules']) await kit.put(`${folder}/hidden.js`, '');
    expect((await kit.run('find_files', { pattern: '*.js' })).text).toBe('Found 1 file matching `*.js` in the workspace, newest first:\nsrc/index.js');
    expect((await kit.run('find_files', { pattern: '*.js', path: 'node_modules' })).text).toBe(
      'Found 1 file matching `*.js` in `node_modules`, newest first:\nnode_modules/pkg/hidden.js',
    );
    expect((await kit.run('find_files', { pattern: '*.js', path: '.toolbelt' })).text).toContain('.toolbelt/output/hidden.js');
  });

  it('finds dotfiles', async () => {
    await kit.put('.env.example', '');
    expect((await kit.run('find_files', { pattern: '.env*' })).text).toContain('\n.env.example');
  });

  it('never follows a link to a folder outside, so no name inside it leaks', async () => {
    await fs.mkdir(path.join(kit.outside, 'private'));
    await fs.writeFile(path.join(kit.outside, 'private', 'secret-name.txt'), 'x');
    await fs.symlink(kit.outside, path.join(kit.root, 'escape'));
    await fs.symlink(kit.root, path.join(kit.root, 'loop'));
    await kit.put('inside.txt', '');
    const result = await kit.run('find_files', { pattern: '*.txt' });
    expect(result.text).toBe('Found 1 file matching `*.txt` in the workspace, newest first:\ninside.txt');
    expect(result.text).not.toContain('secret');
    const all = await kit.run('find_files', { pattern: '**' });
    expect(all.text).not.toContain('secret');
    expect(all.text).toContain(`escape -> ${kit.outside}`);
    const through = await kit.run('find_files', { pattern: '*', path: 'escape' });
    expect(through.isError).toBe(true);
    expect(through.text).toContain('leads outside the workspace through a symbolic link');
  });

  it('lists a link to a file as a link, without following it', async () => {
    await kit.put('real.md', '');
    await fs.symlink('real.md', path.join(kit.root, 'alias.md'));
    const result = await kit.run('find_files', { pattern: 'alias*' });
    expect(result.text).toBe('Found 1 file matching `alias*` in the workspace, newest first:\nalias.md -> real.md');
  });

  it('answers no match with a hint, and refuses bad paths', async () => {
    await kit.put('src/a.ts', '');
    expect((await kit.run('find_files', { pattern: '*.py' })).text).toBe(
      'No files match `*.py` in the workspace (1 file looked at). Try a broader pattern such as "*name*", or search contents with search_files.',
    );
    expect((await kit.run('find_files', { pattern: 'src/*.ts', path: 'src' })).text).toBe(
      'No files match `src/*.ts` in `src` (0 files looked at). A pattern with "/" matches paths relative to the folder searched (`src`); try "**/*.ts" to match the name at any depth.',
    );
    expect((await kit.run('find_files', { pattern: '*', path: 'src/a.ts' })).text).toBe('`src/a.ts` is a file, not a folder.');
    expect((await kit.run('find_files', { pattern: '*', path: 'src/nope' })).text).toBe('The folder `src/nope` does not exist. Check the path with list_directory.');
    expect((await kit.run('find_files', { pattern: '*', path: '../outside' })).isError).toBe(true);
    expect((await kit.run('find_files', { pattern: '' })).text).toMatch(/^Invalid arguments for find_files: `pattern`: /);
  });

  // The search worker, not the workspace, finds out whether the folder is one: it says so and
  // the workspace's own words follow.
  it('follows a link to a folder inside, and names the folder that is gone, the root included', async () => {
    await kit.put('src/a.ts', '');
    await fs.symlink('src', path.join(kit.root, 'linked'));
    expect((await kit.run('find_files', { pattern: '*.ts', path: 'linked' })).text).toBe('Found 1 file matching `*.ts` in `src`, newest first:\nsrc/a.ts');
    await fs.rm(path.join(kit.root, 'src'), { recursive: true });
    expect((await kit.run('find_files', { pattern: '*.ts', path: 'linked' })).text).toBe('The folder `src` does not exist. Check the path with list_directory.');
    await fs.rm(kit.root, { recursive: true });
    // In a box the root is a mount of this folder: removed here, it stays there, empty.
    expect((await kit.run('find_files', { pattern: '*.ts' })).text).toBe(
      remoteSuite()
        ? 'No files match `*.ts` in the workspace (0 files looked at). Try a broader pattern such as "*name*", or search contents with search_files.'
        : 'The folder `.` does not exist. Check the path with list_directory.',
    );
  });
});
