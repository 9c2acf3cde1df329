/**
 * @module The reading tools' options: their defaults (the reference products' limits), and the
 * check that fills them in when a collection is created, so a wrong option fails there,
 * naming it. Every reading tool and the search engine read the resolved options from here.
 */
import { DEFAULT_SEARCH_TIMEOUT_MS } from '../../workspace/in-place.js';
import type { Workspace } from '../../workspace/workspace.js';

/** Replies of the reading tools are capped at this many characters (the reference products' limit). */
export const DEFAULT_MAX_READ_CHARACTERS = 51_200;
/** Lines longer than this are cut, with a marker saying how much was left out. */
export const DEFAULT_MAX_LINE_LENGTH = 2_000;
/** `find_files` lists at most this many files. */
export const DEFAULT_MAX_FIND_RESULTS = 100;
/** `search_files` counts larger files instead of searching them. */
export const DEFAULT_MAX_SEARCH_FILE_BYTES = 10 * 1024 * 1024;
/** A regular expression stuck this long on one line (catastrophic backtracking) stops the search. */
export const DEFAULT_REGEX_TIMEOUT_MS = 2_000;
/** Matched lines in `search_files` replies are cut to this many characters around the match. */
export const DEFAULT_MAX_MATCH_LINE_LENGTH = 500;
/** With ripgrep, `search_files` searches this many files itself before it may hand the rest over. */
export const DEFAULT_RIPGREP_AFTER_FILES = 300;
/** Folders `find_files` and `search_files` do not enter unless the search starts inside one. */
export const DEFAULT_SKIPPED_FOLDERS: readonly string[] = Object.freeze(['.git', 'node_modules', 'bin', 'obj', '.toolbelt']);

/** Options of the four reading file tools (`list_directory`, `find_files`, `search_files`, `read_file`). */
export interface ReadToolsOptions {
  /** The folder the tools may read; every path is jailed to it. */
  readonly workspace: Workspace;
  /**
   * Most characters in one reply of any reading tool; a longer answer is cut and says how to
   * get the rest (`continue with start_line=N`, or how many entries were left out).
   * @default 51_200
   */
  readonly maxReadCharacters?: number;
  /**
   * Lines longer than this many characters are cut in `read_file` replies, with a marker
   * that says how many characters were left out. At most half of `maxReadCharacters`.
   * @default 2_000 (or half of a `maxReadCharacters` below 4,000)
   */
  readonly maxLineLength?: number;
  /**
   * Most files `find_files` lists; the reply says how many more matched.
   * @default 100
   */
  readonly maxFindResults?: number;
  /**
   * Files larger than this many bytes are counted, not searched, by `search_files`.
   * @default 10_485_760 (10 MB)
   */
  readonly maxSearchFileBytes?: number;
  /**
   * A `search_files` call stops after this many milliseconds and answers with what it found
   * so far, saying the result may be incomplete.
   * @default 30_000
   */
  readonly searchTimeoutMs?: number;
  /**
   * A regular expression that spends this many milliseconds on one line without finishing
   * (catastrophic backtracking such as `(a+)+$`) stops the search with a message naming the
   * file and line. The search runs in a worker thread, so it can be stopped.
   * @default 2_000
   */
  readonly regexTimeoutMs?: number;
  /**
   * Matched lines in `search_files` replies are cut to this many characters, keeping the part
   * around the match.
   * @default 500
   */
  readonly maxMatchLineLength?: number;
  /**
   * Folder names `find_files` and `search_files` do not enter, at any depth, unless the search
   * starts inside one.
   * @default ['.git', 'node_modules', 'bin', 'obj', '.toolbelt']
   */
  readonly skippedFolders?: readonly string[];
  /**
   * ripgrep for `search_files` on a local workspace: `true` uses `rg` from PATH when it is
   * there, a string is the path of the program, `false` never uses it. ripgrep only picks the
   * files worth reading; the matching, the limits and the reply are the same without it.
   * @default true
   */
  readonly ripgrep?: boolean | string;
  /**
   * With ripgrep, `search_files` first walks and searches this many text files itself, and
   * stops there for ripgrep only when matches are sparse (reaching `limit` at the rate seen
   * would take more than ten times as many files): a common pattern is answered by the walk,
   * which stops at the limit, and a rare one by ripgrep's scan. `0` asks ripgrep at once.
   * @default 300
   */
  readonly ripgrepAfterFiles?: number;
}

/** {@link ReadToolsOptions} with every default filled in: what each tool receives. */
export type ResolvedReadToolsOptions = Required<ReadToolsOptions>;

const POSITIVE_INTEGER_OPTIONS = [
  'maxReadCharacters',
  'maxLineLength',
  'maxFindResults',
  'maxSearchFileBytes',
  'searchTimeoutMs',
  'regexTimeoutMs',
  'maxMatchLineLength',
] as const;

/** Smallest `maxReadCharacters` that still fits a cut line, its number and a header. */
const MIN_READ_CHARACTERS = 1_000;

/**
 * Checks the options of the reading tools and fills in the defaults. Called when a collection
 * is created, so a wrong option fails there, naming the option and the value.
 *
 * @throws {TypeError} naming the option, e.g. ``Expected the `maxLineLength` option to be a positive integer, got `0` (number).``
 */
export function validateReadToolsOptions(options: ReadToolsOptions): ResolvedReadToolsOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected the options to be an object with a \`workspace\`, got ${describeValue(options)}.`);
  }
  if (typeof (options.workspace as Partial<Workspace> | undefined)?.resolve !== 'function') {
    throw new TypeError(`Expected the \`workspace\` option to be a Workspace (new Workspace(root)), got ${describeValue(options.workspace)}.`);
  }
  for (const name of POSITIVE_INTEGER_OPTIONS) {
    const value = options[name];
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
      throw new TypeError(`Expected the \`${name}\` option to be a positive integer, got ${describeValue(value)}.`);
    }
  }
  const resolved: ResolvedReadToolsOptions = {
    workspace: options.workspace,
    maxReadCharacters: options.maxReadCharacters ?? DEFAULT_MAX_READ_CHARACTERS,
    // A smaller reply limit lowers the default line length with it, so one option is enough.
    maxLineLength:
      options.maxLineLength ?? Math.min(DEFAULT_MAX_LINE_LENGTH, Math.floor((options.maxReadCharacters ?? DEFAULT_MAX_READ_CHARACTERS) / 2)),
    maxFindResults: options.maxFindResults ?? DEFAULT_MAX_FIND_RESULTS,
    maxSearchFileBytes: options.maxSearchFileBytes ?? DEFAULT_MAX_SEARCH_FILE_BYTES,
    searchTimeoutMs: options.searchTimeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS,
    regexTimeoutMs: options.regexTimeoutMs ?? DEFAULT_REGEX_TIMEOUT_MS,
    maxMatchLineLength: options.maxMatchLineLength ?? DEFAULT_MAX_MATCH_LINE_LENGTH,
    skippedFolders: options.skippedFolders ?? DEFAULT_SKIPPED_FOLDERS,
    ripgrep: options.ripgrep ?? true,
    ripgrepAfterFiles: options.ripgrepAfterFiles ?? DEFAULT_RIPGREP_AFTER_FILES,
  };
  if (!(Number.isSafeInteger(resolved.ripgrepAfterFiles) && resolved.ripgrepAfterFiles >= 0)) {
    throw new TypeError(`Expected the \`ripgrepAfterFiles\` option to be a whole number of files (0 or more), got ${describeValue(resolved.ripgrepAfterFiles)}.`);
  }
  if (typeof resolved.ripgrep !== 'boolean' && (typeof resolved.ripgrep !== 'string' || resolved.ripgrep === '')) {
    throw new TypeError(`Expected the \`ripgrep\` option to be true, false or the path of the rg program, got ${describeValue(resolved.ripgrep)}.`);
  }
  if (resolved.maxReadCharacters < MIN_READ_CHARACTERS) {
    throw new TypeError(
      `Expected the \`maxReadCharacters\` option to be at least ${MIN_READ_CHARACTERS}, got ${describeValue(resolved.maxReadCharacters)}.`,
    );
  }
  if (resolved.maxLineLength > resolved.maxReadCharacters / 2) {
    throw new TypeError(
      `Expected the \`maxLineLength\` option to be at most half of \`maxReadCharacters\` (${resolved.maxReadCharacters / 2}), got ${describeValue(resolved.maxLineLength)}.`,
    );
  }
  const folders = resolved.skippedFolders as unknown;
  if (!Array.isArray(folders) || folders.some((name) => typeof name !== 'string' || name === '' || name.includes('/'))) {
    throw new TypeError(`Expected the \`skippedFolders\` option to be an array of folder names (no \`/\`), got ${describeValue(folders)}.`);
  }
  return { ...resolved, skippedFolders: Object.freeze([...resolved.skippedFolders]) };
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return `\`${value}\` (string)`;
  if (Array.isArray(value)) return `\`${JSON.stringify(value)}\` (array)`;
  if (value === null) return '`null`';
  if (typeof value === 'object') return `an object of type ${value.constructor?.name ?? 'Object'}`;
  return `\`${String(value)}\` (${typeof value})`;
}
