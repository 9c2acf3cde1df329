/**
 * @module The wire protocol between {@link connectWorkspace} (the caller) and
 * `agent-toolbelt serve-workspace` (the box end), in one place: its name and version, every
 * method with its parameters and result, the notifications, and the error codes. JSON-RPC 2.0
 * with `Content-Length` framing over stdio, through `vscode-jsonrpc`'s connection; the framing
 * itself (the bytes of the library's own stream reader and writer, read and written a turn's
 * messages at a time, long strings carried after the JSON) is in `framing.ts` and
 * `attachments.ts`, and nothing else in the package knows it.
 *
 * Paths on the wire are the box's own absolute paths, as the box's jail returned them; the
 * server checks every one of them again against its root before it touches the disk, so the
 * protocol reaches nothing the local workspace cannot. Bytes travel as base64 strings.
 */
import type { PathErrorReason } from '../../errors/path-error.js';
import type { SpawnParams, WireJob } from '../workspace-jobs.js';
import type { FileToolStep, FileUndoStep, SessionChanges, SessionSlice, StepOutcome, StepProgress } from '../in-place.js';

/** Sent in the handshake by both ends; a different name is not this protocol. */
export const PROTOCOL_NAME = 'agent-toolbelt-workspace';

/**
 * The protocol version. Both ends must speak the same one: a server that answers with another
 * is refused with a message naming both, so an old package in the box is found at connect time.
 */
export const PROTOCOL_VERSION = 4;
// 3: long strings travel after a message's JSON (`attachments.ts`), which version 2 cannot read.
// 4: the box keeps a session's read snapshots between steps, and a step carries only the
// changes since (`SessionSlice.keep`); a version 3 box would take those for every snapshot.

/** `fs.Stats` as numbers; the caller rebuilds a `Stats`-shaped object from it. */
export interface WireStats {
  readonly dev: number;
  readonly ino: number;
  readonly mode: number;
  readonly nlink: number;
  readonly uid: number;
  readonly gid: number;
  readonly rdev: number;
  readonly size: number;
  readonly blksize: number;
  readonly blocks: number;
  readonly atimeMs: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly birthtimeMs: number;
}

/** The type of a folder entry, links not followed. */
export type WireEntryType = 'file' | 'directory' | 'symlink' | 'block-device' | 'character-device' | 'fifo' | 'socket' | 'unknown';

/** One folder entry. */
export interface WireDirent {
  readonly name: string;
  readonly type: WireEntryType;
}

/** A path the box's jail accepted. */
export interface WireResolved {
  readonly absolute: string;
  readonly relative: string;
  readonly exists: boolean;
}

/** The caller's half of the handshake. */
export interface InitializeParams {
  readonly protocol: string;
  readonly version: number;
}

/** The server's half of the handshake: what the box is and has. */
export interface InitializeResult {
  readonly protocol: string;
  readonly version: number;
  /** The package version of the server. */
  readonly serverVersion: string;
  /** The canonical root in the box. */
  readonly root: string;
  /** `process.version` in the box. */
  readonly node: string;
  readonly platform: string;
  readonly hostname: string;
  /** The environment programs started in the box inherit (the server's own). */
  readonly environment: Readonly<Record<string, string>>;
  /** Where the box has the programs the tools look for (`bash`, `sh`, `rg`, …); `null` when absent. */
  readonly programs: Readonly<Record<string, string | null>>;
  /** `'bwrap'` when every program the server starts runs under bubblewrap. */
  readonly sandbox: 'bwrap' | null;
}


/** The server's answer to `process/spawn`: the process is running (or failed to start; `process/exit` says so). */
export interface SpawnResult {
  readonly pid: number | null;
}

/** A search, as search_files asks it: everything but the workspace, the compiled glob and the signal. */
export interface WireSearchRequest {
  readonly target: string;
  readonly targetIsFile: boolean;
  readonly pattern: { readonly source: string; readonly flags: string };
  readonly mode: 'files' | 'lines' | 'counts';
  readonly limit: number;
  /** The include glob as the model wrote it; the box compiles it the way search_files does. */
  readonly includeGlob?: string;
  /** The reading tools' options, without the workspace (numbers, folder names, the ripgrep setting). */
  readonly options: Readonly<Record<string, unknown>>;
}

/** Progress of a step, as `tools/progress` carries it. */
export type StepProgressWire = StepProgress;
/** A file tool's step, run in the box by the same collection code (`tools/run`; see `collections/files/in-box/`). */
export type WireToolRun = FileToolStep;
/** The part of the caller's session a step reads. */
export type WireSessionSlice = SessionSlice;
/** What a step did to the session, for the caller to replay. */
export type WireSessionChanges = SessionChanges;
/** How a step ended: as {@link StepOutcome}, with a thrown error as a JSON-RPC error's `code`, `message` and `data`. */
export type WireToolOutcome =
  | Exclude<StepOutcome, { readonly type: 'thrown' }>
  | { readonly type: 'error'; readonly code: number; readonly message: string; readonly data?: unknown };
/** The answer to `tools/run` and `tools/undo`. */
export interface WireStepAnswer {
  readonly outcome: WireToolOutcome;
  readonly changes: WireSessionChanges;
}

/** Every request, as `[parameters, result]`. */
export interface RemoteRequests {
  readonly initialize: [InitializeParams, InitializeResult];
  readonly 'workspace/resolve': [{ readonly path: string; readonly followFinalLink?: boolean }, WireResolved];
  readonly 'workspace/resolveFile': [{ readonly path: string; readonly followFinalLink?: boolean }, WireResolved & { readonly stats: WireStats }];
  readonly 'workspace/resolveDirectory': [{ readonly path: string }, WireResolved];
  readonly 'workspace/privateDir': [{ readonly segments: readonly string[] }, string];
  readonly 'fs/lstat': [{ readonly path: string }, WireStats | null];
  readonly 'fs/stat': [{ readonly path: string }, WireStats | null];
  /** The whole file, base64. */
  readonly 'fs/readFile': [{ readonly path: string }, string];
  /**
   * Opens a file for reading, answering with its stats and its first `prefetch` bytes
   * (base64), so a small file, or the first page of a large one, costs this one round trip.
   * With `closeIfWhole`, a file that fits in `prefetch` is closed at once.
   */
  readonly 'fs/open': [
    { readonly path: string; readonly prefetch?: number; readonly closeIfWhole?: boolean },
    /** `handle` is `null` when `closeIfWhole` was asked and `head` holds the whole file. */
    { readonly handle: number | null; readonly stats: WireStats; readonly head: string },
  ];
  /** `length` bytes from `position`, base64 (shorter at the end of the file). */
  readonly 'fs/read': [{ readonly handle: number; readonly position: number; readonly length: number }, string];
  readonly 'fs/fstat': [{ readonly handle: number }, WireStats];
  readonly 'fs/close': [{ readonly handle: number }, null];
  /** A new file (`EEXIST` if anything is there) open for streamed writing. */
  readonly 'fs/create': [{ readonly path: string }, { readonly handle: number }];
  /** Appends bytes (base64) to a file from `fs/create`; answered once the box has taken them. */
  readonly 'fs/append': [{ readonly handle: number; readonly data: string }, null];
  /** Flushes and closes a file from `fs/create`. */
  readonly 'fs/finish': [{ readonly handle: number }, null];
  readonly 'fs/list': [{ readonly path: string }, WireDirent[]];
  readonly 'fs/makeDirectory': [{ readonly path: string }, null];
  readonly 'fs/readLink': [{ readonly path: string }, string];
  readonly 'fs/createSymlink': [{ readonly target: string; readonly path: string }, null];
  readonly 'fs/remove': [{ readonly path: string }, null];
  readonly 'fs/renameExclusive': [{ readonly from: string; readonly to: string }, null];
  readonly 'fs/writeFileAtomic': [{ readonly path: string; readonly data: string; readonly upload?: number; readonly exclusive?: boolean; readonly mode?: number }, null];
  /** `id` is the caller's own number for the process, so output that arrives before the answer has a home. */
  /** search_files' engine, run in the box (see `SearchesInPlace`); answered with its outcome. */
  readonly 'files/search': [WireSearchRequest, unknown];
  /** A file tool's policy check or its whole execution, in the box: one request per tool call (see {@link WireToolRun}). */
  readonly 'tools/run': [WireToolRun & { readonly progressId?: number; readonly pieces?: Readonly<Record<string, number>> }, WireStepAnswer];
  /** `files.undo(session)` in the box, with the session's undo record for the root. */
  readonly 'tools/undo': [FileUndoStep, WireStepAnswer];
  readonly 'process/spawn': [SpawnParams & { readonly id: number }, SpawnResult];
  readonly 'process/stop': [{ readonly id: number; readonly signal: string }, null];
  readonly 'process/release': [{ readonly id: number }, null];
  readonly 'jobs/start': [
    { readonly sessionId: string; readonly label: string; readonly spawn: SpawnParams; readonly maxRuntimeMs: number },
    WireJob,
  ];
  readonly 'jobs/list': [{ readonly sessionId: string }, WireJob[]];
  /** Output bytes from `position` (at most `length`), base64, with the job as it is now. */
  readonly 'jobs/read': [
    { readonly sessionId: string; readonly id: string; readonly position: number; readonly length: number },
    { readonly job: WireJob; readonly data: string },
  ];
  readonly 'jobs/stop': [{ readonly sessionId: string; readonly id: string }, WireJob];
}

/** Every notification and its parameters. */
export interface RemoteNotifications {
  /** Server → caller: bytes a process wrote. */
  readonly 'process/output': { readonly id: number; readonly stream: 'stdout' | 'stderr'; readonly data: string };
  /** Server → caller: the stream has ended (every holder of the pipe closed it, or it was released). */
  readonly 'process/end': { readonly id: number; readonly stream: 'stdout' | 'stderr' };
  /** Server → caller: the main process ended, or never started (`startError`). */
  readonly 'process/exit': { readonly id: number; readonly exitCode: number | null; readonly signal: string | null; readonly startError?: string };
  /** Server → caller: progress of a `tools/run` step (already coalesced in the box). */
  readonly 'tools/progress': { readonly id: number; readonly update: StepProgressWire };
  /**
   * Caller → server: a piece of a long value a later request names by `upload` id, sent ahead
   * so that no message takes long to encode or decode: a long string input of `tools/run` (the
   * content of a large `write_file`; the request's `pieces` maps the field to the upload, with
   * `''` in the field), or the base64 bytes of `fs/writeFileAtomic` (its `upload`, `data: ''`).
   */
  readonly 'upload/piece': { readonly upload: number; readonly text: string };
  /** Caller → server: this many bytes of a stream were consumed (back-pressure credit). */
  readonly 'process/ack': { readonly id: number; readonly stream: 'stdout' | 'stderr'; readonly bytes: number };
}

/** A method name. */
export type RemoteMethod = keyof RemoteRequests;
/** A notification name. */
export type RemoteNotification = keyof RemoteNotifications;

/**
 * Bytes of a process's output the server sends ahead of the caller's acknowledgements before
 * it stops reading the process (which then blocks on its full pipe): back-pressure end to end.
 */
export const OUTPUT_WINDOW_BYTES = 1024 * 1024;

/** A string (an input, or base64 bytes) longer than this travels as `upload/piece` notifications of this many characters. */
export const INPUT_PIECE_CHARACTERS = 256 * 1024;

/** Bytes `fs/open` sends ahead: the first read of `read_file` and of the search (64 KB). */
export const OPEN_PREFETCH_BYTES = 64 * 1024;

/** JSON-RPC error codes of this protocol (the application range). */
export const RemoteErrorCode = {
  /** A path the jail refused; `data` is {@link WirePathError}. */
  path: 1001,
  /** A system call failed; `data` is {@link WireSystemError}. */
  system: 1002,
  /** The two ends speak different protocol versions. */
  version: 1003,
  /** Anything else the server could not do (a bug, reported with its message). */
  failed: 1004,
  /** An expected failure a tool threw (a `ToolError`); `data` is `{ data?: unknown }`, the error's own data. */
  tool: 1005,
} as const;

/** `data` of a {@link RemoteErrorCode.path} error. */
export interface WirePathError {
  readonly path: string;
  readonly reason: PathErrorReason;
}

/** `data` of a {@link RemoteErrorCode.system} error. */
export interface WireSystemError {
  readonly code?: string;
  readonly syscall?: string;
}

/** The programs whose place in the box the handshake reports. */
export const REPORTED_PROGRAMS = ['bash', 'sh', 'rg', 'bwrap', 'git', 'true'] as const;
