import { ToolError } from '../../../errors/tool-error.js';
import type { Session } from '../../../session.js';
import type { ToolOutput } from '../../../tool.js';
import { errorCode } from '../../../workspace/file-system-errors.js';
import { makeParents } from '../create-file.js';
import { MAX_EDIT_FILE_BYTES } from '../edit-file.js';
import type { NumberedLines } from '../text/edit-text.js';
import { forgetRead, recordWrite } from '../guard/read-state.js';
import { unifiedLineDiff } from '../text/line-diff.js';
import { decodeTextFile, encodeTextFile } from '../text/text-file.js';
import { formatBytes, plural } from '../text/text.js';
import { fingerprint, recordChange } from '../guard/undo.js';
import {
  backupBeforeChange,
  contentHashInSlices,
  refusePrivate,
  requireFreshRead,
  withPathLocks,
  type PolicyPath,
  type WriteToolsContext,
} from '../guard/write-guards.js';
import { applyChunks } from './apply-chunks.js';
import type { PatchOperation } from './parse.js';

/** One file of an applied patch, as the result's `data.files` lists it. */
export interface PatchedFile {
  readonly path: string;
  readonly action: 'added' | 'updated' | 'deleted' | 'moved';
  /** For `moved`: where the file went. */
  readonly movedTo?: string;
  /** A unified diff of the file's change (not for deletions). */
  readonly diff?: string;
  readonly backup?: string;
}

/** A file operation with its paths resolved and checked: what the patch will do, before anything is written. */
type PlannedChange =
  | { readonly type: 'add'; readonly shown: string; readonly absolute: string; readonly bytes: Buffer; readonly text: string }
  | { readonly type: 'delete'; readonly shown: string; readonly absolute: string; readonly link?: string; readonly bytes?: Buffer; readonly mode: number }
  | {
      readonly type: 'update';
      readonly shown: string;
      readonly absolute: string;
      readonly before: Buffer;
      readonly beforeText: string;
      readonly bytes: Buffer;
      readonly text: string;
      readonly changed: readonly NumberedLines[];
      readonly mode: number;
      readonly moveTo?: { readonly shown: string; readonly absolute: string };
    };

/** The paths a patch touches, for the writing tools' shared policy check (jail, private folder, fresh read). */
export function patchPolicyPaths(operations: readonly PatchOperation[], toolName: string): PolicyPath[] {
  return operations.flatMap((operation): PolicyPath[] => {
    if (operation.type === 'add' || operation.type === 'delete') return [{ path: operation.path, followFinalLink: false }];
    return [
      { path: operation.path, followFinalLink: true, checkFile: refuseOversize, needsRead: { toolName, whole: false } },
      ...(operation.moveTo === undefined ? [] : [{ path: operation.moveTo, followFinalLink: false }]),
    ];
  });
}

/**
 * Applies a patch's file operations all or nothing: every path is resolved through the jail,
 * every file is read and every chunk is fitted before a byte is written; a failing part names
 * itself and changes nothing. Then backups are made, the files written atomically one after
 * another (a write that still fails puts back the ones before it), and the changes recorded
 * in the session's undo record together, so `undo` takes back the whole patch.
 */
export async function applyPatchOperations(
  context: WriteToolsContext,
  session: Session,
  operations: readonly PatchOperation[],
  toolName: string,
): Promise<ToolOutput> {
  const { workspace } = context;
  const resolved = await Promise.all(operations.map(async (operation, index) => {
    try {
      const target = await workspace.resolve(operation.path, { followFinalLink: operation.type === 'update' });
      refusePrivate(workspace, target.absolute, target.relative);
      if (target.absolute === workspace.root) throw new ToolError('the path names the workspace root folder; give the path of a file.');
      const moveTo = operation.type === 'update' && operation.moveTo !== undefined ? await workspace.resolve(operation.moveTo, { followFinalLink: false }) : undefined;
      if (moveTo !== undefined) refusePrivate(workspace, moveTo.absolute, moveTo.relative);
      return { operation, target, moveTo };
    } catch (error) {
      throw partFailed(index, operations.length, operation, error);
    }
  }));
  const seen = new Map<string, number>();
  for (const [index, { target, moveTo }] of resolved.entries()) {
    for (const path of [target, moveTo]) {
      if (path === undefined) continue;
      const earlier = seen.get(path.absolute);
      if (earlier !== undefined) {
        throw new ToolError(`Parts ${earlier + 1} and ${index + 1} of the patch both touch \`${path.relative}\`. Nothing was changed. Give each file once, with all its chunks under one \`*** Update File:\`.`);
      }
      seen.set(path.absolute, index);
    }
  }

  const locked = resolved.flatMap(({ target, moveTo }) => [target.absolute, ...(moveTo === undefined ? [] : [moveTo.absolute])]);
  return withPathLocks(locked, async () => {
    const plan: PlannedChange[] = [];
    for (const [index, { operation, target, moveTo }] of resolved.entries()) {
      try {
        plan.push(await planChange(context, session, operation, target, moveTo, toolName));
      } catch (error) {
        throw partFailed(index, operations.length, operation, error);
      }
    }
    const backups = new Map<PlannedChange, string>();
    for (const change of plan) {
      const before = change.type === 'update' ? change.before : change.type === 'delete' ? change.bytes : undefined;
      if (before === undefined) continue;
      const backup = await backupBeforeChange(context, change.shown, before);
      if (backup !== undefined) backups.set(change, backup);
    }
    await commit(context, plan);
    return record(context, session, plan, backups);
  });
}

async function planChange(
  context: WriteToolsContext,
  session: Session,
  operation: PatchOperation,
  target: { absolute: string; relative: string },
  moveTo: { absolute: string; relative: string } | undefined,
  toolName: string,
): Promise<PlannedChange> {
  const { workspace } = context;
  const shown = target.relative;
  if (operation.type === 'add') {
    const existing = await workspace.lstatOrUndefined(target.absolute);
    if (existing !== undefined) {
      throw new ToolError(existing.isDirectory() ? `\`${shown}\` is an existing folder.` : `\`${shown}\` already exists, and \`*** Add File:\` never overwrites; to change it, read it and use \`*** Update File:\`.`);
    }
    const text = operation.lines.map((line) => `${line}\n`).join('');
    return { type: 'add', shown, absolute: target.absolute, bytes: Buffer.from(text, 'utf8'), text };
  }
  if (operation.type === 'delete') {
    const stats = await workspace.lstatOrUndefined(target.absolute);
    if (stats === undefined) throw new ToolError(`\`${shown}\` does not exist, so it cannot be deleted. Check the path with find_files.`);
    if (stats.isDirectory()) throw new ToolError(`\`${shown}\` is a folder; a patch deletes only files.`);
    if (stats.isSymbolicLink()) return { type: 'delete', shown, absolute: target.absolute, link: await workspace.readLink(target.absolute), mode: stats.mode };
    if (!stats.isFile()) throw new ToolError(`\`${shown}\` is not a regular file (a device, socket or pipe); ask the user to remove it.`);
    return { type: 'delete', shown, absolute: target.absolute, bytes: await workspace.readFile(target.absolute), mode: stats.mode };
  }
  const stats = await workspace.statOrUndefined(target.absolute);
  if (stats === undefined) throw new ToolError(`\`${shown}\` does not exist; \`*** Update File:\` changes existing files. To make it, use \`*** Add File:\`.`);
  if (!stats.isFile()) throw new ToolError(`\`${shown}\` is not a regular file.`);
  refuseOversize(stats, shown);
  const before = await workspace.readFile(target.absolute);
  const decoded = await decodeTextFile(before);
  if ('problem' in decoded) throw new ToolError(`\`${shown}\` is not UTF-8 text (${decoded.problem}), so a patch cannot change it without damaging it.`);
  requireFreshRead(session, target.absolute, stats, shown, { toolName, whole: false });
  const applied = await applyChunks(decoded.text, operation.chunks, shown, context.maxLineLength);
  if (moveTo !== undefined) {
    if (moveTo.absolute === target.absolute) throw new ToolError(`\`*** Move to:\` names the file's own path \`${shown}\`.`);
    const existing = await workspace.lstatOrUndefined(moveTo.absolute);
    if (existing !== undefined) throw new ToolError(`\`${moveTo.relative}\`, where \`*** Move to:\` would put the file, already exists, and a patch never overwrites. Choose another path.`);
  }
  return {
    type: 'update',
    shown,
    absolute: target.absolute,
    before,
    beforeText: decoded.text,
    bytes: await encodeTextFile(applied.text, decoded.bom),
    text: applied.text,
    changed: applied.changed,
    mode: stats.mode,
    ...(moveTo === undefined ? {} : { moveTo: { shown: moveTo.relative, absolute: moveTo.absolute } }),
  };
}

/** Writes the plan in order; when a write fails, the changes already made are put back and the failure reported. */
async function commit(context: WriteToolsContext, plan: readonly PlannedChange[]): Promise<void> {
  const { workspace } = context;
  const undoSteps: Array<() => Promise<void>> = [];
  for (const change of plan) {
    try {
      if (change.type === 'add') {
        await makeParents(context, change.absolute, change.shown);
        await workspace.writeFileAtomic(change.absolute, change.bytes, { exclusive: true });
        undoSteps.push(() => workspace.remove(change.absolute));
      } else if (change.type === 'delete') {
        await workspace.remove(change.absolute);
        undoSteps.push(() =>
          change.link !== undefined
            ? workspace.createSymlink(change.link, change.absolute)
            : workspace.writeFileAtomic(change.absolute, change.bytes!, { exclusive: true, mode: change.mode & 0o777 }),
        );
      } else {
        await workspace.writeFileAtomic(change.absolute, change.bytes);
        undoSteps.push(() => workspace.writeFileAtomic(change.absolute, change.before));
        if (change.moveTo !== undefined) {
          await makeParents(context, change.moveTo.absolute, change.moveTo.shown);
          await workspace.renameExclusive(change.absolute, change.moveTo.absolute);
          const moveTo = change.moveTo;
          undoSteps.push(() => workspace.renameExclusive(moveTo.absolute, change.absolute));
        }
      }
    } catch (error) {
      const failures: string[] = [];
      for (const step of undoSteps.reverse()) await step().catch((rollback: unknown) => failures.push(rollback instanceof Error ? rollback.message : String(rollback)));
      const why = error instanceof ToolError ? error.message : `${errorCode(error) ?? 'error'}: ${error instanceof Error ? error.message : String(error)}`;
      const after = failures.length === 0
        ? 'The files the patch had already changed were put back, so nothing was changed.'
        : `Putting back the files changed before it failed too (${failures.join('; ')}); check them with read_file.`;
      throw new ToolError(`Writing \`${change.shown}\` failed (${why}). ${after}`, { cause: error });
    }
  }
}

async function record(context: WriteToolsContext, session: Session, plan: readonly PlannedChange[], backups: ReadonlyMap<PlannedChange, string>): Promise<ToolOutput> {
  const { workspace, keepBackups } = context;
  const files: PatchedFile[] = [];
  const summary: string[] = [];
  for (const change of plan) {
    const backup = backups.get(change);
    if (change.type === 'add') {
      const stats = await workspace.statOrUndefined(change.absolute);
      if (stats !== undefined) recordWrite(session, change.absolute, stats);
      if (keepBackups) recordChange(session, workspace, { type: 'create', path: change.shown, after: await contentHashInSlices(change.bytes) });
      files.push({ path: change.shown, action: 'added', diff: await unifiedDiff(change.shown, '', change.text) });
      summary.push(`- added \`${change.shown}\` (${plural(change.text === '' ? 0 : change.text.split('\n').length - 1, 'line')})`);
    } else if (change.type === 'delete') {
      forgetRead(session, change.absolute);
      if (keepBackups && change.link !== undefined) recordChange(session, workspace, { type: 'delete-link', path: change.shown, target: change.link });
      else if (backup !== undefined) recordChange(session, workspace, { type: 'delete', path: change.shown, backup, mode: change.mode & 0o7777 });
      files.push({ path: change.shown, action: 'deleted', ...(backup === undefined ? {} : { backup }) });
      summary.push(`- deleted \`${change.shown}\`${backup === undefined ? '' : ` (a copy is kept at \`${backup}\`)`}`);
    } else {
      const finalPath = change.moveTo?.absolute ?? change.absolute;
      const stats = await workspace.statOrUndefined(finalPath);
      if (change.moveTo !== undefined) forgetRead(session, change.absolute);
      if (stats !== undefined) recordWrite(session, finalPath, stats);
      if (backup !== undefined) recordChange(session, workspace, { type: 'write', path: change.shown, backup, after: await contentHashInSlices(change.bytes) });
      if (keepBackups && change.moveTo !== undefined) {
        const after = await fingerprint(workspace, change.moveTo.absolute);
        if (after !== undefined) recordChange(session, workspace, { type: 'move', from: change.shown, to: change.moveTo.shown, after });
      }
      const diff = await unifiedDiff(change.moveTo?.shown ?? change.shown, change.beforeText, change.text, change.shown);
      files.push({
        path: change.shown,
        action: change.moveTo === undefined ? 'updated' : 'moved',
        ...(change.moveTo === undefined ? {} : { movedTo: change.moveTo.shown }),
        diff,
        ...(backup === undefined ? {} : { backup }),
      });
      const lines = change.changed.map((group) => (group.lines.length === 0 ? `${group.first} (lines removed)` : group.first === group.last ? `${group.first}` : `${group.first}–${group.last}`));
      summary.push(`- ${change.moveTo === undefined ? 'updated' : `moved to \`${change.moveTo.shown}\` and updated`} \`${change.shown}\`: ${plural(change.changed.length, 'chunk')}, now at line${lines.length === 1 ? '' : 's'} ${lines.join(', ')}`);
    }
  }
  return {
    text: `Applied the patch to ${plural(plan.length, 'file')}:\n${summary.join('\n')}`,
    data: { files, diff: files.map((file) => file.diff).filter((diff) => diff !== undefined).join('') },
  };
}

/**
 * A unified diff for the result's `data`, as `createTwoFilesPatch` writes it, built in time
 * slices and cut past its size limit like write_file's (a patch may rewrite a 10 MB file).
 */
export async function unifiedDiff(shown: string, before: string, after: string, beforeName = shown): Promise<string> {
  return unifiedLineDiff(shown, before, after, { oldPath: beforeName });
}

function refuseOversize(stats: { size: number }, shown: string): void {
  if (stats.size <= MAX_EDIT_FILE_BYTES) return;
  throw new ToolError(`\`${shown}\` is ${formatBytes(stats.size)}; a patch changes files of up to ${formatBytes(MAX_EDIT_FILE_BYTES)}. Ask the user to change it, or use a shell command if you have one.`);
}

function partFailed(index: number, count: number, operation: PatchOperation, error: unknown): unknown {
  if (!(error instanceof ToolError)) return error;
  const header = operation.type === 'add' ? `*** Add File: ${operation.path}` : operation.type === 'delete' ? `*** Delete File: ${operation.path}` : `*** Update File: ${operation.path}`;
  const message = error.message;
  return new ToolError(
    `Part ${index + 1} of ${count} of the patch (\`${header}\`) cannot be applied: ${message}${/[.:]\s*$/.test(message) ? '' : '.'} Nothing was changed (no file of the patch was written). Fix that part and send the whole patch again.`,
    { cause: error },
  );
}
