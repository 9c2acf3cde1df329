/**
 * Test support for remote workspaces: the server command (this source tree's CLI through
 * tsx, or the single-file build), and the same under bubblewrap with the workspace mounted
 * at a path that does not exist on the host.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
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

let bundle: Promise<string> | undefined;

/**
 * Builds the single-file server (what `npm run build` puts in `dist/serve-workspace.mjs`) once
 * per test process into a temporary file, and returns its path.
 */
export function serverBundle(): Promise<string> {
  bundle ??= (async () => {
    const outfile = path.join(temporaryFolder('toolbelt-bundle-'), 'serve-workspace.mjs');
    const built = spawnSync(NODE, [path.join(REPOSITORY, 'src/box-server/build-server-bundle.mjs'), outfile], { encoding: 'utf8', timeout: 60_000 });
    if (built.status !== 0) throw new Error(`Building the server bundle failed: ${built.stderr}`);
    return outfile;
  })();
  return bundle;
}

/** Where the bundle is mounted in the bubblewrap box. */
const BOX_BUNDLE = '/opt/agent-toolbelt/serve-workspace.mjs';

/**
 * Like {@link bwrapServerCommand}, but running the single-file server (starts in a fraction of
 * the time tsx takes). With `samePath`, the folder is mounted at its own path instead (for
 * suites whose tests reach the folder by `workspace.root` on the host).
 */
export function bwrapBundleCommand(hostFolder: string, bundlePath: string, options: { samePath?: boolean } = {}, ...extra: string[]): string[] {
  const boxRoot = options.samePath === true ? hostFolder : BOX_ROOT;
  if (options.samePath !== true && existsSync(BOX_ROOT)) throw new Error(`${BOX_ROOT} exists on the host; the test needs it not to.`);
  const readOnly = ['/usr', '/bin', '/lib', '/lib64', '/etc', path.dirname(path.dirname(NODE))].filter((folder) => existsSync(folder));
  // Same-path suites check process trees by host PIDs: keep the host's PID namespace there.
  const pidNamespace = options.samePath === true ? [] : ['--unshare-pid'];
  const args = ['bwrap', '--die-with-parent', ...pidNamespace, '--clearenv', '--setenv', 'PATH', `${path.dirname(NODE)}:/usr/bin:/bin`, '--setenv', 'HOME', '/tmp'];
  for (const folder of readOnly) args.push('--ro-bind', folder, folder);
  args.push('--ro-bind', bundlePath, BOX_BUNDLE);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--bind', hostFolder, boxRoot, '--chdir', '/tmp', '--');
  return [...args, NODE, BOX_BUNDLE, 'serve-workspace', '--root', boxRoot, ...extra];
}

/** PIDs of `serve-workspace` processes (and job runners) on this machine whose command line names `root`. */
export function serverPids(root: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let commandLine: string;
    try {
      commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const words = commandLine.split('\0');
    // Channels that carry the server's command line (bwrap, the ssh client) are not the server.
    const channel = ['bwrap', 'ssh'].includes(path.basename(words[0]!));
    if (words.includes('serve-workspace') && words.includes(root) && !words.includes('--run-job') && !channel) found.push(Number(entry));
  }
  return found;
}

/** The one `serve-workspace` process serving `root`; throws when there is not exactly one. */
export function serverPid(root: string): number {
  const pids = serverPids(root);
  if (pids.length !== 1) throw new Error(`Expected one serve-workspace for ${root}, found ${pids.length}.`);
  return pids[0]!;
}

/** `node dist-bundle serve-workspace --root ROOT` without a sandbox: its PID is the server's. */
export async function bundleCommand(root: string, ...extra: string[]): Promise<string[]> {
  return [NODE, await serverBundle(), 'serve-workspace', '--root', root, ...extra];
}
