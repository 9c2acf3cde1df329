import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { ToolError } from '../../../errors/tool-error.js';
import type { Session } from '../../../session.js';
import { withPathLock } from '../../../workspace/path-lock.js';
import type { Workspace } from '../../../workspace/workspace.js';
import { saveBackup } from './backups.js';
import type { NumberedLines } from '../text/edit-text.js';
import { changedSince, firstUnreadLine, readSnapshot } from './read-state.js';
import { cutLine } from '../text/text.js';
import { TimeSlicer } from '../../../time-slice.js';

/** What every writing tool is built with: the collection's options after validation. */
export interface WriteToolsContext {
  readonly workspace: Workspace;
  /** Copy each file to `.toolbelt/backups/` before changing it, and keep the undo record. */
  readonly keepBackups: boolean;
  /** Lines shown in replies are cut at this many characters. */
  readonly maxLineLength: number;
}

/** A path a writing tool will touch, as its policy check sees it. */
export interface PolicyPath {
  readonly path: string;
  /** Follow a link in the last segment (edits change the target; create, move and delete act on the link). */
  readonly followFinalLink: boolean;
  /** A tool's own check of an existing file (a size limit), run before the read check. */
  readonly checkFile?: (stats: Stats, shown: string) => void;
  /** The change needs a fresh read of the file in this session (`whole`: every line). */
  readonly needsRead?: { readonly toolName: string; readonly whole: boolean };
  /**
   * The call can only succeed on an existing file: the refusal texts for a missing path and
   * for a folder, checked before anyone is asked, so nobody approves a call that cannot work.
   */
  readonly mustExist?: { readonly missing: (shown: string) => string; readonly folder: (shown: string) => string };
}

/**
 * The writing tools' `checkPolicy`: every path must pass the jail, stay out of the private
 * folder and, for edits, have a fresh read, before anyone is asked to approve the call; a
 * person is never asked about a call that would be refused. `execute` checks again under
 * the path lock, since files can change while a person decides.
 */
export function writePolicy<Input>(workspace: Workspace, pathsOf: (input: Input) => readonly PolicyPath[]) {
  return async (input: Input, { session }: { session: Session }): Promise<string | undefined> => {
    try {
      for (const { path, followFinalLink, checkFile, needsRead, mustExist } of pathsOf(input)) {
        const resolved = await workspace.resolve(path, { followFinalLink });
        refusePrivate(workspace, resolved.absolute, resolved.relative);
        if (mustExist !== undefined) {
          const found = followFinalLink ? await workspace.statOrUndefined(resolved.absolute) : await workspace.lstatOrUndefined(resolved.absolute);
          if (found === undefined) throw new ToolError(mustExist.missing(resolved.relative));
          if (found.isDirectory()) throw new ToolError(mustExist.folder(resolved.relative));
        }
        if (checkFile === undefined && needsRead === undefined) continue;
        const stats = await workspace.statOrUndefined(resolved.absolute);
        // A missing file gets the tool's own message from execute.
        if (!stats?.isFile()) continue;
        checkFile?.(stats, resolved.relative);
        if (needsRead !== undefined) requireFreshRead(session, resolved.absolute, stats, resolved.relative, needsRead);
      }
      return undefined;
    } catch (error) {
      if (error instanceof ToolError) return error.message;
      throw error;
    }
  };
}

/** Refuses a path inside the private folder `.toolbelt/`, which only the toolbelt itself writes. */
export function refusePrivate(workspace: Workspace, absolute: string, shown: string): void {
  if (!workspace.isPrivate(absolute)) return;
  throw new ToolError(
    `\`${shown}\` is inside the workspace's private folder \`.toolbelt/\` (backups and saved output), which the file tools do not change. Keep notes with the scratch notes tools (note_write, log_append) instead, and use a path outside \`.toolbelt/\` for other files.`,
  );
}

/**
 * Refuses to change a file the session has not read (`whole`: read in full), or one that
 * changed since that read: a change made on a stale picture of the file would undo someone
 * else's work.
 */
export function requireFreshRead(
  session: Session,
  absolute: string,
  stats: Pick<Stats, 'mtimeMs' | 'size'>,
  shown: string,
  need: { readonly toolName: string; readonly whole: boolean },
): void {
  const snapshot = readSnapshot(session, absolute);
  if (snapshot === undefined) {
    throw new ToolError(
      need.whole
        ? `You have not read \`${shown}\` in this session, so write_file will not overwrite it. Read it with read_file first, without start_line and end_line so the whole file is read, then call write_file again; to change only part of it, use edit_file.`
        : `You have not read \`${shown}\` in this session, so ${need.toolName} will not change it. Read it with read_file first (the part you want to change is enough), then call ${need.toolName} again.`,
    );
  }
  if (changedSince(snapshot, stats)) {
    throw new ToolError(
      `\`${shown}\` changed since you last read it (a command, another tool or a person wrote to it), so ${need.toolName} did not touch it. Read it again with read_file and base your change on what it holds now.`,
    );
  }
  if (need.whole && !snapshot.whole) {
    throw new ToolError(
      `You have read only part of \`${shown}\`, so write_file will not overwrite it. Read the rest first (continue with read_file start_line=${firstUnreadLine(snapshot)}; pages of an unchanged file add up to a whole read), or change the part you read with edit_file.`,
    );
  }
}

/**
 * Makes the backup copy `keepBackups` asks for, before a change. When the copy cannot be
 * made, the change must not happen: this throws a {@link ToolError} that says why, and the
 * caller has touched nothing yet.
 */
export async function backupBeforeChange(context: WriteToolsContext, shown: string, bytes: Uint8Array): Promise<string | undefined> {
  if (!context.keepBackups) return undefined;
  try {
    return await saveBackup(context.workspace, shown, bytes);
  } catch (error) {
    const reason = error instanceof ToolError ? error.message : `Writing the copy failed: ${error instanceof Error ? error.message : String(error)}.`;
    throw new ToolError(`\`${shown}\` was not changed, because its backup copy could not be made (backups are switched on for this workspace). ${reason}`, {
      cause: error,
    });
  }
}

/** Runs `task` holding the path lock of every key (taken in sorted order, so two calls never wait on each other). */
export function withPathLocks<T>(keys: readonly string[], task: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(keys)].sort();
  const run = (index: number): Promise<T> => (index === sorted.length ? task() : withPathLock(sorted[index]!, () => run(index + 1)));
  return run(0);
}

/** Lines as `N: text`, the way read_file shows them, each cut at `maxLineLength`. */
export function formatNumberedLines(lines: NumberedLines, maxLineLength: number): string {
  return lines.lines.map((line, index) => `${lines.first + index}: ${cutLine(line, maxLineLength)}`).join('\n');
}

/** `12` or `12–14`, for messages. */
export function lineRange(lines: Pick<NumberedLines, 'first' | 'last'>): string {
  return lines.first === lines.last ? `${lines.first}` : `${lines.first}–${lines.last}`;
}

/** The SHA-256 of some bytes, hex: how undo recognises the content a tool left behind. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Bytes hashed between two turns of the event loop by {@link contentHashInSlices}. */
const HASH_CHUNK = 1024 * 1024;

/**
 * {@link contentHash} in time slices, for what the writing tools just wrote: hashing 10 MB at
 * once holds the event loop about 10 ms, a megabyte about one.
 */
export async function contentHashInSlices(bytes: Uint8Array, slicer = new TimeSlicer()): Promise<string> {
  const hash = createHash('sha256');
  for (let start = 0; start < bytes.length; start += HASH_CHUNK) {
    hash.update(bytes.subarray(start, start + HASH_CHUNK));
    if (slicer.dueNow()) await slicer.pause();
  }
  return hash.digest('hex');
}

