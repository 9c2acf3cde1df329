import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathError } from '../src/errors/path-error.js';
import { WorkspaceError } from '../src/errors/workspace-error.js';
import { Workspace } from '../src/workspace/workspace.js';

/**
 * The path jail, attacked one way per test. Each attack asserts the exact refusal and that
 * nothing outside the workspace was read or written.
 */
let base: string;
let root: string;
let outside: string;
let workspace: Workspace;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-jail-')));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  await fs.mkdir(path.join(root, 'src'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(root, 'src', 'a.ts'), 'inside\n');
  await fs.writeFile(path.join(outside, 'secret.txt'), 'secret\n');
  workspace = new Workspace(root);
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

async function refusal(input: string, options?: { followFinalLink?: boolean }): Promise<PathError> {
  const error = await workspace.resolve(input, options).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PathError);
  return error as PathError;
}

async function outsideUntouched(): Promise<void> {
  expect(await fs.readdir(outside)).toEqual(['secret.txt']);
  expect(await fs.readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
}

describe('Workspace root', () => {
  it('resolves a root behind a symbolic link to its canonical path', async () => {
    const alias = path.join(base, 'alias');
    await fs.symlink(root, alias);
    const aliased = new Workspace(alias);
    expect(aliased.root).toBe(root);
    expect((await aliased.resolve(path.join(alias, 'src/a.ts'))).absolute).toBe(path.join(root, 'src/a.ts'));
  });

  it('throws naming a missing root', () => {
    expect(() => new Workspace(path.join(base, 'nope'))).toThrow(WorkspaceError);
    expect(() => new Workspace(path.join(base, 'nope'))).toThrow(`The workspace root \`${path.join(base, 'nope')}\` does not exist.`);
  });

  it('throws for a blank root', () => {
    expect(() => new Workspace('  ')).toThrow('Expected the workspace root to be a folder path, got "  ".');
  });

  it('throws for a root that is a file', () => {
    expect(() => new Workspace(path.join(root, 'src/a.ts'))).toThrow('is not a folder');
  });
});

describe('Workspace.resolve accepts paths inside', () => {
  it('resolves relative and absolute paths to the canonical path', async () => {
    const relative = await workspace.resolve('src/a.ts');
    expect(relative).toEqual({ absolute: path.join(root, 'src/a.ts'), relative: 'src/a.ts', exists: true });
    expect((await workspace.resolve(path.join(root, 'src/a.ts'))).relative).toBe('src/a.ts');
    expect((await workspace.resolve('.')).relative).toBe('.');
    expect((await workspace.resolve('src/../src/./a.ts')).relative).toBe('src/a.ts');
  });

  it('allows a path that does not exist yet', async () => {
    expect(await workspace.resolve('new/deep/file.txt')).toEqual({
      absolute: path.join(root, 'new/deep/file.txt'),
      relative: 'new/deep/file.txt',
      exists: false,
    });
  });

  it('follows a link that stays inside, and a chain of them', async () => {
    await fs.symlink('src', path.join(root, 'link1'));
    await fs.symlink('link1/a.ts', path.join(root, 'link2'));
    await fs.symlink(path.join(root, 'link2'), path.join(root, 'link3'));
    expect((await workspace.resolve('link3')).relative).toBe('src/a.ts');
  });

  it('acts on a final link itself when asked to', async () => {
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'out-link'));
    expect((await workspace.resolve('out-link', { followFinalLink: false })).relative).toBe('out-link');
  });
});

describe('Workspace.resolve refuses', () => {
  it('`..` out of the root', async () => {
    const error = await refusal('../outside/secret.txt');
    expect(error.reason).toBe('outside');
    expect(error.message).toBe('`../outside/secret.txt` is outside the workspace. Use a path relative to the workspace root, such as `src/index.ts`.');
    await outsideUntouched();
  });

  it('`..` hidden after a folder', async () => {
    expect((await refusal('src/../../outside/secret.txt')).reason).toBe('outside');
  });

  it('an absolute path outside', async () => {
    expect((await refusal(path.join(outside, 'secret.txt'))).reason).toBe('outside');
    expect((await refusal('/etc/passwd')).reason).toBe('outside');
  });

  it('a sibling folder whose name starts with the root name', async () => {
    const sibling = `${root}-evil`;
    await fs.mkdir(sibling);
    await fs.writeFile(path.join(sibling, 'x.txt'), 'x');
    expect((await refusal(path.join(sibling, 'x.txt'))).reason).toBe('outside');
    expect((await refusal('../root-evil/x.txt')).reason).toBe('outside');
  });

  it('a symbolic link to a file outside', async () => {
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'leak'));
    const error = await refusal('leak');
    expect(error.reason).toBe('link-outside');
    expect(error.message).toBe('`leak` leads outside the workspace through a symbolic link, so it cannot be used. Work with files inside the workspace.');
    await outsideUntouched();
  });

  it('a symbolic link to a folder outside, used as a parent', async () => {
    await fs.symlink(outside, path.join(root, 'out'));
    expect((await refusal('out/secret.txt')).reason).toBe('link-outside');
    expect((await refusal('out/new-file.txt')).reason).toBe('link-outside');
    await outsideUntouched();
  });

  it('a chain of links whose last hop leads out', async () => {
    await fs.symlink(outside, path.join(root, 'hop2'));
    await fs.symlink('hop2', path.join(root, 'hop1'));
    await fs.symlink('src/../hop1', path.join(root, 'hop0'));
    expect((await refusal('hop0/secret.txt')).reason).toBe('link-outside');
  });

  it('a link out reached by `..` after a folder that does not exist', async () => {
    // `nope/../out` is `out` to the file system: the part after a missing folder is still checked.
    await fs.symlink(outside, path.join(root, 'out'));
    expect((await refusal('nope/../out/secret.txt')).reason).toBe('link-outside');
    expect((await refusal('nope/deeper/../../out/new-file.txt')).reason).toBe('link-outside');
    await fs.symlink('missing-target', path.join(root, 'dangling-inside'));
    expect((await refusal('dangling-inside/../out/new-file.txt')).reason).toBe('link-outside');
    expect((await refusal('nope/../../outside/secret.txt')).reason).toBe('outside');
    await outsideUntouched();
  });

  it('a relative link target that climbs out', async () => {
    await fs.symlink('../../outside/secret.txt', path.join(root, 'src', 'rel'));
    expect((await refusal('src/rel')).reason).toBe('link-outside');
  });

  it('a dangling link that points outside', async () => {
    await fs.symlink(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling'));
    expect((await refusal('dangling')).reason).toBe('link-outside');
    await outsideUntouched();
  });

  it('a link loop, without hanging', async () => {
    await fs.symlink('loop-b', path.join(root, 'loop-a'));
    await fs.symlink('loop-a', path.join(root, 'loop-b'));
    await fs.symlink('self', path.join(root, 'self'));
    const error = await refusal('loop-a/x');
    expect(error.reason).toBe('link-loop');
    expect(error.message).toBe('`loop-a/x` goes through a loop of symbolic links (more than 40 hops). Use another path.');
    expect((await refusal('self')).reason).toBe('link-loop');
  });

  it('a NUL byte', async () => {
    const error = await refusal('src/a.ts\0.png');
    expect(error.reason).toBe('nul-byte');
    expect(error.message).toBe('The path contains a NUL byte, which no file name can hold. Give the path as plain text.');
  });

  it('absurdly long paths and segments', async () => {
    expect((await refusal('a/'.repeat(3000))).reason).toBe('too-long');
    expect((await refusal('x'.repeat(300))).reason).toBe('too-long');
    expect((await refusal(`${'é'.repeat(200)}.txt`)).reason).toBe('too-long');
  });

  it('an empty path', async () => {
    const error = await refusal('   ');
    expect(error.reason).toBe('empty');
  });
});

describe('the private folder', () => {
  it('is created with a .gitignore that ignores everything', async () => {
    const directory = await workspace.privateDir('output');
    expect(directory).toBe(path.join(root, '.toolbelt', 'output'));
    expect(await fs.readFile(path.join(root, '.toolbelt', '.gitignore'), 'utf8')).toBe('*\n');
  });

  it('is refused, with nothing written, when it is a link out', async () => {
    await fs.symlink(outside, path.join(root, '.toolbelt'));
    const error = await workspace.privateDir('backups').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PathError);
    expect((error as PathError).message).toBe(
      "The workspace's private folder `.toolbelt` is a symbolic link, so nothing was written there. Ask the user to replace it with a real folder.",
    );
    await outsideUntouched();
  });

  it('is refused when it is a file', async () => {
    await fs.writeFile(path.join(root, '.toolbelt'), 'not a folder');
    await expect(workspace.privateDir()).rejects.toThrow("The workspace's private folder `.toolbelt` is a file");
    expect(await fs.readFile(path.join(root, '.toolbelt'), 'utf8')).toBe('not a folder');
  });

  it('refuses a sub-folder that is a link out', async () => {
    await workspace.privateDir();
    await fs.symlink(outside, path.join(root, '.toolbelt', 'notes'));
    await expect(workspace.privateDir('notes')).rejects.toThrow('`.toolbelt/notes` is a symbolic link');
    await outsideUntouched();
  });
});

describe('atomic writes', () => {
  it('replaces a file and keeps its permission bits', async () => {
    const file = path.join(root, 'src', 'a.ts');
    await fs.chmod(file, 0o750);
    await workspace.writeFileAtomic(file, 'new\n');
    expect(await fs.readFile(file, 'utf8')).toBe('new\n');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o750);
    expect((await fs.readdir(path.join(root, 'src'))).sort()).toEqual(['a.ts']);
  });

  it('refuses to replace an existing file when exclusive, leaving it as it was', async () => {
    const file = path.join(root, 'src', 'a.ts');
    await expect(workspace.writeFileAtomic(file, 'clobber', { exclusive: true })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await fs.readFile(file, 'utf8')).toBe('inside\n');
    expect(await fs.readdir(path.join(root, 'src'))).toEqual(['a.ts']);
  });

  it('renames without overwriting', async () => {
    await fs.writeFile(path.join(root, 'b.ts'), 'b');
    await expect(workspace.renameExclusive(path.join(root, 'b.ts'), path.join(root, 'src', 'a.ts'))).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await fs.readFile(path.join(root, 'src', 'a.ts'), 'utf8')).toBe('inside\n');
    expect(await fs.readFile(path.join(root, 'b.ts'), 'utf8')).toBe('b');
  });
});
