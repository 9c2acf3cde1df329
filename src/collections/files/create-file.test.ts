import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Workspace, type AtomicWriteOptions } from '../../workspace/workspace.js';
import { listTree, makeWriteKit, type WriteKit } from './test-support/write-kit.js';

let kit: WriteKit;
afterEach(async () => {
  await kit.cleanup();
});

describe('create_file', () => {
  it('creates a file and its missing parent folders; the next edit needs no read', async () => {
    kit = await makeWriteKit();
    const result = await kit.run('create_file', { path: 'src/deep/new.ts', content: 'export const a = 1;\nexport const b = 2;\n' });
    expect(result).toMatchObject({ isError: false, text: 'Created `src/deep/new.ts` (2 lines, 40 characters).' });
    expect(await kit.text('src/deep/new.ts')).toBe('export const a = 1;\nexport const b = 2;\n');
    const edit = await kit.run('edit_file', { path: 'src/deep/new.ts', old_string: 'b = 2', new_string: 'b = 3' });
    expect(edit.isError).toBe(false);
  });

  it('never overwrites an existing file', async () => {
    kit = await makeWriteKit();
    await kit.put('a.txt', 'original\n');
    const result = await kit.run('create_file', { path: 'a.txt', content: 'new' });
    expect(result).toMatchObject({ isError: true });
    expect(result.text).toBe(
      '`a.txt` already exists, and create_file never overwrites. To change it, read it with read_file and use edit_file (or write_file to replace it whole); to keep it, choose another path.',
    );
    expect(await kit.text('a.txt')).toBe('original\n');
  });

  it('never overwrites a file that appears between its check and its write', async () => {
    // A workspace whose write is preceded by someone else creating the file: the race, made certain.
    class RacingWorkspace extends Workspace {
      override async writeFileAtomic(absolute: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
        await fs.writeFile(absolute, 'written by someone else\n');
        return super.writeFileAtomic(absolute, data, options);
      }
    }
    kit = await makeWriteKit({ workspace: (root) => new RacingWorkspace(root) });
    const result = await kit.run('create_file', { path: 'race.txt', content: 'from the model\n' });
    expect(result.text).toBe(
      '`race.txt` already exists, and create_file never overwrites. To change it, read it with read_file and use edit_file (or write_file to replace it whole); to keep it, choose another path.',
    );
    expect(await kit.text('race.txt')).toBe('written by someone else\n');
    expect(await listTree(kit.root)).toEqual(['race.txt']);
  });

  it('refuses a path where a link, even a dangling one, already stands', async () => {
    kit = await makeWriteKit();
    await fs.symlink('missing-target.txt', path.join(kit.root, 'dangling.txt'));
    const result = await kit.run('create_file', { path: 'dangling.txt', content: 'x' });
    expect(result.isError).toBe(true);
    expect(await listTree(kit.root)).toEqual(['dangling.txt']);
  });

  it('refuses a folder, a file standing where a parent must be, the private folder and paths outside', async () => {
    kit = await makeWriteKit();
    await kit.put('docs/readme.md', 'x');
    expect((await kit.run('create_file', { path: 'docs', content: 'x' })).text).toBe(
      '`docs` already exists as a folder, so create_file did nothing. Give the path of the new file inside it, such as `docs/new-file.txt`.',
    );
    expect((await kit.run('create_file', { path: 'docs/readme.md/inner.txt', content: 'x' })).text).toBe(
      'Cannot make `docs/readme.md/inner.txt`: a file stands where one of its parent folders must be (docs/readme.md). Choose another path.',
    );
    expect((await kit.run('create_file', { path: '.toolbelt/notes/n.md', content: 'x' })).text).toContain("is inside the workspace's private folder `.toolbelt/`");
    expect((await kit.run('create_file', { path: '../outside/x.txt', content: 'x' })).text).toContain('is outside the workspace');
    expect(await listTree(kit.root)).toEqual(['docs', 'docs/readme.md']);
    expect(await listTree(kit.outside)).toEqual([]);
  });

  it('refuses a parent folder that is a link out of the workspace, writing nothing there', async () => {
    kit = await makeWriteKit();
    await fs.symlink(kit.outside, path.join(kit.root, 'escape'));
    await fs.symlink('escape', path.join(kit.root, 'chain'));
    for (const target of ['escape/x.txt', 'chain/deeper/x.txt']) {
      const result = await kit.run('create_file', { path: target, content: 'x' });
      expect(result.text).toBe(`\`${target}\` leads outside the workspace through a symbolic link, so it cannot be used. Work with files inside the workspace.`);
    }
    const moved = await kit.run('move_file', { source: 'escape', destination: 'chain/moved' });
    expect(moved.isError).toBe(true);
    expect(await listTree(kit.outside)).toEqual([]);
  });

  it('runs without approval by default and is refused in plan mode', async () => {
    kit = await makeWriteKit();
    const { runTool } = await import('../../run-tool.js');
    expect((await runTool(kit.tools.create_file, { path: 'a.txt', content: '' }, { session: kit.session })).isError).toBe(false);
    const plan = await runTool(kit.tools.create_file, { path: 'b.txt', content: '' }, { session: kit.session, mode: 'plan' });
    expect(plan.isError).toBe(true);
    expect(await listTree(kit.root)).toEqual(['a.txt']);
  });
});
