/**
 * @module Paths that name something new (`create_file`'s path, `move_file`'s destination):
 * never cleaned up, since a wrong guess would leave a file under a name nobody meant. A name
 * a model almost never means (whitespace at its ends, a control character, `\`, `%XX`, a
 * leading `~`, a destination ending in `/`, the twin of an existing name in another Unicode
 * form) is refused with the reason and the exact path it probably meant.
 */
import * as path from 'node:path';
import { PathError } from '../../../errors/path-error.js';
import type { Workspace } from '../../../workspace/workspace.js';
import { insideTails, outsideForm, PERCENT_ESCAPE, percentDecoded, withoutRootName } from './cleanups.js';
import { hasUnicodeForms, sameInNfc, showCodePoints, showPath } from './show-path.js';

/** The call a new path belongs to; `source` is the path being moved, for a destination. */
export interface NewPathField {
  readonly tool: string;
  readonly field: string;
  readonly source?: string;
}

type Problem = 'edge-space' | 'control' | 'backslash' | 'percent' | 'home' | 'folder-ending';

/** Control characters, line separators and bidirectional controls: never meant in a new name. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** A segment problem a name may have; an existing folder of that name is taken as it is. */
function segmentProblems(segment: string): Problem[] {
  const problems: Problem[] = [];
  if (segment !== segment.trim()) problems.push('edge-space');
  CONTROL.lastIndex = 0;
  if (CONTROL.test(segment.trim())) problems.push('control');
  if (segment.includes('\\')) problems.push('backslash');
  if (PERCENT_ESCAPE.test(segment)) problems.push('percent');
  return problems;
}

/**
 * The refusal for a new path a model almost certainly did not mean, or `undefined`. Plain
 * names cost nothing; a name with a flagged segment costs one resolve per such segment (an
 * existing folder of that name is fine), and one beyond ASCII a listing of its folder.
 */
export async function refuseNewPath(workspace: Workspace, given: string, field: NewPathField): Promise<string | undefined> {
  const problems = await stringProblems(workspace, given);
  if (given.length > 1 && /[/\\]$/.test(given) && !(await exists(workspace, given))) problems.add('folder-ending');
  if (problems.size > 0) return problemMessage(workspace, given, [...problems], field);
  if (outsideForm(given) === 'absolute') return outsideMessage(workspace, given, field);
  return hasUnicodeForms(given) ? twinMessage(workspace, given, field) : undefined;
}

async function stringProblems(workspace: Workspace, given: string): Promise<Set<Problem>> {
  const problems = new Set<Problem>();
  const segments = given.split('/');
  // `~` and `~user/…` are home folders; a lone name such as `~draft.txt` is a name.
  if ((given === '~' || /^~[^/]*\//.test(given)) && !(await exists(workspace, segments[0]!))) problems.add('home');
  for (let index = 0; index < segments.length; index += 1) {
    const found = segmentProblems(segments[index]!);
    if (found.length === 0) continue;
    if (await exists(workspace, segments.slice(0, index + 1).join('/'))) continue;
    for (const problem of found) problems.add(problem);
  }
  return problems;
}

async function passesJail(workspace: Workspace, given: string): Promise<boolean> {
  try {
    await workspace.resolve(given, { followFinalLink: false });
    return true;
  } catch (error) {
    if (error instanceof PathError) return false;
    throw error;
  }
}

async function exists(workspace: Workspace, relative: string): Promise<boolean> {
  try {
    return (await workspace.resolve(relative, { followFinalLink: false })).exists;
  } catch (error) {
    if (error instanceof PathError) return false;
    throw error;
  }
}

const PROBLEM_WORDS: Record<Exclude<Problem, 'folder-ending'>, string> = {
  'edge-space': 'has whitespace at the start or end of a name',
  control: 'holds a control character (a line break, a tab or another invisible character)',
  backslash: 'holds `\\`, which on this system is a character of the name, not a folder separator',
  percent: 'holds `%XX` URL escapes, which a file name would keep as they are (paths are sent as plain text)',
  home: 'starts with `~`, which is not expanded here (paths are relative to the workspace root)',
};

function problemWords(problem: Problem, field: NewPathField): string {
  if (problem !== 'folder-ending') return PROBLEM_WORDS[problem];
  return field.source === undefined
    ? `ends with \`/\`, which names a folder, but ${field.tool} makes files (it would make a file of that folder name)`
    : `ends with \`/\`, which names a folder, but the ${field.field} is the whole new path (it would become a file of that folder name)`;
}

/** The path as the model most likely meant it: each problem undone. */
function intended(workspace: Workspace, given: string, problems: readonly Problem[], field: NewPathField): string {
  let fixed = given;
  if (problems.includes('backslash')) fixed = fixed.replaceAll('\\', '/');
  if (problems.includes('control')) fixed = fixed.replace(CONTROL, '');
  if (problems.includes('edge-space') || problems.includes('control')) fixed = fixed.split('/').map((segment) => segment.trim()).filter((segment, index, all) => segment !== '' || index === all.length - 1).join('/');
  if (problems.includes('percent')) fixed = percentDecoded(fixed) ?? fixed;
  if (problems.includes('home')) {
    const rest = fixed.split('/').slice(1).join('/');
    fixed = withoutRootName(rest, path.basename(workspace.root)) ?? rest;
  }
  if (problems.includes('folder-ending') && field.source !== undefined) fixed = `${fixed.replace(/\/+$/, '')}/${path.posix.basename(field.source.replaceAll('\\', '/'))}`;
  return fixed;
}

async function problemMessage(workspace: Workspace, given: string, problems: readonly Problem[], field: NewPathField): Promise<string> {
  const reasons = problems.map((problem) => problemWords(problem, field));
  const said = reasons.length === 1 ? reasons[0]! : `${reasons.slice(0, -1).join(', ')} and ${reasons.at(-1)}`;
  const fixed = intended(workspace, given, problems, field);
  const head = `${showPath(given)} ${said}, so ${field.tool} did nothing.`;
  if (fixed === '' || fixed.endsWith('/')) return `${head} Call ${field.tool} with ${field.field} set to the new file's whole path, such as \`${fixed}new-file.txt\`.`;
  return `${head} If you meant ${showPath(fixed)}, call ${field.tool} with ${field.field} ${showPath(fixed)}.${await existsNote(workspace, fixed, field)}`;
}

async function existsNote(workspace: Workspace, fixed: string, field: NewPathField): Promise<string> {
  if (!(await exists(workspace, fixed))) return '';
  return field.source === undefined
    ? ` (It exists already: to change it, read it with read_file and use edit_file.)`
    : ` (It exists already, and ${field.tool} never overwrites: choose another ${field.field}.)`;
}

/** An absolute path outside the root that passes through a folder named like the root: the part after it. */
async function outsideMessage(workspace: Workspace, given: string, field: NewPathField): Promise<string | undefined> {
  if (given === workspace.root || given.startsWith(`${workspace.root}/`)) return undefined;
  const rootName = path.basename(workspace.root);
  const segments = given.split('/');
  if (!segments.includes(rootName) || (await exists(workspace, given).catch(() => false))) return undefined;
  const [tail] = insideTails(given, rootName);
  if (tail === undefined || !given.endsWith(`/${rootName}/${tail}`)) return undefined;
  return `${showPath(given)} is outside the workspace: paths are relative to its root, \`${workspace.root}\`, so ${field.tool} did nothing. If you meant ${showPath(tail)} in the workspace, call ${field.tool} with ${field.field} ${showPath(tail)}.`;
}

/** A segment that would be the twin of an existing name (the same text in another Unicode form): the refusal. */
async function twinMessage(workspace: Workspace, given: string, field: NewPathField): Promise<string | undefined> {
  // A path the jail refuses gets the jail's reply from the tool.
  if (!(await passesJail(workspace, given))) return undefined;
  const segments = given.split('/').filter((segment) => segment !== '' && segment !== '.');
  let folder = workspace.root;
  for (const [index, segment] of segments.entries()) {
    const spelled = segments.slice(0, index + 1).join('/');
    if ((await workspace.lstatOrUndefined(path.join(folder, segment)).catch(() => undefined)) === undefined) {
      if (!hasUnicodeForms(segment)) return undefined;
      const twin = (await workspace.list(folder).catch(() => [])).find((entry) => entry.name !== segment && sameInNfc(entry.name, segment));
      if (twin === undefined) return undefined;
      return twinRefusal(given, [...segments.slice(0, index), twin.name].join('/'), [...segments.slice(0, index), twin.name, ...segments.slice(index + 1)].join('/'), index === segments.length - 1, field);
    }
    if (segment === '..') return undefined;
    const resolved = await workspace.resolve(spelled).catch(() => undefined);
    if (resolved === undefined) return undefined;
    folder = resolved.absolute;
  }
  return undefined;
}

function twinRefusal(given: string, existing: string, through: string, last: boolean, field: NewPathField): string {
  const head = `${showCodePoints(given)} would stand beside the existing ${showCodePoints(existing)}, the same name in another Unicode form (NFC and NFD; macOS writes names in NFD): the two would look identical but be different ${last ? 'files' : 'folders'}, so ${field.tool} did nothing.`;
  if (!last) return `${head} To put it in the existing folder, call ${field.tool} with ${field.field} ${showCodePoints(through)} (written with these \\u escapes in JSON).`;
  return field.source === undefined
    ? `${head} To change the existing file, read it with read_file and change it with edit_file (path ${showCodePoints(existing)}, or your spelling, finds it); for a new file, choose a name that differs in its letters.`
    : `${head} It exists already, and move_file never overwrites: choose a destination that differs in its letters.`;
}
