import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APP_TEXT, makeSalvageKit } from '../test-support/salvage-kit.js';
import { listTree, type WriteKit } from '../test-support/write-kit.js';

let kit: WriteKit;
beforeEach(async () => (kit = await makeSalvageKit()));
afterEach(() => kit.cleanup());

const create = (file: string) => kit.run('create_file', { path: file, content: 'new\n' });

describe('a path that names something new is never cleaned up: refused with the path meant', () => {
  it.each([
    ['a trailing space', 'src/new.ts ', '`"src/new.ts "` has whitespace at the start or end of a name', 'src/new.ts'],
    ['a trailing line break', 'src/new.ts\n', '`"src/new.ts\\n"` has whitespace at the start or end of a name', 'src/new.ts'],
    ['a space after a folder name', 'src /new.ts', '`src /new.ts` has whitespace at the start or end of a name', 'src/new.ts'],
    ['a control character inside', 'src/ne\u0007w.ts', '`"src/ne\\u0007w.ts"` holds a control character (a line break, a tab or another invisible character)', 'src/new.ts'],
    ['`\\`', 'src\\new.ts', '`src\\new.ts` holds `\\`, which on this system is a character of the name, not a folder separator', 'src/new.ts'],
    ['`~/`', '~/new.ts', '`~/new.ts` starts with `~`, which is not expanded here (paths are relative to the workspace root)', 'new.ts'],
    ['`%20`', 'my%20notes.txt', '`my%20notes.txt` holds `%XX` URL escapes, which a file name would keep as they are (paths are sent as plain text)', 'my notes.txt'],
  ])('%s', async (_name, sent, reason, meant) => {
    const result = await create(sent);
    expect(result.isError).toBe(true);
    expect(result.text).toBe(`${reason}, so create_file did nothing. If you meant \`${meant}\`, call create_file with path \`${meant}\`.`);
    expect(await listTree(kit.root)).toEqual(['src', 'src/app.ts']);
  });

  it('names every problem at once, and says when the path meant exists already', async () => {
    const result = await create('src\\app.ts\n');
    expect(result.text).toBe(
      '`"src\\\\app.ts\\n"` has whitespace at the start or end of a name and holds `\\`, which on this system is a character of the name, not a folder separator, so create_file did nothing. If you meant `src/app.ts`, call create_file with path `src/app.ts`. (It exists already: to change it, read it with read_file and use edit_file.)',
    );
  });

  it('`~/…` through a folder named like the root: the part after it', async () => {
    const name = path.basename(kit.workspace.root);
    expect((await create(`~/code/${name}/src/new.ts`)).text).toContain('If you meant `code/' + name + '/src/new.ts`');
    expect((await create(`~/${name}/src/new.ts`)).text).toContain('If you meant `src/new.ts`, call create_file with path `src/new.ts`.');
  });

  it('an absolute path outside the workspace through a folder named like the root', async () => {
    const name = path.basename(kit.workspace.root);
    const result = await create(`/home/someone/${name}/src/new.ts`);
    expect(result.text).toBe(
      `\`/home/someone/${name}/src/new.ts\` is outside the workspace: paths are relative to its root, \`${kit.workspace.root}\`, so create_file did nothing. If you meant \`src/new.ts\` in the workspace, call create_file with path \`src/new.ts\`.`,
    );
  });

  it('a path ending in `/`: create_file makes files', async () => {
    const result = await create('lib/');
    expect(result.text).toBe(
      '`lib/` ends with `/`, which names a folder, but create_file makes files (it would make a file of that folder name), so create_file did nothing. Call create_file with path set to the new file\'s whole path, such as `lib/new-file.txt`.',
    );
    expect(await listTree(kit.root)).toEqual(['src', 'src/app.ts']);
  });

  it('the NFC twin of an existing NFD file', async () => {
    await kit.put('docs/cafe\u0301.md', 'nfd\n');
    const result = await create('docs/caf\u00e9.md');
    expect(result.text).toBe(
      '`docs/caf\\u00e9.md` would stand beside the existing `docs/cafe\\u0301.md`, the same name in another Unicode form (NFC and NFD; macOS writes names in NFD): the two would look identical but be different files, so create_file did nothing. To change the existing file, read it with read_file and change it with edit_file (path `docs/cafe\\u0301.md`, or your spelling, finds it); for a new file, choose a name that differs in its letters.',
    );
    expect(await listTree(path.join(kit.root, 'docs'))).toEqual(['cafe\u0301.md']);
  });

  it('a new file under the twin of an existing folder: the path through that folder', async () => {
    await kit.put('caf\u00e9/menu.md', 'menu\n');
    const result = await create('cafe\u0301/new.md');
    expect(result.text).toContain('call create_file with path `caf\\u00e9/new.md` (written with these \\u escapes in JSON).');
    expect(await listTree(kit.root)).toEqual(['caf\u00e9', 'caf\u00e9/menu.md', 'src', 'src/app.ts']);
  });
});

describe('new paths that are fine as they are', () => {
  it.each([['100%.txt'], ['~draft.txt'], ['notes/meeting notes.txt'], ['docs/caf\u00e9.md'], ['src/util/strings.ts']])('%s is created as sent', async (file) => {
    const result = await create(file);
    expect(result.isError).toBe(false);
    expect(await kit.text(file)).toBe('new\n');
  });

  it('an existing folder with an odd name is used as it is', async () => {
    await fs.mkdir(path.join(kit.root, 'odd%20name '));
    const result = await create('odd%20name /file.txt');
    expect(result.isError).toBe(false);
    expect(await kit.text('odd%20name /file.txt')).toBe('new\n');
  });
});

describe('move_file: the destination is a new path, the source a looked-up one', () => {
  it('a destination ending in `/`: the path inside that folder', async () => {
    const result = await kit.run('move_file', { source: 'src/app.ts', destination: 'lib/' });
    expect(result.text).toBe(
      '`lib/` ends with `/`, which names a folder, but the destination is the whole new path (it would become a file of that folder name), so move_file did nothing. If you meant `lib/app.ts`, call move_file with destination `lib/app.ts`.',
    );
    expect(await listTree(kit.root)).toEqual(['src', 'src/app.ts']);
  });

  it('a destination with `\\`, even when the source is salvaged', async () => {
    const result = await kit.run('move_file', { source: 'src\\app.ts', destination: 'lib\\app.ts' });
    expect(result.text).toContain('call move_file with destination `lib/app.ts`.');
    expect(await listTree(kit.root)).toEqual(['src', 'src/app.ts']);
  });

  it('an existing folder as destination keeps its own reply', async () => {
    await fs.mkdir(path.join(kit.root, 'lib'));
    const result = await kit.run('move_file', { source: 'src/app.ts', destination: 'lib/' });
    expect(result.text).toBe('`lib` is an existing folder, and move_file never overwrites. To move into it, give the full new path, such as `lib/app.ts`.');
  });

  it('the twin of an existing name as destination', async () => {
    await kit.put('docs/cafe\u0301.md', 'nfd\n');
    const result = await kit.run('move_file', { source: 'src/app.ts', destination: 'docs/caf\u00e9.md' });
    expect(result.text).toContain('It exists already, and move_file never overwrites: choose a destination that differs in its letters.');
    expect(await kit.text('src/app.ts')).toBe(APP_TEXT);
  });
});
