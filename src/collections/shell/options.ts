import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { Workspace } from '../../workspace/workspace.js';
import { describeType, validateEnvOption } from './environment.js';
import { prefixProblem } from './policy.js';
import { bwrapArguments, findExecutable, probeBwrap } from './sandbox.js';

/** Default time a command may run: 120 s. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** Default longest time the model may ask for with `timeout_seconds`: 600 s. */
export const DEFAULT_MAX_TIMEOUT_MS = 600_000;
/** Default length of a reply, in characters: 30,000. */
export const DEFAULT_MAX_OUTPUT_CHARACTERS = 30_000;
/** Lines longer than this are cut in the reply: 2,000 characters. */
export const DEFAULT_MAX_LINE_CHARACTERS = 2_000;
/** A spill file stops after this many characters, so a flood cannot fill the disk: 50,000,000. */
export const DEFAULT_MAX_SPILL_CHARACTERS = 50_000_000;

/** Options of {@link createShellTools}. */
export interface ShellToolsOptions {
  /** Commands start in its root; `working_directory` must stay inside it. */
  readonly workspace: Workspace;
  /** How long a command may run when the model does not say. @default 120_000 */
  readonly timeoutMs?: number;
  /** The longest the model may ask for with `timeout_seconds`. @default 600_000 */
  readonly maxTimeoutMs?: number;
  /** The longest reply, in characters; longer output is cut in the middle and saved whole to a file. @default 30_000 */
  readonly maxOutputCharacters?: number;
  /** Lines longer than this are cut in the reply (the saved file keeps them whole). @default 2_000 */
  readonly maxLineCharacters?: number;
  /** A saved output file stops after this many characters. @default 50_000_000 */
  readonly maxSpillCharacters?: number;
  /**
   * Command prefixes that may run, matched against the command's first words ignoring case:
   * `git` allows `git log` but not `gitk`, `git status` allows only that. With an allowlist, a
   * command runs only when the bash grammar proves it one plain command whose words are
   * literals (no chaining, substitution, expansion, `$'…'`, redirection, line breaks, and no
   * builtin that evaluates code). Needs bash or sh as the `shell`, or a `sandbox`. No list:
   * anything runs.
   */
  readonly allow?: readonly string[];
  /** Exceptions carved out of `allow` (`allow: ['git'], deny: ['git push']`). Needs `allow`. */
  readonly deny?: readonly string[];
  /** Variables to set, or to remove with `undefined`, for every command. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Start from the host's environment. `false` starts from `PATH` alone (plus the
   * non-interactive set and `env`), so the host's secrets do not reach commands.
   * @default true
   */
  readonly inheritEnv?: boolean;
  /** Report stdout and stderr in separate sections instead of merged in order. @default false */
  readonly separateStreams?: boolean;
  /**
   * `'bwrap'`: run every command under bubblewrap: the workspace is the only writable path,
   * system folders are read-only, the home folder and the rest of the host are absent, and
   * there is no network. Checked when the collection is created.
   */
  readonly sandbox?: 'bwrap';
  /** Extra host folders mounted read-only in the `bwrap` sandbox (a toolchain in the home folder). */
  readonly sandboxReadOnlyPaths?: readonly string[];
  /**
   * A program and arguments put before the shell: `['docker', 'exec', '-i', 'box']`,
   * `['ssh', 'build-host']`. It gets the working directory and environment on this machine.
   */
  readonly launcher?: readonly string[];
  /**
   * The shell. Defaults to bash when it is on `PATH`, else sh; with a `launcher`, `sh`
   * (the other side may have no bash).
   */
  readonly shell?: string;
}

/** The options after validation, with defaults applied. */
export interface ShellConfig {
  readonly workspace: Workspace;
  readonly timeoutMs: number;
  readonly maxTimeoutMs: number;
  readonly maxOutputCharacters: number;
  readonly maxLineCharacters: number;
  readonly maxSpillCharacters: number;
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly inheritEnv: boolean;
  readonly separateStreams: boolean;
  /** The shell program as it will be started. */
  readonly shell: string;
  /** The launcher program and its arguments, put first. */
  readonly launcher: readonly string[];
  /** Bubblewrap and its arguments, between the launcher and the shell. */
  readonly sandbox?: { readonly kind: 'bwrap'; readonly command: readonly string[] };
}

const KNOWN_OPTIONS = new Set([
  'workspace', 'timeoutMs', 'maxTimeoutMs', 'maxOutputCharacters', 'maxLineCharacters', 'maxSpillCharacters', 'allow', 'deny',
  'env', 'inheritEnv', 'separateStreams', 'sandbox', 'sandboxReadOnlyPaths', 'launcher', 'shell',
]);

/** Validates the options once, when the collection is created; messages name the option. */
export function resolveShellOptions(options: ShellToolsOptions): ShellConfig {
  assertOptionsShape(options);
  const limits = resolveLimits(options);
  const { allow, deny } = resolveCommandLists(options);
  validateEnvOption(options.env);
  const inheritEnv = booleanOption('inheritEnv', options.inheritEnv, true);
  const separateStreams = booleanOption('separateStreams', options.separateStreams, false);
  const { launcher, shell } = resolveLauncherAndShell(options);
  const sandbox = resolveSandbox(options);

  if (allow !== undefined && sandbox === undefined) checkAllowlistShell(shell);

  return {
    workspace: options.workspace,
    ...limits,
    ...(allow === undefined ? {} : { allow }),
    ...(deny === undefined ? {} : { deny }),
    ...(options.env === undefined ? {} : { env: { ...options.env } }),
    inheritEnv,
    separateStreams,
    shell,
    launcher,
    ...(sandbox === undefined ? {} : { sandbox }),
  };
}

/** An options object, with no option this collection does not know, and a workspace. */
function assertOptionsShape(options: ShellToolsOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected createShellTools() to get an options object with a \`workspace\`, got \`${String(options)}\`.`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`Unknown option \`${key}\` for createShellTools(). Known options: ${[...KNOWN_OPTIONS].join(', ')}.`);
  }
  if (!isWorkspace(options.workspace)) {
    throw new TypeError(`Expected the \`workspace\` option to be a Workspace (\`new Workspace(root)\`), got \`${String(options.workspace)}\` (${describeType(options.workspace)}).`);
  }
}

function resolveLimits(options: ShellToolsOptions): Pick<ShellConfig, 'timeoutMs' | 'maxTimeoutMs' | 'maxOutputCharacters' | 'maxLineCharacters' | 'maxSpillCharacters'> {
  const timeoutMs = positiveInteger('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS);
  const maxTimeoutMs = positiveInteger('maxTimeoutMs', options.maxTimeoutMs, Math.max(DEFAULT_MAX_TIMEOUT_MS, timeoutMs));
  if (timeoutMs > maxTimeoutMs) {
    throw new TypeError(`Expected the \`timeoutMs\` option (${timeoutMs}) to be at most \`maxTimeoutMs\` (${maxTimeoutMs}).`);
  }
  const maxOutputCharacters = positiveInteger('maxOutputCharacters', options.maxOutputCharacters, DEFAULT_MAX_OUTPUT_CHARACTERS);
  if (maxOutputCharacters < 1_000) {
    throw new TypeError(`Expected the \`maxOutputCharacters\` option to be at least 1000, got \`${maxOutputCharacters}\` (number).`);
  }
  const maxLineCharacters = positiveInteger('maxLineCharacters', options.maxLineCharacters, DEFAULT_MAX_LINE_CHARACTERS);
  const maxSpillCharacters = positiveInteger('maxSpillCharacters', options.maxSpillCharacters, DEFAULT_MAX_SPILL_CHARACTERS);
  return { timeoutMs, maxTimeoutMs, maxOutputCharacters, maxLineCharacters, maxSpillCharacters };
}

function resolveCommandLists(options: ShellToolsOptions): { allow: string[] | undefined; deny: string[] | undefined } {
  const allow = prefixList('allow', options.allow);
  const deny = prefixList('deny', options.deny);
  if (deny !== undefined && allow === undefined) {
    throw new TypeError(
      'The `deny` option needs an `allow` list: on its own a prefix denylist cannot see past chaining (`git status; git push`), ' +
        'so it would only look safe. Pass `allow` as well (`allow: [\'git\'], deny: [\'git push\']`), or use `sandbox: \'bwrap\'`.',
    );
  }
  return { allow, deny };
}

function resolveLauncherAndShell(options: ShellToolsOptions): Pick<ShellConfig, 'launcher' | 'shell'> {
  const launcher = options.launcher === undefined ? [] : stringList('launcher', options.launcher);
  if (options.launcher !== undefined && launcher.length === 0) {
    throw new TypeError('Expected the `launcher` option to name a program, such as `[\'docker\', \'exec\', \'-i\', \'box\']`, got an empty list.');
  }
  if (options.shell !== undefined && (typeof options.shell !== 'string' || options.shell.trim() === '')) {
    throw new TypeError(`Expected the \`shell\` option to be a program name or path, got \`${String(options.shell)}\` (${describeType(options.shell)}).`);
  }
  // Programs are looked up where the workspace runs them: on this machine, or in a remote box.
  const shell = options.shell ?? (launcher.length > 0 ? 'sh' : (options.workspace.findProgram('bash') ?? options.workspace.findProgram('sh') ?? '/bin/sh'));
  return { launcher, shell };
}

function resolveSandbox(options: ShellToolsOptions): ShellConfig['sandbox'] {
  if (options.sandbox === undefined) {
    if (options.sandboxReadOnlyPaths !== undefined) throw new TypeError("The `sandboxReadOnlyPaths` option only applies with `sandbox: 'bwrap'`.");
    return undefined;
  }
  if (options.sandbox !== 'bwrap') {
    throw new TypeError(`Expected the \`sandbox\` option to be 'bwrap' or left out, got \`${String(options.sandbox)}\` (${describeType(options.sandbox)}).`);
  }
  if (!options.workspace.capabilities.spawnsLocally) {
    throw new TypeError(
      "The `sandbox: 'bwrap'` option sandboxes programs on this machine, but this workspace runs them elsewhere (" +
        `${options.workspace.description}). Sandbox the box end instead: \`agent-toolbelt serve-workspace --root DIR --sandbox bwrap\`, or leave out \`sandbox\`.`,
    );
  }
  const readOnlyPaths = options.sandboxReadOnlyPaths === undefined ? [] : stringList('sandboxReadOnlyPaths', options.sandboxReadOnlyPaths);
  for (const folder of readOnlyPaths) {
    if (!path.isAbsolute(folder) || !existsSync(folder)) {
      throw new TypeError(`Expected every entry of the \`sandboxReadOnlyPaths\` option to be an existing absolute path, got \`${folder}\`.`);
    }
  }
  return { kind: 'bwrap', command: bwrapCommand(options.workspace.root, readOnlyPaths) };
}

/** Bubblewrap and its arguments for a sandbox around `root`, once this machine has shown it can make one. */
function bwrapCommand(root: string, readOnlyPaths: readonly string[]): string[] {
  const bwrap = findExecutable('bwrap');
  if (bwrap === undefined) {
    throw new TypeError(
      "The `sandbox: 'bwrap'` option needs bubblewrap, and `bwrap` is not on PATH. Install it (Debian and Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`) or leave out `sandbox`.",
    );
  }
  const probe = probeBwrap(bwrap, root);
  if (!probe.usable) {
    throw new TypeError(
      `bubblewrap is installed (${bwrap}) but cannot create its sandbox on this machine: ${probe.reason}. ` +
        'It needs unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or an AppArmor profile that allows them) or root with CAP_SYS_ADMIN; ' +
        'in a container, run it with those or use a `launcher` into a real sandbox instead.',
    );
  }
  return [bwrap, ...bwrapArguments({ root, readOnlyPaths })];
}

/** Shells whose grammar the allowlist's check reads: bash, and POSIX sh, whose plain words are bash's. */
const ALLOWLIST_SHELLS = new Set(['bash', 'sh', 'dash']);

/**
 * The allowlist proves commands plain with bash's grammar. zsh (glob qualifiers that run code,
 * `=(…)`), ksh, fish and others read the same text differently, so without a sandbox the
 * combination is refused rather than trusted.
 */
function checkAllowlistShell(shell: string): void {
  const name = path.basename(shell);
  if (ALLOWLIST_SHELLS.has(name)) return;
  throw new TypeError(
    `The \`allow\` option checks commands with bash's grammar, and \`shell: '${shell}'\` reads commands with its own` +
      (name === 'zsh' ? ' (glob qualifiers and `=(…)` run code that bash would read as plain words)' : '') +
      ", so the allowlist could not hold. Add `sandbox: 'bwrap'` to make the sandbox the boundary, use `shell: 'bash'` or `'sh'`, or leave out `allow`.",
  );
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`Expected the \`${name}\` option to be a positive integer, got \`${String(value)}\` (${describeType(value)}).`);
  }
  return value;
}

function booleanOption(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new TypeError(`Expected the \`${name}\` option to be a boolean, got \`${String(value)}\` (${describeType(value)}).`);
  }
  return value;
}

function stringList(name: string, value: unknown): string[] {
  if (!Array.isArray(value)) {
    throw new TypeError(`Expected the \`${name}\` option to be an array of strings, got \`${String(value)}\` (${describeType(value)}).`);
  }
  for (const entry of value) {
    if (typeof entry !== 'string' || entry.trim() === '') {
      throw new TypeError(`Expected every entry of the \`${name}\` option to be a non-blank string, got \`${String(entry)}\` (${describeType(entry)}).`);
    }
  }
  return [...(value as string[])];
}

function prefixList(name: 'allow' | 'deny', value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const list = stringList(name, value);
  if (name === 'allow' && list.length === 0) {
    throw new TypeError('Expected the `allow` option to list at least one command prefix, such as `[\'git\', \'npm test\']`; leave it out to allow every command.');
  }
  for (const entry of list) {
    const problem = prefixProblem(entry);
    if (problem !== undefined) {
      throw new TypeError(`Expected the \`${name}\` option to hold plain command prefixes, got \`${entry}\`, which contains ${problem}.`);
    }
  }
  return list.map((entry) => entry.trim());
}

/** A {@link Workspace}, local or remote, told by its shape: collections do not ask which kind. */
function isWorkspace(value: unknown): value is Workspace {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof Workspace, unknown>>;
  return typeof candidate.root === 'string' && typeof candidate.spawn === 'function' && typeof candidate.resolveDirectory === 'function';
}
