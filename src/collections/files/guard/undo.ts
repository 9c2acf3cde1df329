import * as path from 'node:path';
import type { Session } from '../../../session.js';
import type { UndoChange } from '../../../workspace/in-place.js';
import { errorCode } from '../../../workspace/file-system-errors.js';
import type { Workspace } from '../../../workspace/workspace.js';
import { readBackup } from './backups.js';
import { forgetRead } from './read-state.js';
import { contentHash, withPathLocks } from './write-guards.js';

/** A file put back by {@link undoLastUnit}. */
export interface UndoneFile {
  /** The path as it is now, relative to the workspace root. */
  readonly path: string;
  /** `restored`: earlier content back; `removed`: a created file deleted; `moved-back`: returned from `movedFrom`; `recreated`: a deleted file or link put back. */
  readonly action: 'restored' | 'removed' | 'moved-back' | 'recreated';
  /** For `moved-back`: where the file had been moved to. */
  readonly movedFrom?: string;
}

/** A file {@link undoLastUnit} left alone, and why. */
export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

/** What `files.undo(session)` did. Put {@link UndoResult.text} in front of the next prompt: the model still believes its changes are there. */
export interface UndoResult {
  /** True when no change was on record: nothing was touched. */
  readonly nothingToUndo: boolean;
  readonly restored: readonly UndoneFile[];
  readonly skipped: readonly SkippedFile[];
  /** A summary written for the model (and fine for people). */
  readonly text: string;
  /** The same as {@link UndoResult.text}. */
  toString(): string;
}

/** Units (prompts) the undo record keeps per workspace; older ones are dropped. */
export const MAX_UNDO_UNITS = 100;

/** The session state key of the undo records, one per workspace root. */
export const UNDO_STATE_KEY = 'files.undo';
const STATE_KEY = UNDO_STATE_KEY;

interface UndoRecord {
  /** Oldest first; the last one receives new changes. */
  units: UndoChange[][];
}

/** The session's undo record for one workspace (keyed by its root, so two workspaces never undo each other's changes). */
function undoRecord(session: Session, workspace: Workspace): UndoRecord {
  const all = session.state<Record<string, UndoRecord>>(STATE_KEY, () => ({}));
  all[workspace.root] ??= { units: [[]] };
  const record = all[workspace.root]!;
  if (record.units.length === 0) record.units.push([]);
  return record;
}

/**
 * The session's undo record for the workspace's root, as plain data; with `replacement`, puts
 * that record in its place first (the remote file tools run undo in the box and bring the
 * record back).
 */
export function undoRecordOf(session: Session, workspace: Workspace, replacement?: unknown): unknown {
  if (replacement !== undefined) session.state<Record<string, UndoRecord>>(STATE_KEY, () => ({}))[workspace.root] = replacement as UndoRecord;
  return undoRecord(session, workspace);
}

/** Adds a change to the current unit. */
export function recordChange(session: Session, workspace: Workspace, change: UndoChange): void {
  undoRecord(session, workspace).units.at(-1)!.push(change);
}

/** Starts a new unit (one prompt's changes), unless the current one holds no change yet. */
export function beginUndoUnit(session: Session, workspace: Workspace): void {
  const record = undoRecord(session, workspace);
  if (record.units.at(-1)!.length === 0) return;
  record.units.push([]);
  if (record.units.length > MAX_UNDO_UNITS) record.units.splice(0, record.units.length - MAX_UNDO_UNITS);
}

/** What a tool left at a path, in a form that survives JSON: a content hash, a link's target, or `folder`. */
export async function fingerprint(workspace: Workspace, absolute: string): Promise<string | undefined> {
  const stats = await workspace.lstatOrUndefined(absolute);
  if (stats === undefined) return undefined;
  if (stats.isSymbolicLink()) return `link:${await readLinkTarget(workspace, absolute)}`;
  if (stats.isDirectory()) return 'folder';
  if (!stats.isFile()) return `other:${stats.ino}`;
  return `file:${contentHash(await workspace.readFile(absolute))}`;
}

/**
 * Takes back the newest unit that holds changes, newest change first: edited and overwritten
 * files get their earlier bytes back, created files are removed, moved ones moved back,
 * deleted ones recreated. A file that differs from what the tool left is skipped and named;
 * the rest are restored.
 */
export async function undoLastUnit(session: Session, workspace: Workspace): Promise<UndoResult> {
  const record = undoRecord(session, workspace);
  let unit: UndoChange[] | undefined;
  while (record.units.length > 0) {
    const candidate = record.units.pop()!;
    if (candidate.length > 0) {
      unit = candidate;
      break;
    }
  }
  // Changes made after the undo start a unit of their own, never join an older prompt's.
  record.units.push([]);
  if (unit === undefined) return undoResult([], [], true);

  const outcomes = new Map<string, UndoneFile | SkippedFile>();
  for (const change of [...unit].reverse()) {
    const outcome = await undoChange(session, workspace, change).catch(
      (error: unknown): SkippedFile => ({ path: changePath(change), reason: `it could not be restored: ${error instanceof Error ? error.message : String(error)}` }),
    );
    // The oldest change of a path decides where it ends up, so its outcome is the one reported.
    outcomes.delete(outcome.path);
    outcomes.set(outcome.path, outcome);
  }
  const restored = [...outcomes.values()].filter((outcome): outcome is UndoneFile => 'action' in outcome);
  const skipped = [...outcomes.values()].filter((outcome): outcome is SkippedFile => 'reason' in outcome);
  return undoResult(restored, skipped, false);
}

const CHANGED = 'it changed after the file tools left it, so it was left as it is';
const BACKUP_GONE = 'its backup copy in .toolbelt/backups/ is gone (copies are kept for a week, the newest 100)';
/** The file tools never change `.toolbelt/`, so no record (a session restored from JSON is only data) makes undo do it. */
const PRIVATE = 'it is inside the private folder `.toolbelt/`, which undo never changes';

async function undoChange(session: Session, workspace: Workspace, change: UndoChange): Promise<UndoneFile | SkippedFile> {
  switch (change.type) {
    case 'write':
    case 'create': {
      const { absolute } = await workspace.resolve(change.path, { followFinalLink: false });
      if (workspace.isPrivate(absolute)) return { path: change.path, reason: PRIVATE };
      return withPathLocks([absolute], async () => {
        const now = await fingerprint(workspace, absolute);
        if (now === undefined) return { path: change.path, reason: change.type === 'create' ? 'it no longer exists' : 'it no longer exists, so it was not recreated' };
        if (now !== `file:${change.after}`) return { path: change.path, reason: CHANGED };
        forgetRead(session, absolute);
        if (change.type === 'create') {
          await workspace.remove(absolute);
          return { path: change.path, action: 'removed' };
        }
        const before = await readBackup(workspace, change.backup);
        if (before === undefined) return { path: change.path, reason: BACKUP_GONE };
        await workspace.writeFileAtomic(absolute, before);
        return { path: change.path, action: 'restored' };
      });
    }
    case 'move': {
      const from = await workspace.resolve(change.from, { followFinalLink: false });
      const to = await workspace.resolve(change.to, { followFinalLink: false });
      if (workspace.isPrivate(from.absolute) || workspace.isPrivate(to.absolute)) return { path: change.from, reason: PRIVATE };
      return withPathLocks([from.absolute, to.absolute], async () => {
        const now = await fingerprint(workspace, to.absolute);
        if (now === undefined) return { path: change.from, reason: `\`${change.to}\`, where it was moved, no longer exists` };
        if (now !== change.after) return { path: change.from, reason: `\`${change.to}\`, where it was moved, changed after the file tools left it, so it was left as it is` };
        if ((await workspace.lstatOrUndefined(from.absolute)) !== undefined) {
          return { path: change.from, reason: `something new exists at \`${change.from}\`, so \`${change.to}\` was not moved back over it` };
        }
        await workspace.makeDirectory(path.dirname(from.absolute));
        await workspace.renameExclusive(to.absolute, from.absolute);
        forgetRead(session, to.absolute);
        return { path: change.from, action: 'moved-back', movedFrom: change.to };
      });
    }
    case 'delete':
    case 'delete-link': {
      const { absolute } = await workspace.resolve(change.path, { followFinalLink: false });
      if (workspace.isPrivate(absolute)) return { path: change.path, reason: PRIVATE };
      return withPathLocks([absolute], async () => {
        if ((await workspace.lstatOrUndefined(absolute)) !== undefined) {
          return { path: change.path, reason: 'something new exists at its path, so the deleted file was not put back over it' };
        }
        await workspace.makeDirectory(path.dirname(absolute));
        if (change.type === 'delete-link') {
          // A link is put back exactly as it was, target text and all.
          await workspace.createSymlink(change.target, absolute);
        } else {
          const before = await readBackup(workspace, change.backup);
          if (before === undefined) return { path: change.path, reason: BACKUP_GONE };
          // Plain permission bits only: a crafted record must not make a setuid file.
          await workspace.writeFileAtomic(absolute, before, { exclusive: true, mode: change.mode & 0o777 });
        }
        return { path: change.path, action: 'recreated' };
      });
    }
  }
}

function changePath(change: UndoChange): string {
  return change.type === 'move' ? change.from : change.path;
}

async function readLinkTarget(workspace: Workspace, absolute: string): Promise<string> {
  try {
    return await workspace.readLink(absolute);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return '';
    throw error;
  }
}

function undoResult(restored: readonly UndoneFile[], skipped: readonly SkippedFile[], nothingToUndo: boolean): UndoResult {
  const text = undoText(restored, skipped, nothingToUndo);
  return { nothingToUndo, restored, skipped, text, toString: () => text };
}

function undoText(restored: readonly UndoneFile[], skipped: readonly SkippedFile[], nothingToUndo: boolean): string {
  if (nothingToUndo) return 'Undo: there were no file changes to undo, so nothing was changed.';
  const lines = ['The user undid the file changes made for their previous message:'];
  for (const file of restored) {
    if (file.action === 'restored') lines.push(`- \`${file.path}\`: back to its content before the change`);
    else if (file.action === 'removed') lines.push(`- \`${file.path}\`: removed (it had been created)`);
    else if (file.action === 'moved-back') lines.push(`- \`${file.path}\`: moved back from \`${file.movedFrom}\``);
    else lines.push(`- \`${file.path}\`: put back (it had been deleted)`);
  }
  if (skipped.length > 0) {
    lines.push(restored.length > 0 ? 'Not undone:' : 'Nothing could be undone:');
    for (const file of skipped) lines.push(`- \`${file.path}\`: ${file.reason}`);
  }
  lines.push('These files may differ from what you last read: read them again before changing them.');
  return lines.join('\n');
}
