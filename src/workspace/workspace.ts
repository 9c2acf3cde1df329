import { randomBytes } from 'node:crypto';
import { accessSync, constants, createWriteStream, realpathSync, statSync, type Stats } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Writable } from 'node:stream';
import { PathError } from '../errors/path-error.js';
import { WorkspaceError } from '../errors/workspace-error.js';
import { spawnProcess, type SpawnedProcess, type SpawnProcessOptions } from './spawn-process.js';

/** The workspace's private folder: spilled output, backups, notes, the session log. */
export const PRIVATE_FOLDER = '.toolbelt';

/** Linux's PATH_MAX: longer paths are refused before they reach the file system. */
export const MAX_PATH_LENGTH = 4096;
/** Linux's NAME_MAX, in bytes, for one path segment. */
export const MAX_SEGMENT_BYTES = 255;
/** Symbolic links followed for one path before it counts as a loop (Linux's own limit). */
export const MAX_LINK_HOPS = 40;

/** A path inside the workspace, canonical: every symbolic link on the way resolved. */
export interface ResolvedPath {
  /** The canonical absolute path. Always inside the workspace root. */
  readonly absolute: string;
  /** Relative to the root, with `/` separators; `.` for the root itself. What messages show. */
  readonly relative: string;
  /** False when nothing exists at the path (yet). */
  readonly exists: boolean;
}

/** How {@link Workspace.resolve} treats the last segment. */
export interface ResolveOptions {
  /**
   * Follow a symbolic link in the last segment. `false` for tools that act on a link itself
   * (`delete_file`, `move_file`); links earlier in the path are always followed and checked.
   * @default true
   */
  readonly followFinalLink?: boolean;
}

/** Options for {@link Workspace.writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Fail with `EEXIST` if the file exists, even when it appears while writing. */
  readonly exclusive?: boolean;
  /** Permission bits for the file; by default those of the file being replaced, or 0o666 less the umask. */
  readonly mode?: number;
}

/**
 * The folder an agent may touch, and the one way tools reach the file system. Every path is
 * canonicalised and jailed: `..`, absolute paths elsewhere, sibling-prefix traps, symbolic
 * links (and chains of them) that lead out, dangling links out, link loops, NUL bytes and
 * absurdly long paths are refused with a {@link PathError} whose message the model can act on.
 *
 * The jail is a guard against mistakes and prompt injection through paths, not a container:
 * a hard link to a file outside is followed, and a link swapped in between the check and the
 * use is not caught. For a boundary, run the shell under a sandbox.
 *
 * @example
 * const workspace = new Workspace('/path/to/repo');
 * const { absolute } = await workspace.resolve('src/index.ts');
 */
export class Workspace {
  /** The canonical root: a root behind a symbolic link is resolved. */
  readonly root: string;
  /** The root as given, made absolute; absolute paths under it are accepted too. */
  readonly #givenRoot: string;

  /**
   * @param root The folder, on this machine; it must exist.
   * @param elsewhere Internal: {@link ROOT_ELSEWHERE} marks a workspace whose files are on another
   *   machine (a remote workspace), whose root is taken as its box reported it.
   */
  constructor(root: string, elsewhere?: typeof ROOT_ELSEWHERE) {
    if (elsewhere === ROOT_ELSEWHERE) {
      this.#givenRoot = root;
      this.root = root;
      return;
    }
    if (typeof root !== 'string' || root.trim() === '') {
      throw new WorkspaceError(String(root), `Expected the workspace root to be a folder path, got ${JSON.stringify(root)}.`);
    }
    this.#givenRoot = path.resolve(root);
    // A relative root is resolved against the process's working folder, which is often not
    // the one the developer had in mind: say where it was looked for.
    const shown = this.#givenRoot === root ? `\`${root}\`` : `\`${root}\` (resolved to ${this.#givenRoot})`;
    let canonical: string;
    try {
      canonical = realpathSync(this.#givenRoot);
    } catch (error) {
      throw new WorkspaceError(root, `The workspace root ${shown} does not exist. Create the folder or pass another one.`, { cause: error });
    }
    if (!statSync(canonical).isDirectory()) {
      throw new WorkspaceError(root, `The workspace root ${shown} is not a folder.`);
    }
    this.root = canonical;
  }

  /** Where the workspace is, in a line for instructions and logs. */
  get description(): string {
    return `the folder ${this.root} on this machine`;
  }

  /**
   * What this workspace can do apart from the methods every workspace has; collections ask
   * this instead of asking what kind of workspace they were given.
   */
  get capabilities(): WorkspaceCapabilities {
    return {
      readsLocalDisk: this.open === Workspace.prototype.open && this.readFile === Workspace.prototype.readFile,
      listsLocalDisk: this.list === Workspace.prototype.list && this.lstatOrUndefined === Workspace.prototype.lstatOrUndefined,
      spawnsLocally: this.spawn === Workspace.prototype.spawn,
      runsFileToolsInPlace: false,
    };
  }

  /**
   * The environment programs started in the workspace inherit when the shell is told to
   * (`inheritEnv`): this process's for a local workspace, the box's for a remote one, so
   * nothing of the caller's reaches a box unless the host passes it.
   */
  processEnvironment(): Readonly<Record<string, string | undefined>> {
    return process.env;
  }

  /** The path of a program on the `PATH` where the workspace runs programs, or `undefined`. */
  findProgram(name: string): string | undefined {
    return findOnPath(name, process.env.PATH ?? '');
  }

  /** Lets go of what the workspace holds (a remote workspace's connection). Nothing to do locally. */
  async close(): Promise<void> {}

  /**
   * Canonicalises `input` (relative to the root, or absolute inside it) and checks that it
   * stays inside the workspace. A path that does not exist yet is allowed: its existing part
   * is resolved and the rest appended.
   *
   * @throws {PathError} when the path is empty, malformed, outside, or leads out through a link.
   */
  async resolve(input: string, options: ResolveOptions = {}): Promise<ResolvedPath> {
    const followFinalLink = options.followFinalLink ?? true;
    const relative = this.#checkedRelative(input);
    const pending = relative.split('/');
    let current = this.root;
    let hops = 0;
    let missing = false;

    while (pending.length > 0) {
      const part = pending.shift()!;
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (current === this.root) throw this.#outside(input, hops > 0);
        current = path.dirname(current);
        // `nope/../link`: the parts after `..` may exist again (and be links), so check them.
        missing = false;
        continue;
      }
      const next = path.join(current, part);
      if (missing) {
        current = next;
        continue;
      }
      let stats: Stats;
      try {
        stats = await fs.lstat(next);
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' || code === 'ENOTDIR') {
          missing = true;
          current = next;
          continue;
        }
        if (code === 'ENAMETOOLONG') throw tooLong(input);
        throw error;
      }
      const isLast = !pending.some((rest) => rest !== '' && rest !== '.');
      if (stats.isSymbolicLink() && (followFinalLink || !isLast)) {
        hops += 1;
        if (hops > MAX_LINK_HOPS) {
          throw new PathError(input, 'link-loop', `\`${input}\` goes through a loop of symbolic links (more than ${MAX_LINK_HOPS} hops). Use another path.`);
        }
        const target = await fs.readlink(next);
        if (path.isAbsolute(target)) {
          const inside = this.#relativeInside(target);
          if (inside === undefined) throw this.#outside(input, true);
          current = this.root;
          pending.unshift(...inside.split('/'));
        } else {
          pending.unshift(...target.split('/'));
        }
        continue;
      }
      current = next;
    }

    if (!isInside(this.root, current)) throw this.#outside(input, hops > 0);
    return { absolute: current, relative: this.display(current), exists: !missing };
  }

  /** Like {@link resolve}, but the path must exist and be a file. */
  async resolveFile(input: string, options: ResolveOptions = {}): Promise<ResolvedPath & { stats: Stats }> {
    const resolved = await this.resolve(input, options);
    const stats = resolved.exists ? await this.lstatOrUndefined(resolved.absolute) : undefined;
    if (stats === undefined) {
      throw new PathError(input, 'not-found', `\`${resolved.relative}\` does not exist. Check the path with list_directory or find_files.`);
    }
    const followed = stats.isSymbolicLink() ? await fs.stat(resolved.absolute).catch(() => stats) : stats;
    if (followed.isDirectory()) {
      throw new PathError(input, 'not-a-file', `\`${resolved.relative}\` is a folder, not a file. Use list_directory to see what it holds.`);
    }
    return { ...resolved, stats: followed };
  }

  /** Like {@link resolve}, but the path must exist and be a folder. */
  async resolveDirectory(input: string): Promise<ResolvedPath> {
    const resolved = await this.resolve(input);
    const stats = resolved.exists ? await this.lstatOrUndefined(resolved.absolute) : undefined;
    if (stats === undefined) {
      throw new PathError(input, 'not-found', `The folder \`${resolved.relative}\` does not exist. Check the path with list_directory.`);
    }
    if (!stats.isDirectory()) {
      throw new PathError(input, 'not-a-directory', `\`${resolved.relative}\` is a file, not a folder.`);
    }
    return resolved;
  }

  /** The path relative to the root with `/` separators, as messages show it; `.` for the root. */
  display(absolute: string): string {
    const relative = path.relative(this.root, absolute);
    return relative === '' ? '.' : relative.split(path.sep).join('/');
  }

  /** True when `absolute` is inside the private folder `.toolbelt/`. */
  isPrivate(absolute: string): boolean {
    return isInside(path.join(this.root, PRIVATE_FOLDER), absolute);
  }

  /**
   * The private folder (or a folder inside it), created on first use with a `.gitignore`
   * that ignores everything. Refused, with nothing written, when `.toolbelt` or a folder on
   * the way is a file or a symbolic link.
   *
   * @throws {PathError} with reason `private`.
   */
  async privateDir(...segments: string[]): Promise<string> {
    let directory = path.join(this.root, PRIVATE_FOLDER);
    await this.#ensureRealDirectory(directory);
    await fs.writeFile(path.join(directory, '.gitignore'), '*\n', { flag: 'wx' }).catch((error: unknown) => {
      if (errorCode(error) !== 'EEXIST') throw error;
    });
    for (const segment of segments) {
      if (segment === '' || segment === '.' || segment === '..' || segment.includes('/') || segment.includes('\0')) {
        throw new TypeError(`Expected a plain folder name inside ${PRIVATE_FOLDER}/, got ${JSON.stringify(segment)}.`);
      }
      directory = path.join(directory, segment);
      await this.#ensureRealDirectory(directory);
    }
    return directory;
  }

  // The I/O seam: collections reach the file system through these, so another implementation
  // (a container, a remote sandbox) can stand in for the local disk.

  /** `lstat`, or `undefined` when nothing is there. */
  async lstatOrUndefined(absolute: string): Promise<Stats | undefined> {
    try {
      return await fs.lstat(absolute);
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return undefined;
      throw error;
    }
  }

  /** `stat` (links followed), or `undefined` when nothing is there. */
  async statOrUndefined(absolute: string): Promise<Stats | undefined> {
    try {
      return await fs.stat(absolute);
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return undefined;
      throw error;
    }
  }

  readFile(absolute: string): Promise<Buffer> {
    return fs.readFile(absolute);
  }

  /** Opens a file for reading in chunks (streamed reads of large files). */
  open(absolute: string): Promise<fs.FileHandle> {
    return fs.open(absolute, 'r');
  }

  /**
   * Creates a new file (failing with `EEXIST` if anything is there) and returns a stream that
   * writes into it, for output saved while it arrives (the shell's spill files). Wait for
   * `drain` when `write` returns false; `end()` closes the file.
   */
  async createFileStream(absolute: string): Promise<Writable> {
    const stream = createWriteStream(absolute, { flags: 'wx' });
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return stream;
  }

  /** The entries of a folder, with their types (links not followed). */
  list(absolute: string): Promise<import('node:fs').Dirent[]> {
    return fs.readdir(absolute, { withFileTypes: true });
  }

  /** Creates a folder and its missing parents. */
  async makeDirectory(absolute: string): Promise<void> {
    await fs.mkdir(absolute, { recursive: true });
  }

  /** The target a symbolic link holds, as written (not resolved). */
  readLink(absolute: string): Promise<string> {
    return fs.readlink(absolute);
  }

  /** Creates a symbolic link at `absolute` holding `target` (undo puts deleted links back). */
  createSymlink(target: string, absolute: string): Promise<void> {
    return fs.symlink(target, absolute);
  }

  /** Removes a file or a link (never what a link points to). */
  remove(absolute: string): Promise<void> {
    return fs.unlink(absolute);
  }

  /** Renames within the workspace; fails with `EEXIST` rather than replace an existing destination. */
  async renameExclusive(from: string, to: string): Promise<void> {
    // link + unlink gives "no overwrite" atomically for files; links and folders fall back
    // to a checked rename.
    const stats = await fs.lstat(from);
    if (stats.isFile()) {
      try {
        await fs.link(from, to);
        await fs.unlink(from);
        return;
      } catch (error) {
        const code = errorCode(error);
        if (code === 'EEXIST') throw error;
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'EMLINK') throw error;
      }
    }
    if ((await this.lstatOrUndefined(to)) !== undefined) {
      throw Object.assign(new Error(`EEXIST: destination exists, rename '${from}' -> '${to}'`), { code: 'EEXIST' });
    }
    await fs.rename(from, to);
  }

  /**
   * Starts a program (the shell tools' only way to run anything) in its own process group,
   * standard input closed. Another workspace implementation (a container, a remote sandbox)
   * overrides this to run commands where its files are.
   */
  spawn(file: string, args: readonly string[], options: SpawnProcessOptions): SpawnedProcess {
    return spawnProcess(file, args, options);
  }

  /**
   * Writes a file atomically: a temporary file in the same folder, then a rename (or, with
   * `exclusive`, a hard link that fails if the file exists). Readers never see half a file;
   * the file's permission bits are kept.
   */
  async writeFileAtomic(absolute: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
    const directory = path.dirname(absolute);
    const temporary = path.join(directory, `.toolbelt-${randomBytes(6).toString('hex')}.tmp`);
    let mode = options.mode;
    if (mode === undefined && !options.exclusive) {
      const existing = await this.statOrUndefined(absolute);
      if (existing !== undefined) mode = existing.mode & 0o7777;
    }
    try {
      const handle = await fs.open(temporary, 'wx', mode ?? 0o666);
      try {
        await handle.writeFile(data);
        if (mode !== undefined) await handle.chmod(mode);
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (options.exclusive) {
        await fs.link(temporary, absolute);
        await fs.unlink(temporary);
      } else {
        await fs.rename(temporary, absolute);
      }
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }

  /** The input as a path relative to the root, after the checks that need no file system. */
  #checkedRelative(input: string): string {
    if (typeof input !== 'string' || input.trim() === '') {
      throw new PathError(String(input), 'empty', 'The path is empty. Give a path relative to the workspace root, such as `src/index.ts`, or `.` for the root.');
    }
    if (input.includes('\0')) {
      throw new PathError(input, 'nul-byte', 'The path contains a NUL byte, which no file name can hold. Give the path as plain text.');
    }
    if (input.length > MAX_PATH_LENGTH || input.split('/').some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)) {
      throw tooLong(input);
    }
    if (!path.isAbsolute(input)) return input;
    const inside = this.#relativeInside(input);
    if (inside === undefined) throw this.#outside(input, false);
    return inside;
  }

  /** For an absolute path under the root (canonical or as given), the part below it. */
  #relativeInside(absolute: string): string | undefined {
    const normalized = path.normalize(absolute);
    for (const base of new Set([this.root, this.#givenRoot])) {
      if (normalized === base) return '.';
      if (isInside(base, normalized)) return normalized.slice(base.length + 1);
    }
    return undefined;
  }

  #outside(input: string, throughLink: boolean): PathError {
    return throughLink
      ? new PathError(input, 'link-outside', `\`${input}\` leads outside the workspace through a symbolic link, so it cannot be used. Work with files inside the workspace.`)
      : new PathError(input, 'outside', `\`${input}\` is outside the workspace. Use a path relative to the workspace root, such as \`src/index.ts\`.`);
  }

  async #ensureRealDirectory(directory: string): Promise<void> {
    const stats = await this.lstatOrUndefined(directory);
    const shown = this.display(directory);
    if (stats === undefined) {
      try {
        await fs.mkdir(directory);
      } catch (error) {
        // A concurrent call made it first: check whatever is there now.
        if (errorCode(error) !== 'EEXIST') throw error;
        await this.#ensureRealDirectory(directory);
      }
      return;
    }
    if (stats.isSymbolicLink()) {
      throw new PathError(shown, 'private', `The workspace's private folder \`${shown}\` is a symbolic link, so nothing was written there. Ask the user to replace it with a real folder.`);
    }
    if (!stats.isDirectory()) {
      throw new PathError(shown, 'private', `The workspace's private folder \`${shown}\` is a file, so nothing was written there. Ask the user to remove or rename it.`);
    }
  }
}

/** What a {@link Workspace} can do beyond the methods every workspace has. */
export interface WorkspaceCapabilities {
  /** `open` and `readFile` read this machine's disk: a worker thread may read the files itself. */
  readonly readsLocalDisk: boolean;
  /** `list` and `lstatOrUndefined` read this machine's disk: a worker thread may walk the tree itself. */
  readonly listsLocalDisk: boolean;
  /** `spawn` starts programs on this machine: host-side sandboxes (`bwrap`) and probes apply. */
  readonly spawnsLocally: boolean;
  /**
   * The workspace runs the file tools' steps next to its files, one round trip a call (a
   * remote workspace, whose box runs the same tools; see `RunsFileToolsInPlace` in
   * `collections/files/in-box.ts`). The file collections then hand each call to it.
   */
  readonly runsFileToolsInPlace: boolean;
}

/** Marks a workspace whose root is on another machine; see the {@link Workspace} constructor. */
export const ROOT_ELSEWHERE: unique symbol = Symbol('agent-toolbelt.rootElsewhere');

function findOnPath(name: string, searchPath: string): string | undefined {
  const executable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (name.includes('/')) return executable(name) ? name : undefined;
  for (const folder of searchPath.split(path.delimiter)) {
    if (folder === '') continue;
    const candidate = path.join(folder, name);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/** True when `child` is `parent` or below it (lexically; both canonical). */
export function isInside(parent: string, child: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}

/**
 * For a `catch` that passes over what the file system refuses (a file gone, a folder that
 * cannot be read): returns quietly for an error with a system `code`, and throws anything
 * else again, so a lost remote workspace or a bug is not taken for one unreadable file.
 */
export function rethrowUnlessFileSystemError(error: unknown): void {
  if (errorCode(error) === undefined) throw error;
}

/** The `code` of a Node.js system error, if any. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

function tooLong(input: string): PathError {
  return new PathError(
    input.slice(0, 200),
    'too-long',
    `The path is too long (at most ${MAX_PATH_LENGTH} characters, ${MAX_SEGMENT_BYTES} bytes a segment). Use a shorter path.`,
  );
}
