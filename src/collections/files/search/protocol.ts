/**
 * The messages between the main thread, the search worker (`search-worker-thread.ts`) and its
 * walker thread (`search-walker-thread.ts`), with the constants all three agree on. Every side
 * imports them from here, so a message changed in one place is checked in all.
 */
import type { RequiredText } from './prefilter.js';

/** What the worker needs to match lines. */
export interface SearchWorkerInit {
  readonly source: string;
  readonly flags: string;
  readonly mode: 'files' | 'lines' | 'counts';
  readonly maxMatchLineLength: number;
  /** The whole-text test may skip a chunk with no match (see `canPrefilter` in `prefilter.ts`). */
  readonly prefilter: boolean;
  /** Text every match contains (see `requiredText`): in disk mode, files whose bytes lack it are not decoded. */
  readonly required: RequiredText | undefined;
  /** Disk mode: files over this many bytes are not read (answered `too-large`). */
  readonly maxFileBytes: number;
  /**
   * Where the worker says what it is doing, readable while it is stuck: slot 0 holds the
   * sequence number of the chunk (or file) it is matching, slot 1 the index of the line
   * within it (-1 during the whole-text test, {@link READING} while it reads a file), slot 2
   * (disk mode) the length of the path in `path`.
   */
  readonly progress: SharedArrayBuffer;
  /** Disk mode: the UTF-8 path of the file being matched, {@link PATH_BYTES} long. */
  readonly path: SharedArrayBuffer;
}

/** The progress marker while the worker reads a file in disk mode: not a regular expression stuck. */
export const READING = -2;

/** A piece of one file's text: whole lines, except that the last piece may end without `\n`. */
export interface SearchChunk {
  readonly type: 'chunk';
  /** Numbers chunks in the order they are sent, so the watchdog can tell which one is stuck. */
  readonly sequence: number;
  readonly startLine: number;
  readonly text: string;
  /** Most matching lines wanted back (mode `lines`). */
  readonly wanted: number;
}

/**
 * Disk mode: the worker's walker thread walks the tree (links never followed, skipped folders
 * not entered, entries in name order, as `walkFiles` does) while the worker reads each file
 * and matches it, and stops once `limit` files (mode `lines`: lines) matched.
 */
export interface SearchWalkJob {
  readonly type: 'walk';
  /** Canonical absolute path of the folder (or file) to search. */
  readonly start: string;
  readonly startIsFile: boolean;
  /** The workspace root, for the paths shown. */
  readonly root: string;
  readonly skipped: readonly string[];
  /** The include glob as {@link compileGlob} reads it, compiled to a regular expression. */
  readonly include: IncludePattern | undefined;
  readonly limit: number;
  /**
   * The files to search, in this order, instead of walking: `[absolute path, path shown]`.
   * Used when ripgrep already picked the files that may match.
   */
  readonly files?: readonly (readonly [string, string])[];
  /**
   * Hand the rest of the walk to ripgrep when matches are sparse: after `probeFiles` text
   * files, if reaching the limit at the rate seen so far would take more than
   * `maxProjectedFiles`, and the walk has at least `minFilesLeft` files left (or is still
   * listing folders), the walk stops there (see {@link FoundMessage.end}).
   */
  readonly handOff?: { readonly probeFiles: number; readonly maxProjectedFiles: number; readonly minFilesLeft: number };
}

/**
 * `find_files` on a local workspace: the worker walks the tree itself with synchronous calls
 * (links listed, never followed; skipped folders not entered) and answers with the files
 * `include` matches, their modification times and, for links, their targets.
 */
export interface FindJob {
  readonly type: 'find';
  /**
   * Canonical absolute path of the folder to walk, checked against the workspace's bounds but
   * not yet found to be a folder: the worker looks (see {@link FindAnswer.startMissing}).
   */
  readonly start: string;
  /** The workspace root, for the paths shown. */
  readonly root: string;
  readonly skipped: readonly string[];
  readonly include: IncludePattern;
  /** How many of the newest files found to send back. */
  readonly keep: number;
}

/** Files found, packed for another thread: paths and times in step. */
export interface PackedFiles {
  /** The paths shown, joined by NUL (which no name holds). */
  readonly paths: string;
  /** Their modification times in ms. */
  readonly mtimes: Float64Array;
  /** Where the links among them point: `[index, target]`. */
  readonly targets: readonly (readonly [number, string])[];
}

/** What the walker thread's half of a `find_files` walk found. */
export interface ListedFiles {
  /** Files (and links) looked at. */
  readonly walked: number;
  /** The files the glob took, in no particular order. */
  readonly files: PackedFiles;
  /** Folders that could not be listed, relative to the workspace root. */
  readonly unreadable: readonly string[];
}

/** The worker's answer to a {@link FindJob}. */
export interface FindAnswer {
  readonly type: 'listed';
  /** Files (and links) looked at. */
  readonly walked: number;
  /** Files the glob took. */
  readonly total: number;
  /** The {@link FindJob.keep} newest of them (ties by path), newest first. */
  readonly newest: PackedFiles;
  /** Folders that could not be listed, relative to the workspace root. */
  readonly unreadable: readonly string[];
  /** True when {@link FindJob.start} was not a folder (or out of reach); nothing else was looked at. */
  readonly startMissing?: true;
}

/** An include glob for the worker: it matches when the path equals `glob` or `regex` matches the path (or, with `basename`, the file name). */
export interface IncludePattern {
  readonly glob: string;
  readonly source: string;
  readonly flags: string;
  readonly basename: boolean;
  /**
   * The folders (paths from the start) below which a match can lie, as a regular expression:
   * a walk does not enter any other. Absent when any folder may hold one (see `glob-prefix.ts`).
   */
  readonly folders?: { readonly source: string; readonly flags: string };
  /** The glob's literal folder part (path from the start), where a walk may begin (see `glob-prefix.ts`). */
  readonly base?: string;
  /** True when every match is a file directly in {@link base}. */
  readonly oneFolder?: true;
}

/** A file the disk-mode worker reports: one that matched or that it did not search. */
export interface FoundFile {
  /** Relative to the workspace root. */
  readonly path: string;
  readonly verdict: FileVerdict;
  readonly count: number;
  readonly lines: readonly (readonly [number, string])[];
}

/** Disk mode: what the worker found since its last message. */
export interface FoundMessage {
  readonly type: 'found';
  /** Text files searched since the last message. */
  readonly searched: number;
  readonly files: readonly FoundFile[];
  /** Folders that could not be listed, relative to the workspace root. */
  readonly unreadable: readonly string[];
  /**
   * Set on the last message: whether files were left unsearched because the limit was
   * reached, and, when the walk was handed off, the last file searched (every file before it
   * in walk order was searched too, and none after it).
   */
  readonly end?: { readonly stoppedByLimit: boolean; readonly handedOffAfter?: string };
}

/** What a file turned out to be; only `text` files were searched. */
export type FileVerdict = 'text' | 'binary' | 'not-utf8' | 'too-large' | 'unreadable';

/** The worker's answer for one chunk or file. */
export interface ChunkResult {
  /** Lines of the chunk that match. In mode `files` the worker stops at the first. */
  readonly count: number;
  /** Mode `lines`: `[line number, text cut around the match]`, at most `wanted`. */
  readonly lines: readonly (readonly [number, string])[];
  /** File jobs only. */
  readonly verdict?: FileVerdict;
}

/** Messages the worker sends: `results` answer the jobs in the order they were sent (a batch may be answered in parts). */
export type WorkerMessage = { readonly type: 'ready' } | { readonly type: 'results'; readonly results: readonly ChunkResult[] } | FoundMessage | FindAnswer;

/** Bytes of shared memory where the disk-mode worker writes the path of the file it is matching, for the watchdog. */
export const PATH_BYTES = 16 * 1024;

/** Slots of the control memory the search worker shares with its walker thread. */
export const CONTROL_SLOTS = {
  /** Batches the walker posted. */
  posted: 0,
  /** Batches the search worker took. */
  taken: 1,
  /** The id of the walk the walker may continue (0: stop). */
  stop: 2,
  /**
   * The id of the walk whose search worker has nothing to read and would list folders itself
   * (0: none): the walker gives it the last of the folders it has waiting (see
   * {@link WalkerSearchJob.share}).
   */
  wants: 3,
} as const;

/** Batches of files the walker may send ahead of the reading (memory stays bounded on a huge tree). */
export const WALK_BATCHES_AHEAD = 64;
/** Files in one of the walker's batches, about. */
export const WALK_BATCH_ENTRIES = 256;
/** Folders `find_files` lists breadth first before the search worker shares the walk with its walker thread. */
export const SHARE_FOLDERS = 64;

/** What the walker thread is started with. */
export interface WalkerData {
  /** The port its batches go out on (the search worker reads it with `receiveMessageOnPort`). */
  readonly port: import('node:worker_threads').MessagePort;
  /** The control memory, {@link CONTROL_SLOTS}. */
  readonly control: SharedArrayBuffer;
}

/** A folder still to list: its absolute path and its path from the start of the walk. */
export interface PendingFolder {
  readonly absolute: string;
  readonly fromStart: string;
}

/** A search walk the search worker gives its walker thread. */
export interface WalkerSearchJob {
  readonly type: 'walk';
  readonly id: number;
  readonly start: string;
  readonly skipped: readonly string[];
  readonly include: IncludePattern | undefined;
  /** Paths below the start are shown as this and the path from the start. */
  readonly shownPrefix: string;
  readonly startShown: string;
  /**
   * When the pattern has required text: the walker also screens files it has sent, from the
   * newest back, while the search worker works from the oldest (see {@link CLAIM}), so both
   * threads read files. It lists instead whenever the worker holds few batches, so a worker
   * counting the files left (for a hand-off to ripgrep) gets them soon.
   */
  readonly screen?: { readonly required: RequiredText; readonly maxFileBytes: number };
  /**
   * The search worker may list folders while it waits: the walker gives it the last of its
   * waiting folders when it asks ({@link CONTROL_SLOTS}`.wants`), and the worker searches their
   * files after all the walker sends. Set for a walk with an `include` glob; the walker gives
   * only once folders have held fewer files to read than there were folders, when listing is
   * most of the work (with more, the worker would read the given folders' files alone).
   */
  readonly share?: true;
}

/**
 * States of one file of a walker batch, in the batch's `claims` memory (one slot per entry).
 * The search worker takes a file by moving its slot from `free` to `worker`; the walker
 * screens one by moving it from `free` to `screening`, reading it, and storing what it found:
 * `noMatch` (text without the pattern's required text: searched, no match), `mayMatch` (the
 * worker reads and matches it itself) or why it is not searched. Whoever moves a slot off
 * `free` first does the file; the worker waits for a slot in `screening`.
 */
export const CLAIM = {
  free: 0,
  worker: 1,
  screening: 2,
  noMatch: 3,
  mayMatch: 4,
  binary: 5,
  notUtf8: 6,
  tooLarge: 7,
  unreadable: 8,
} as const;

/** The verdict a screened slot holds, for the states that are one. */
export const CLAIM_VERDICTS: Readonly<Record<number, Exclude<FileVerdict, 'text'>>> = {
  [CLAIM.binary]: 'binary',
  [CLAIM.notUtf8]: 'not-utf8',
  [CLAIM.tooLarge]: 'too-large',
  [CLAIM.unreadable]: 'unreadable',
};

/** Half of a `find_files` walk, given to the walker thread. */
export interface WalkerFindJob {
  readonly type: 'find';
  readonly id: number;
  readonly job: Omit<FindJob, 'type'>;
  /** The folders both threads share: each takes the next with `Atomics.add(taken, 0, 1)`. */
  readonly folders: readonly PendingFolder[];
  readonly taken: Int32Array;
}

/** A file to search (`f`: absolute path, path shown) or a folder that could not be listed (`u`). */
export type WalkEntry = readonly ['f', string, string] | readonly ['u', '', string];

/**
 * A batch's entries as they go between the threads: their kinds (`f`, `u`), a character each,
 * and their shown paths joined by NUL, which no path holds (a file's absolute path follows
 * from its shown path). Two strings cost next to nothing to copy; an array of arrays took
 * 250–440 µs a batch of 256 to post, and as long again to take off the port.
 */
export interface PackedEntries {
  readonly kinds: string;
  readonly shown: string;
}

/** What the walker thread posts on its port. */
export type WalkerMessage =
  | {
      readonly id: number;
      readonly entries: PackedEntries;
      readonly end: boolean;
      /** With {@link WalkerSearchJob.screen}: one {@link CLAIM} slot (an `Int32Array`) per entry. */
      readonly claims?: SharedArrayBuffer;
      readonly found?: undefined;
      readonly given?: undefined;
    }
  /** Folders for the search worker to list and search after all the walker sends, a stack (the next to list last); see {@link WalkerSearchJob.share}. */
  | { readonly id: number; readonly given: readonly PendingFolder[]; readonly entries?: undefined; readonly found?: undefined }
  | { readonly id: number; readonly found: ListedFiles; readonly error?: string; readonly given?: undefined };

/** What the main thread posts to the search worker. */
export type SearchWorkerRequest = ({ readonly type: 'init' } & SearchWorkerInit) | FindJob | SearchWalkJob | readonly SearchChunk[];
