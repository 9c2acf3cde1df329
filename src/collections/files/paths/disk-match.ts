/**
 * @module Which existing paths a spelling names, segment by segment: the entry of that name,
 * or, where none is there, the entries a comparison calls the same (the same text in another
 * Unicode form, or in other letter case). Every folder listed is one the workspace resolved,
 * so a link out of the workspace is never listed and its names never suggested.
 */
import * as path from 'node:path';
import { PathError } from '../../../errors/path-error.js';
import type { Workspace } from '../../../workspace/workspace.js';
import { sameIgnoringCase, sameInNfc } from './show-path.js';

/** An existing path a spelling names: as it is spelled on disk, relative to the root, and canonical. */
export interface DiskMatch {
  readonly relative: string;
  readonly absolute: string;
  /** Some segment matched an entry of another spelling (not the literal name). */
  readonly near: boolean;
}

/** How a missing segment may match an entry: the same text in another Unicode form, or in other letter case too. */
export type MatchMode = 'unicode' | 'case';

/** Branches followed at once, and matches kept: a guess that needs more is no guess. */
const MAX_BRANCHES = 8;

const SAME: Record<MatchMode, (a: string, b: string) => boolean> = { unicode: sameInNfc, case: sameIgnoringCase };

/**
 * The existing paths `spelling` names under `mode`, at most {@link MAX_BRANCHES}: the literal
 * path when it exists, else its near spellings on disk. A spelling the jail refuses, or one
 * with `..`, names nothing here (the literal one was tried by the tool itself).
 */
export async function matchOnDisk(workspace: Workspace, spelling: string, mode: MatchMode): Promise<DiskMatch[]> {
  // The jail first: a spelling it refuses (outside, a NUL byte from `%00`, too long) names nothing.
  const jailed = await resolvedOrUndefined(workspace, spelling, false);
  if (jailed === undefined) return [];
  if (jailed.exists) return [{ relative: workspace.display(jailed.absolute), absolute: jailed.absolute, near: false }];
  const relative = path.isAbsolute(spelling) ? workspace.display(jailed.absolute) : spelling;
  const segments = relative.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0 || segments.includes('..')) return [];
  let branches: { readonly shown: readonly string[]; readonly absolute: string; readonly near: boolean }[] = [{ shown: [], absolute: workspace.root, near: false }];
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    const next: typeof branches = [];
    for (const branch of branches) {
      for (const name of await namesFor(workspace, branch.absolute, segment, mode)) {
        const shown = [...branch.shown, name];
        const resolved = await resolvedOrUndefined(workspace, shown.join('/'), !last);
        if (resolved?.exists) next.push({ shown, absolute: resolved.absolute, near: branch.near || name !== segment });
      }
    }
    branches = next.slice(0, MAX_BRANCHES);
    if (branches.length === 0) return [];
  }
  const unique = new Map<string, DiskMatch>();
  for (const branch of branches) if (!unique.has(branch.absolute)) unique.set(branch.absolute, { relative: branch.shown.join('/'), absolute: branch.absolute, near: branch.near });
  return [...unique.values()];
}

/** The names in `folder` that `segment` may mean: itself when it is there, else its near spellings. */
async function namesFor(workspace: Workspace, folder: string, segment: string, mode: MatchMode): Promise<string[]> {
  if ((await workspace.lstatOrUndefined(path.join(folder, segment)).catch(() => undefined)) !== undefined) return [segment];
  // An ASCII name has no other Unicode form: nothing to list for.
  if (mode === 'unicode' && !/[^\x00-\x7f]/.test(segment)) return [];
  const same = SAME[mode];
  const entries = await workspace.list(folder).catch(() => []);
  return entries.map((entry) => entry.name).filter((name) => name !== segment && same(name, segment));
}

async function resolvedOrUndefined(workspace: Workspace, spelling: string, followFinalLink: boolean) {
  try {
    return await workspace.resolve(spelling, { followFinalLink });
  } catch (error) {
    if (error instanceof PathError) return undefined;
    throw error;
  }
}

/** True when `given` names nothing: missing, or refused by the jail as outside the workspace. */
export async function namesNothing(workspace: Workspace, given: string): Promise<boolean> {
  try {
    return !(await workspace.resolve(given, { followFinalLink: false })).exists;
  } catch (error) {
    if (error instanceof PathError) return error.reason === 'outside';
    throw error;
  }
}
