/**
 * Path-jail attacks through a remote workspace are refused exactly as locally (the same
 * reason, the same message), because the box's own Workspace resolves them; and the protocol's
 * primitives, which take absolute paths, reach nothing outside the root either, even when a
 * caller skips `resolve` and sends a path of its choosing.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PathError } from '../../src/errors/path-error.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import type { RemoteWorkspace } from '../../src/workspace/remote/remote-workspace.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { bundleCommand, temporaryFolder } from './support.js';

let base: string;
let root: string;
let outside: string;
let local: Workspace;
let remote: RemoteWorkspace;

beforeAll(async () => {
  base = temporaryFolder('toolbelt-remote-jail-');
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  await fs.mkdir(path.join(root, 'src'), { recursive: true });
  await fs.mkdir(outside);
  await fs.mkdir(path.join(base, 'root-evil'));
  await fs.writeFile(path.join(root, 'src', 'a.ts'), 'inside\n');
  await fs.writeFile(path.join(outside, 'secret.txt'), 'secret\n');
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'leak'));
  await fs.symlink(outside, path.join(root, 'out'));
  await fs.symlink('../../outside/secret.txt', path.join(root, 'src', 'rel'));
  await fs.symlink(path.join(outside, 'nothing-here'), path.join(root, 'dangling'));
  await fs.symlink('hop1', path.join(root, 'hop0'));
  await fs.symlink(outside, path.join(root, 'hop1'));
  await fs.symlink('loop-b', path.join(root, 'loop-a'));
  await fs.symlink('loop-a', path.join(root, 'loop-b'));
  await fs.symlink('src/a.ts', path.join(root, 'inside-link'));
  local = new Workspace(root);
  remote = await connectWorkspace({ command: await bundleCommand(root) });
});

afterAll(async () => {
  await remote.close();
  await fs.rm(base, { recursive: true, force: true });
});

async function outcome(workspace: Workspace, input: string, options?: { followFinalLink?: boolean }) {
  try {
    const resolved = await workspace.resolve(input, options);
    return { resolved };
  } catch (error) {
    expect(error).toBeInstanceOf(PathError);
    return { reason: (error as PathError).reason, message: (error as PathError).message };
  }
}

const ATTACKS: readonly [string, string | (() => string), { followFinalLink?: boolean }?][] = [
  ['`..` out of the root', '../outside/secret.txt'],
  ['`..` hidden after a folder', 'src/../../outside/secret.txt'],
  ['an absolute path outside', () => path.join(outside, 'secret.txt')],
  ['/etc/passwd', '/etc/passwd'],
  ['a sibling with the root as prefix', () => path.join(base, 'root-evil', 'x.txt')],
  ['a link to a file outside', 'leak'],
  ['a link to a folder outside, as a parent', 'out/secret.txt'],
  ['a new file under a link out', 'out/new-file.txt'],
  ['a chain whose last hop leads out', 'hop0/secret.txt'],
  ['a link out after `..` from a missing folder', 'nope/../out/secret.txt'],
  ['a relative link target that climbs out', 'src/rel'],
  ['a dangling link out', 'dangling'],
  ['a link loop', 'loop-a/x'],
  ['a NUL byte', 'src/a\0.ts'],
  ['a path too long', 'a/'.repeat(3000)],
  ['an empty path', ''],
  ['a link inside (allowed)', 'inside-link'],
  ['a final link out, itself (allowed)', 'out', { followFinalLink: false }],
];

describe('attacks through a remote workspace', () => {
  it.each(ATTACKS)('%s: the same outcome as locally', async (_name, input, options) => {
    const attack = typeof input === 'function' ? input() : input;
    const expected = await outcome(local, attack, options);
    expect(await outcome(remote, attack, options)).toEqual(expected);
  });

  it('refuses the same attacks through the tools-level helpers', async () => {
    for (const attack of ['leak', 'out/secret.txt', '../outside/secret.txt']) {
      const localError = await local.resolveFile(attack).catch((error: unknown) => error as PathError);
      const remoteError = await remote.resolveFile(attack).catch((error: unknown) => error as PathError);
      expect(remoteError).toBeInstanceOf(PathError);
      expect((remoteError as PathError).message).toBe((localError as PathError).message);
    }
  });
});

describe('the primitives, called with paths of the caller’s choosing', () => {
  it('read nothing outside the root, also through links', async () => {
    for (const target of [path.join(outside, 'secret.txt'), '/etc/passwd', path.join(root, 'leak'), path.join(root, 'out', 'secret.txt')]) {
      await expect(remote.readFile(target)).rejects.toBeInstanceOf(PathError);
      await expect(remote.open(target)).rejects.toBeInstanceOf(PathError);
      await expect(remote.statOrUndefined(target)).rejects.toBeInstanceOf(PathError);
    }
    await expect(remote.list(outside)).rejects.toBeInstanceOf(PathError);
  });

  it('write, link, move and remove nothing outside the root', async () => {
    await expect(remote.writeFileAtomic(path.join(outside, 'planted.txt'), 'x')).rejects.toBeInstanceOf(PathError);
    await expect(remote.writeFileAtomic(path.join(root, 'out', 'planted.txt'), 'x')).rejects.toBeInstanceOf(PathError);
    await expect(remote.createFileStream(path.join(outside, 'planted.txt'))).rejects.toBeInstanceOf(PathError);
    await expect(remote.createSymlink('/etc', path.join(outside, 'planted-link'))).rejects.toBeInstanceOf(PathError);
    await expect(remote.renameExclusive(path.join(root, 'src', 'a.ts'), path.join(outside, 'moved.ts'))).rejects.toBeInstanceOf(PathError);
    await expect(remote.remove(path.join(outside, 'secret.txt'))).rejects.toBeInstanceOf(PathError);
    await expect(remote.makeDirectory(path.join(outside, 'made'))).rejects.toBeInstanceOf(PathError);
    expect(await fs.readdir(outside)).toEqual(['secret.txt']);
    expect(await fs.readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  it('start no program in a folder outside the root', async () => {
    const child = remote.spawn('/bin/sh', ['-c', 'touch planted'], { cwd: outside, env: {} });
    const exit = await child.exited;
    expect(exit.startError).toBeInstanceOf(PathError);
    expect(await fs.readdir(outside)).toEqual(['secret.txt']);
  });
});
