/**
 * @module The contract for work a workspace runs where its files are. A remote workspace's
 * box runs the file tools and `search_files`' engine next to the files, one round trip a call;
 * these are the shapes of that work: the steps, the part of a session that travels with them,
 * and the answers. The files collection implements both ends (`collections/files/in-box/`);
 * the workspace only carries them. Everything here is plain data, so it crosses the wire as it is.
 */
import type { ToolOutput } from '../tool.js';
import type { Workspace } from './workspace.js';

/**
 * How long a search may run by default before it answers with what it found so far. The box
 * stops a search at this time; the caller's request waits a little longer than that.
 */
export const DEFAULT_SEARCH_TIMEOUT_MS = 30_000;

/** What the session knows of a file it read: enough to tell whether it changed since. */
export interface ReadSnapshot {
  /** Modification time in milliseconds. */
  readonly mtimeMs: number;
  readonly size: number;
  /**
   * True when every line of the file was read (write_file needs that): in one reply, or page
   * by page across several while the file stayed the same.
   */
  readonly whole: boolean;
  /** The line ranges read so far, merged, while `whole` is false. */
  readonly ranges?: ReadonlyArray<readonly [number, number]>;
  /** The file's last line, once a read reached the end. */
  readonly lastLine?: number;
}

/**
 * One change a file tool made, as the undo record keeps it: small, plain JSON, paths relative
 * to the workspace root. Contents live in `.toolbelt/backups/`; the record holds only the
 * backup's path and a hash of what the tool left, to tell later whether anyone changed it.
 */
export type UndoChange =
  /** `edit_file` or `write_file` changed the file; `backup` holds the content before. */
  | { readonly type: 'write'; readonly path: string; readonly backup: string; readonly after: string }
  /** `create_file` made the file. */
  | { readonly type: 'create'; readonly path: string; readonly after: string }
  /** `move_file` moved a file, folder or link from `from` to `to`. */
  | { readonly type: 'move'; readonly from: string; readonly to: string; readonly after: string }
  /** `delete_file` deleted a file; `backup` holds its content, `mode` its permission bits. */
  | { readonly type: 'delete'; readonly path: string; readonly backup: string; readonly mode: number }
  /** `delete_file` deleted a symbolic link pointing at `target`. */
  | { readonly type: 'delete-link'; readonly path: string; readonly target: string };

/** One tool's step, as the box runs it: everything but the workspace and the live session. */
export interface FileToolStep {
  /** The collection the tool comes from; only the file tools run in place. */
  readonly collection: 'files';
  /** The collection's options without `workspace`: plain numbers, booleans and folder names. */
  readonly options: Readonly<Record<string, unknown>>;
  readonly tool: string;
  /** `check`: the tool's `checkPolicy`. `execute`: its `execute` (after the policy, with `checkFirst`). */
  readonly phase: 'check' | 'execute';
  /** With `phase: 'execute'`: run `checkPolicy` first and answer with its refusal, as `runTool` would have. */
  readonly checkFirst?: boolean;
  /** The input, already parsed with the tool's schema. */
  readonly input: Readonly<Record<string, unknown>>;
  readonly toolCallId: string;
  readonly session: SessionSlice;
  /** Set for a provider-shaped tool of the collection (`files.native`): which one, with its options. */
  readonly native?: NativeToolStep;
}

/** Which of `files.native` a step's tool is. */
export type NativeToolStep = { readonly tool: 'textEditor'; readonly options?: Readonly<Record<string, unknown>> } | { readonly tool: 'applyPatch' };

/** `files.undo(session)`, as the box runs it. */
export interface FileUndoStep {
  readonly collection: 'files';
  readonly options: Readonly<Record<string, unknown>>;
  readonly session: SessionSlice;
}

/**
 * The part of a session the file tools read, for one workspace root: the read snapshots of
 * files under the root (read-before-write, pages that add up), and for undo only the root's
 * undo record. Approvals, tasks and jobs never travel.
 */
export interface SessionSlice {
  readonly id: string;
  /**
   * `files.reads` entries under the root, keyed by canonical path: all of them, or with
   * `keep.since` only those set since that version.
   */
  readonly reads: Readonly<Record<string, ReadSnapshot>>;
  /** Asks the box to keep the snapshots for the session's next steps; without it they serve this step only. */
  readonly keep?: KeptSlice;
  /** The root's undo record; sent with {@link FileUndoStep} only (tools only add to it). */
  readonly undo?: unknown;
}

/**
 * How a slice builds on what the box keeps for a session between its steps. A box that has
 * nothing for `key` at `since` answers `resend-slice`, and the caller sends every snapshot.
 */
export interface KeptSlice {
  /** Names one session object of the caller (not its id: two objects of one stored session differ). */
  readonly key: string;
  /** This slice's version; the caller counts up with every step it sends. */
  readonly version: number;
  /** The version `reads` holds the changes since; absent when `reads` holds every snapshot. */
  readonly since?: number;
  /** With `since`: the snapshots dropped since. */
  readonly deleted?: readonly string[];
}

/**
 * What a step did to the session. Deltas, not whole maps: read tools run side by side, and
 * two parallel `read_file` calls must both leave their snapshot.
 */
export interface SessionChanges {
  /** Snapshots the step set, by path; replayed through `recordRead`, so pages read side by side still add up. */
  readonly readsSet: Readonly<Record<string, ReadSnapshot>>;
  readonly readsDeleted: readonly string[];
  /** Undo entries the step added to the current unit. */
  readonly undoAdded: readonly UndoChange[];
  /** After an undo: the root's whole undo record, which replaces the caller's. */
  readonly undo?: unknown;
}

/** How a step ended: the tool's output, the policy's verdict, or what it threw. */
export type StepOutcome =
  | { readonly type: 'output'; readonly output: ToolOutput }
  | { readonly type: 'checked'; readonly refusal?: string }
  | { readonly type: 'thrown'; readonly error: unknown }
  /** The box keeps nothing at the version the slice builds on: the step did not run; send it again with every snapshot. */
  | { readonly type: 'resend-slice' };

/** A step's answer. */
export interface StepAnswer {
  readonly outcome: StepOutcome;
  readonly changes: SessionChanges;
}

/** Progress a step reports, already coalesced where it ran. */
export interface StepProgress {
  readonly output?: string;
  readonly message?: string;
  readonly progress?: number;
  readonly total?: number;
}

/**
 * A workspace capability (announced by `capabilities.runsFileToolsInPlace`): runs the file
 * tools' steps next to its files, each in one round trip. A remote workspace sends them to its
 * box, where `serve-workspace` runs the same collection over its local workspace.
 */
export interface RunsFileToolsInPlace {
  /** Runs one step; cancelling `signal` cancels it where it runs. */
  runFileToolStep(step: FileToolStep, options: { readonly signal?: AbortSignal; readonly onProgress?: (update: StepProgress) => void }): Promise<StepAnswer>;
  /** Runs `files.undo(session)` where the files are. */
  undoFileToolsInPlace(step: FileUndoStep): Promise<StepAnswer>;
}

/** The workspace's in-place runner, when it has one. */
export function fileToolsInPlace(workspace: Workspace): RunsFileToolsInPlace | undefined {
  if (workspace.capabilities.runsFileToolsInPlace !== true) return undefined;
  const runner = workspace as unknown as Partial<RunsFileToolsInPlace>;
  if (typeof runner.runFileToolStep !== 'function' || typeof runner.undoFileToolsInPlace !== 'function') return undefined;
  return runner as RunsFileToolsInPlace;
}

/**
 * A workspace capability: runs `search_files`' engine next to its files (a remote workspace
 * sends the request to its box, whose server runs the same engine on its local workspace), so
 * a search costs one round trip, not one per file.
 */
export interface SearchesInPlace {
  searchInPlace(request: InPlaceSearchRequest): Promise<SearchOutcome>;
}

/** What one search is asked to do, as far as it can travel to where the files are. */
export interface InPlaceSearchRequest {
  /** The reading tools' options: plain numbers, folder names and the ripgrep setting, with the workspace. */
  readonly options: { readonly workspace: Workspace; readonly searchTimeoutMs: number };
  /** Canonical absolute path of the folder (or file) to search. */
  readonly target: string;
  readonly targetIsFile: boolean;
  readonly pattern: { readonly source: string; readonly flags: string };
  readonly mode: 'files' | 'lines' | 'counts';
  readonly limit: number;
  /** The glob as the model wrote it, for ripgrep (see `ripgrepGlob`). */
  readonly includeGlob?: string | undefined;
  readonly signal: AbortSignal;
}

/** The matches in one file. */
export interface FileMatch {
  /** Relative to the workspace root. */
  readonly path: string;
  /** Matching lines (mode `files`: 1, as matching stops at the first). */
  readonly count: number;
  /** Mode `lines`: line numbers with text cut around the match. */
  readonly lines: readonly (readonly [number, string])[];
}

/** Why a search ended before it looked at everything. */
export type SearchStop =
  | { readonly type: 'timeout'; readonly afterMs: number }
  | { readonly type: 'cancelled' }
  /** The regular expression was stuck on `line` (when known) of `file`. */
  | { readonly type: 'regex-timeout'; readonly file: string; readonly line?: number };

/** What a search found and what it passed over. */
export interface SearchOutcome {
  /** Files with matches, in path order, already cut to the limit. */
  readonly matches: readonly FileMatch[];
  /** Text files searched. */
  readonly searched: number;
  /** True when the limit cut the results or files were left unsearched because of it. */
  readonly limitReached: boolean;
  readonly skipped: {
    readonly binary: number;
    /** Relative paths of files that are not UTF-8 (UTF-16 included). */
    readonly notUtf8: readonly string[];
    /** Relative paths of files over the size cap. */
    readonly tooLarge: readonly string[];
    /** Files and folders that could not be opened. */
    readonly unreadable: readonly string[];
  };
  readonly stopped?: SearchStop;
  /** Whether ripgrep picked the files to read (see `ripgrep.ts`), or the walk read them all. */
  readonly engine: 'ripgrep' | 'node';
  /** The same, for a user interface. */
  readonly data: unknown;
}

