/**
 * @module `Workspace`, the local workspace: the jail, the private folder, atomic writes and
 * spawning over this machine's disk (see `README.md` beside it for the layer's promises). A
 * remote workspace (`remote/`) subclasses it and keeps the same promises on another machine.
 */
import { createWriteStream, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Writable } from 'node:stream';
import { PathError } from '../errors/path-error.js';
import { WorkspaceError } from '../errors/workspace-error.js';
import { writeThroughTemporaryFile } from './atomic-write.js';
import { THREAD_POOL_CALLS, type FileSystemCalls } from './file-system-calls.js';
import { errorCode } from './file-system-errors.js';
import { findOnPath } from './find-program.js';
import { PathJail } from './path-jail.js';
import { ensurePrivateFolder, isInPrivateFolder } from './private-folder.js';
import { spawnProcess } from './spawn-process.js';
import type { SpawnedProcess, SpawnProcessOptions } from './spawned-process.js';

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

/** Options of {@link Workspace}. */
export interface WorkspaceOptions {
  /**
   * How the read path's calls are made (the jail's `lstat`s, `open` and the reads of an open
   * file): on libuv's thread pool by default; a box's server, whose loop serves one caller,
   * makes them on its loop within a budget (`OnLoopCalls` in `file-system-calls.ts`).
   * @default THREAD_POOL_CALLS
   */
  readonly fileSystemCalls?: FileSystemCalls;
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
  readonly #jail: PathJail;
  readonly #calls: FileSystemCalls;

  /**
   * @param root The folder, on this machine; it must exist.
   * @param options See {@link WorkspaceOptions}. Internal: {@link ROOT_ELSEWHERE} instead marks a
   *   workspace whose files are on another machine (a remote workspace), whose root is taken as
   *   its box reported it.
   */
  constructor(root: string, options: WorkspaceOptions | typeof ROOT_ELSEWHERE = {}) {
    if (options === ROOT_ELSEWHERE) {
      this.root = root;
      this.#calls = THREAD_POOL_CALLS;
      this.#jail = new PathJail(root, root);
      return;
    }
    this.#calls = checkedCalls(options.fileSystemCalls);
    if (typeof root !== 'string' || root.trim() === '') {
      throw new WorkspaceError(String(root), `Expected the workspace root to be a folder path, got ${JSON.stringify(root)}.`);
    }
    const givenRoot = path.resolve(root);
    // A relative root is resolved against the process's working folder, which is often not
    // the one the developer had in mind: say where it was looked for.
    const shown = givenRoot === root ? `\`${root}\`` : `\`${root}\` (resolved to ${givenRoot})`;
    let canonical: string;
    try {
      canonical = realpathSync(givenRoot);
    } catch (error) {
      throw new WorkspaceError(root, `The workspace root ${shown} does not exist. Create the folder or pass another one.`, { cause: error });
    }
    if (!statSync(canonical).isDirectory()) {
      throw new WorkspaceError(root, `The workspace root ${shown} is not a folder.`);
    }
    this.root = canonical;
    this.#jail = new PathJail(canonical, givenRoot, { calls: this.#calls });
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
    return (await this.#jailed(input, options)).resolved;
  }

  /** The jail's answer: the resolved path, and the `lstat` the jail took of it on the way, if it took one. */
  async #jailed(input: string, options: ResolveOptions): Promise<{ resolved: ResolvedPath; stats: Stats | undefined }> {
    const { absolute, exists, stats } = await this.#jail.resolve(input, options.followFinalLink ?? true);
    return { resolved: { absolute, relative: this.display(absolute), exists }, stats };
  }

  /**
   * {@link resolve}, and the path's `lstat` (`undefined` when nothing is there). The jail's own
   * `lstat` is used when it took one and this workspace's files are the local disk the jail
   * walked, so `resolveFile` and `resolveDirectory` cost no second one; a subclass that
   * changes `resolve` or `lstatOrUndefined` is asked through them.
   */
  async #resolveAndLstat(input: string, options: ResolveOptions): Promise<{ resolved: ResolvedPath; stats: Stats | undefined }> {
    const local = this.resolve === Workspace.prototype.resolve && this.lstatOrUndefined === Workspace.prototype.lstatOrUndefined;
    const { resolved, stats } = local ? await this.#jailed(input, options) : { resolved: await this.resolve(input, options), stats: undefined };
    if (!resolved.exists) return { resolved, stats: undefined };
    return { resolved, stats: stats ?? (await this.lstatOrUndefined(resolved.absolute)) };
  }

  /** Like {@link resolve}, but the path must exist and be a file. */
  async resolveFile(input: string, options: ResolveOptions = {}): Promise<ResolvedPath & { stats: Stats }> {
    const { resolved, stats } = await this.#resolveAndLstat(input, options);
    if (stats === undefined) {
      throw new PathError(input, 'not-found', `\`${resolved.relative}\` does not exist. Check the path with list_directory or find_files.`);
    }
    const followed = stats.isSymbolicLink() ? await this.#calls.stat(resolved.absolute).catch(() => stats) : stats;
    if (followed.isDirectory()) {
      throw new PathError(input, 'not-a-file', `\`${resolved.relative}\` is a folder, not a file. Use list_directory to see what it holds.`);
    }
    return { ...resolved, stats: followed };
  }

  /** Like {@link resolve}, but the path must exist and be a folder. */
  async resolveDirectory(input: string): Promise<ResolvedPath> {
    const { resolved, stats } = await this.#resolveAndLstat(input, {});
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
    return isInPrivateFolder(this.root, absolute);
  }

  /**
   * The private folder (or a folder inside it), created on first use with a `.gitignore`
   * that ignores everything. Refused, with nothing written, when `.toolbelt` or a folder on
   * the way is a file or a symbolic link.
   *
   * @throws {PathError} with reason `private`.
   */
  async privateDir(...segments: string[]): Promise<string> {
    return ensurePrivateFolder(this, segments);
  }

  // The I/O seam: collections reach the file system through these, so another implementation
  // (a container, a remote sandbox) can stand in for the local disk.

  /** `lstat`, or `undefined` when nothing is there. */
  async lstatOrUndefined(absolute: string): Promise<Stats | undefined> {
    try {
      return await this.#calls.lstat(absolute);
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return undefined;
      throw error;
    }
  }

  /** `stat` (links followed), or `undefined` when nothing is there. */
  async statOrUndefined(absolute: string): Promise<Stats | undefined> {
    try {
      return await this.#calls.stat(absolute);
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return undefined;
      throw error;
    }
  }

  /** The whole file, as bytes. */
  readFile(absolute: string): Promise<Buffer> {
    return fs.readFile(absolute);
  }

  /** Opens a file for reading in chunks (streamed reads of large files). */
  open(absolute: string): Promise<fs.FileHandle> {
    return this.#calls.open(absolute);
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
  list(absolute: string): Promise<Dirent[]> {
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
    let mode = options.mode;
    if (mode === undefined && !options.exclusive) {
      const existing = await this.statOrUndefined(absolute);
      if (existing !== undefined) mode = existing.mode & 0o7777;
    }
    await writeThroughTemporaryFile(absolute, data, { exclusive: options.exclusive, mode });
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
   * `in-place.ts`). The file collections then hand each call to it.
   */
  readonly runsFileToolsInPlace: boolean;
}

/** The `fileSystemCalls` option, or the thread pool's when it is not given. */
function checkedCalls(calls: FileSystemCalls | undefined): FileSystemCalls {
  if (calls === undefined) return THREAD_POOL_CALLS;
  const methods = ['lstat', 'stat', 'realpath', 'readlink', 'open'] as const;
  const missing = typeof calls === 'object' && calls !== null ? methods.filter((name) => typeof calls[name] !== 'function') : methods;
  if (missing.length > 0) {
    throw new TypeError(
      `Expected the \`fileSystemCalls\` option to be THREAD_POOL_CALLS, an OnLoopCalls or another object with ${methods.join(', ')} methods; got ${calls === null ? 'null' : typeof calls}${missing.length < methods.length ? ` without ${missing.join(', ')}` : ''}.`,
    );
  }
  return calls;
}

/** Marks a workspace whose root is on another machine; see the {@link Workspace} constructor. */
export const ROOT_ELSEWHERE: unique symbol = Symbol('agent-toolbelt.rootElsewhere');
