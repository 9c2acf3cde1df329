import { spawnSync } from 'node:child_process';
import { lstatSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { findOnPath } from '../../workspace/find-program.js';

/** System folders mounted read-only inside the bubblewrap sandbox (links among them recreated as links). */
export const SANDBOX_SYSTEM_PATHS: readonly string[] = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/opt'];

/**
 * Files and folders of `/etc` mounted read-only: what programs need to start, resolve users,
 * find certificates and read git's system config. The rest of `/etc` (`shadow`, host keys,
 * credentials) stays out.
 */
export const SANDBOX_ETC_PATHS: readonly string[] = [
  '/etc/alternatives', '/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/passwd', '/etc/group',
  '/etc/nsswitch.conf', '/etc/hosts', '/etc/hostname', '/etc/localtime', '/etc/timezone', '/etc/ssl', '/etc/ca-certificates',
  '/etc/pki', '/etc/gitconfig', '/etc/mime.types', '/etc/os-release', '/etc/profile', '/etc/bash.bashrc', '/etc/inputrc',
];

/** The full path of an executable found on `PATH`, or `undefined`. */
export function findExecutable(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  return findOnPath(name, searchPath);
}

/** Where the bubblewrap sandbox puts things. */
export interface BwrapLayout {
  /** The workspace root: the only writable path, mounted at the same place. */
  readonly root: string;
  /** Extra host paths mounted read-only (toolchains outside `/usr`, such as a Node.js in the home folder). */
  readonly readOnlyPaths?: readonly string[];
}

/**
 * The bubblewrap arguments (without the command): a new mount namespace holding only the
 * system folders (read-only), a private `/tmp`, `/proc` and `/dev`, and the workspace
 * (writable); no network, its own PID, IPC and host name namespaces, a new session (no
 * terminal to inject keystrokes into), and it dies with its parent.
 */
export function bwrapArguments(layout: BwrapLayout): string[] {
  const args = [
    '--die-with-parent', '--new-session',
    '--unshare-net', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try',
  ];
  for (const system of SANDBOX_SYSTEM_PATHS) args.push(...mountReadOnly(system));
  for (const file of SANDBOX_ETC_PATHS) args.push('--ro-bind-try', file, file);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--tmpfs', '/run');
  for (const extra of layout.readOnlyPaths ?? []) args.push('--ro-bind', extra, extra);
  args.push('--bind', layout.root, layout.root);
  args.push('--setenv', 'HOME', '/tmp', '--setenv', 'TMPDIR', '/tmp');
  return args;
}

function mountReadOnly(system: string): string[] {
  let stats;
  try {
    stats = lstatSync(system);
  } catch {
    return [];
  }
  if (stats.isSymbolicLink()) return ['--symlink', readlinkSync(system), system];
  return stats.isDirectory() ? ['--ro-bind', system, system] : [];
}

/** The result of trying bubblewrap once on this machine. */
export type BwrapProbe = { readonly usable: true } | { readonly usable: false; readonly reason: string };

let probed: Map<string, BwrapProbe> | undefined;

/**
 * Runs `true` under the sandbox's own arguments once per process and executable, so a
 * bubblewrap that cannot create namespaces here (a container without the capability, user
 * namespaces switched off) is reported when the collection is created, not at the first call.
 */
export function probeBwrap(bwrap: string, root: string): BwrapProbe {
  probed ??= new Map();
  const cached = probed.get(bwrap);
  if (cached !== undefined) return cached;
  const truePath = findExecutable('true') ?? '/bin/true';
  const result = spawnSync(bwrap, [...bwrapArguments({ root }), '--', truePath], { encoding: 'utf8', timeout: 10_000 });
  const probe: BwrapProbe =
    result.status === 0
      ? { usable: true }
      : { usable: false, reason: (result.stderr || result.error?.message || `exit code ${String(result.status)}`).trim() };
  probed.set(bwrap, probe);
  return probe;
}
