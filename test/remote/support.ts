/**
 * Test support for remote workspaces: the server command (this source tree's CLI through
 * tsx, or the single-file build), and the same under bubblewrap with the workspace mounted
 * at a path that does not exist on the host.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
/** The CLI, from source. */
export const CLI = path.join(REPOSITORY, 'adapters/mcp/cli.ts');
/** Where Node.js is (bubblewrap needs it mounted). */
export const NODE = process.execPath;

/** tsx's loader by absolute URL, so the server finds it from any working folder. */
export const TSX_LOADER = import.meta.resolve('tsx');

/** `node --import tsx adapters/mcp/cli.ts serve-workspace --root ROOT …`. */
export function serverCommand(root: string, ...extra: string[]): string[] {
  return [NODE, '--import', TSX_LOADER, CLI, 'serve-workspace', '--root', root, ...extra];
}

/** A fresh temporary folder, canonical. */
export function temporaryFolder(prefix = 'toolbelt-remote-'): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
}

/** True when bubblewrap can make a sandbox here. */
export function bwrapWorks(): boolean {
  const result = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', '--', 'true'], { timeout: 10_000 });
  return result.status === 0;
}

/** Where the workspace appears inside the box: a path that exists nowhere on the host. */
export const BOX_ROOT = '/box-workspace-not-on-host';

/**
 * The server under bubblewrap: the host's system folders, Node.js and this repository
 * read-only, an empty `/tmp`, and `hostFolder` mounted at {@link BOX_ROOT}, which does not exist
 * on the host: a call that used a host path, or a box path on the host, fails.
 */
export function bwrapServerCommand(hostFolder: string, ...extra: string[]): string[] {
  if (existsSync(BOX_ROOT)) throw new Error(`${BOX_ROOT} exists on the host; the test needs it not to.`);
  const readOnly = ['/usr', '/bin', '/lib', '/lib64', '/etc', path.dirname(path.dirname(NODE)), REPOSITORY].filter((folder) => existsSync(folder));
  const args = ['bwrap', '--die-with-parent', '--unshare-pid', '--clearenv', '--setenv', 'PATH', `${path.dirname(NODE)}:/usr/bin:/bin`, '--setenv', 'HOME', '/tmp'];
  for (const folder of readOnly) args.push('--ro-bind', folder, folder);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--bind', hostFolder, BOX_ROOT, '--chdir', '/tmp', '--');
  return [...args, ...serverCommand(BOX_ROOT, ...extra)];
}
