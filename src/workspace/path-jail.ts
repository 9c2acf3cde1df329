/**
 * The path jail: turns a path a model gave into a canonical one inside the workspace root, or
 * refuses it with a {@link PathError} the model can act on. Every symbolic link on the way is
 * followed by hand, one hop at a time, so a link that leads out is caught at the hop that does.
 * What the jail does not catch (hard links, a link swapped in after the check) is said on
 * `Workspace`.
 */
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import { PathError } from '../errors/path-error.js';
import { THREAD_POOL_CALLS, type FileSystemCalls } from './file-system-calls.js';
import { errorCode } from './file-system-errors.js';

/** Linux's PATH_MAX: longer paths are refused before they reach the file system. */
export const MAX_PATH_LENGTH = 4096;
/** Linux's NAME_MAX, in bytes, for one path segment. */
export const MAX_SEGMENT_BYTES = 255;
/** Symbolic links followed for one path before it counts as a loop (Linux's own limit). */
export const MAX_LINK_HOPS = 40;

/** Where a path in the jail leads: canonical, and whether anything is there yet. */
export interface JailedPath {
  readonly absolute: string;
  readonly exists: boolean;
  /**
   * `lstat` of `absolute`, when the walk took it on its last step (so a caller that needs it
   * need not ask the file system again); absent when the path ended in `..`, does not exist,
   * or was resolved in one `realpath`.
   */
  readonly stats?: Stats;
}

/**
 * From this many segments, a path without `..` is first resolved with one `realpath` (one
 * trip to the thread pool instead of one `lstat` a segment): when that gives the path back
 * unchanged, no segment is a link, which is what the walk would have found.
 */
const REALPATH_FROM_SEGMENTS = 3;

/** The jail of one workspace root; `Workspace.resolve` answers through it. */
export class PathJail {
  readonly #root: string;
  /** The root as given, made absolute; absolute paths under it are accepted too. */
  readonly #givenRoot: string;

  /** From how many segments a path is first tried with one `realpath` (see {@link REALPATH_FROM_SEGMENTS}). */
  readonly #realpathFromSegments: number;
  readonly #calls: FileSystemCalls;

  /**
   * @param root The canonical root. @param givenRoot The root as given, made absolute.
   * @param options.realpathFromSegments For tests that hold the shortcut against the walk: `Infinity` walks every path.
   * @param options.calls How the walk's `lstat`, `readlink` and `realpath` are made (the workspace's own).
   */
  constructor(root: string, givenRoot: string, options: { readonly realpathFromSegments?: number; readonly calls?: FileSystemCalls } = {}) {
    this.#root = root;
    this.#givenRoot = givenRoot;
    this.#realpathFromSegments = options.realpathFromSegments ?? REALPATH_FROM_SEGMENTS;
    this.#calls = options.calls ?? THREAD_POOL_CALLS;
  }

  /**
   * Canonicalises `input` (relative to the root, or absolute inside it) and checks that it
   * stays inside. A path that does not exist yet is allowed: its existing part is resolved
   * and the rest appended.
   *
   * @param followFinalLink Follow a symbolic link in the last segment too.
   * @throws {PathError} when the path is empty, malformed, outside, or leads out through a link.
   */
  async resolve(input: string, followFinalLink: boolean): Promise<JailedPath> {
    const root = this.#root;
    const relative = this.#checkedRelative(input);
    const pending = relative.split('/');
    const direct = await this.#withoutLinks(pending);
    if (direct !== undefined) return { absolute: direct, exists: true };
    let current = root;
    let hops = 0;
    let missing = false;
    /** The lstat of `current`, while the last step took one. */
    let last: Stats | undefined;

    while (pending.length > 0) {
      const part = pending.shift()!;
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (current === root) throw this.#outside(input, hops > 0);
        current = path.dirname(current);
        last = undefined;
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
        stats = await this.#calls.lstat(next);
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' || code === 'ENOTDIR') {
          missing = true;
          last = undefined;
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
        const target = await this.#calls.readlink(next);
        if (path.isAbsolute(target)) {
          const inside = this.#relativeInside(target);
          if (inside === undefined) throw this.#outside(input, true);
          current = root;
          pending.unshift(...inside.split('/'));
        } else {
          pending.unshift(...target.split('/'));
        }
        continue;
      }
      current = next;
      last = stats;
    }

    if (!isInside(root, current)) throw this.#outside(input, hops > 0);
    return { absolute: current, exists: !missing, ...(last === undefined ? {} : { stats: last }) };
  }

  /**
   * The path, when it has enough segments ({@link REALPATH_FROM_SEGMENTS}), no `..`, and
   * `realpath` gives it back unchanged (it exists and no segment is a link); otherwise
   * `undefined`, and the walk decides (missing parts, links, loops, their messages).
   */
  async #withoutLinks(segments: readonly string[]): Promise<string | undefined> {
    const parts = segments.filter((part) => part !== '' && part !== '.');
    if (parts.length < this.#realpathFromSegments || parts.includes('..')) return undefined;
    const joined = path.join(this.#root, ...parts);
    try {
      return (await this.#calls.realpath(joined)) === joined ? joined : undefined;
    } catch {
      return undefined;
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
    for (const base of new Set([this.#root, this.#givenRoot])) {
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
}

/** True when `child` is `parent` or below it (lexically; both canonical). */
export function isInside(parent: string, child: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}

function tooLong(input: string): PathError {
  return new PathError(
    input.slice(0, 200),
    'too-long',
    `The path is too long (at most ${MAX_PATH_LENGTH} characters, ${MAX_SEGMENT_BYTES} bytes a segment). Use a shorter path.`,
  );
}
