import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeReadKit, type ReadKit } from './test-support/read-kit.js';

let kit: ReadKit;
afterEach(async () => {
  await kit.cleanup();
});

describe('names with line breaks and other control characters', () => {
  it('are shown quoted and escaped by list_directory, find_files and search_files, so a name cannot forge entries', async () => {
    kit = await makeReadKit();
    const forged = 'real.txt\nfake.txt (3 bytes)';
    await kit.put(forged, 'needle\n');
    await kit.put('rtl\u202Etxt.exe', 'needle\n');
    await fs.symlink('x\ny', path.join(kit.root, 'link'));
    const shownForged = '"real.txt\\nfake.txt (3 bytes)"';
    const shownRtl = '"rtl\\u202etxt.exe"';
    expect((await kit.run('list_directory', {})).text).toBe(
      ['Entries of the workspace root (0 folders, 2 files, 1 link):', 'link -> "x\\ny"', `${shownForged} (7 bytes)`, `${shownRtl} (7 bytes)`].join('\n'),
    );
    expect((await kit.run('find_files', { pattern: '*.*' })).text.split('\n').slice(1).sort()).toEqual([shownForged, shownRtl]);
    expect((await kit.run('search_files', { pattern: 'needle' })).text.split('\n').slice(1)).toEqual([shownForged, shownRtl]);
    expect((await kit.run('read_file', { path: forged })).text).toBe(`${shownForged}: line 1 of 1 (end of file).\n1: needle`);
  });
});

describe('list_directory', () => {
  it('lists folders first as name/, then files with their sizes, and links as links', async () => {
    kit = await makeReadKit();
    await kit.put('b.txt', 'hello');
    await kit.put('a.txt', 'x');
    await kit.put('zeta/inner.txt', 'not listed');
    await fs.mkdir(path.join(kit.root, 'alpha'));
    await fs.symlink(kit.outside, path.join(kit.root, 'escape'));
    await fs.writeFile(path.join(kit.outside, 'secret-name.txt'), 'x');
    const result = await kit.run('list_directory', {});
    expect(result.isError).toBe(false);
    expect(result.text).toBe(
      ['Entries of the workspace root (2 folders, 2 files, 1 link):', 'alpha/', 'zeta/', 'a.txt (1 byte)', 'b.txt (5 bytes)', `escape -> ${kit.outside}`].join('\n'),
    );
    expect(result.text).not.toContain('secret');
    expect((result.data as { entries: unknown[] }).entries).toEqual([
      { name: 'alpha', type: 'folder' },
      { name: 'zeta', type: 'folder' },
      { name: 'a.txt', type: 'file', size: 1 },
      { name: 'b.txt', type: 'file', size: 5 },
      { name: 'escape', type: 'link', target: kit.outside },
    ]);
  });

  it('lists a subfolder and says when one is empty', async () => {
    kit = await makeReadKit();
    await kit.put('src/index.ts', 'export {};\n');
    await fs.mkdir(path.join(kit.root, 'empty'));
    expect((await kit.run('list_directory', { path: 'src' })).text).toBe('Entries of `src/` (0 folders, 1 file):\nindex.ts (11 bytes)');
    expect((await kit.run('list_directory', { path: 'empty' })).text).toBe('`empty/` is empty.');
    // A blank path, as some models send for "the root", lists the root.
    expect((await kit.run('list_directory', { path: '' })).text).toBe('Entries of the workspace root (2 folders, 0 files):\nempty/\nsrc/');
  });

  it('cuts a long listing at the read limit and says how many entries were left out', async () => {
    kit = await makeReadKit({ maxReadCharacters: 1_000 });
    for (let index = 0; index < 200; index += 1) await kit.put(`many/file-${String(index).padStart(3, '0')}.txt`, '');
    const result = await kit.run('list_directory', { path: 'many' });
    expect(result.text.length).toBeLessThanOrEqual(1_000);
    const lines = result.text.split('\n');
    const shown = lines.length - 2;
    expect(lines[0]).toBe('Entries of `many/` (0 folders, 200 files):');
    expect(lines[1]).toBe('file-000.txt (0 bytes)');
    expect(lines.at(-1)).toBe(
      `… ${200 - shown} more entries not shown (the reply limit is 1,000 characters). Use find_files with a pattern to narrow the list.`,
    );
    expect((result.data as { omitted: number }).omitted).toBe(200 - shown);
  });

  it('refuses a file, a missing folder and paths outside the workspace', async () => {
    kit = await makeReadKit();
    await kit.put('a.txt', 'x');
    expect((await kit.run('list_directory', { path: 'a.txt' })).text).toBe('`a.txt` is a file, not a folder.');
    expect((await kit.run('list_directory', { path: 'nope' })).text).toBe('The folder `nope` does not exist. Check the path with list_directory.');
    const outside = await kit.run('list_directory', { path: '..' });
    expect(outside).toMatchObject({ isError: true, text: '`..` is outside the workspace. Use a path relative to the workspace root, such as `src/index.ts`.' });
    await fs.symlink(kit.outside, path.join(kit.root, 'escape'));
    const through = await kit.run('list_directory', { path: 'escape' });
    expect(through.isError).toBe(true);
    expect(through.text).toContain('leads outside the workspace through a symbolic link');
  });
});
