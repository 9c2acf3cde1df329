/**
 * @module Paths that look up something existing, when the literal path names nothing: the
 * lossless cleanups (`cleanups.ts`) and Unicode forms are tried, and the call goes on only
 * when exactly one existing path matches, saying which. Anything less certain (another letter
 * case, `path:12`, the tail of a path outside the workspace, a leading folder named like the
 * root) is a "did you mean" that names the exact next call, and nothing is done.
 */
import * as path from 'node:path';
import type { Workspace } from '../../../workspace/workspace.js';
import { cleanedSpellings, insideTails, lineSuffix, outsideForm, withoutRootName, type CleanedPath, type Cleanup, type LineSuffix } from './cleanups.js';
import { matchOnDisk, type DiskMatch } from './disk-match.js';
import { showApart, showCodePoints, showPath } from './show-path.js';

/** The call a path belongs to, for replies that name the next call. */
export interface PathField {
  readonly tool: string;
  readonly field: string;
  /** The tool takes `start_line` and `end_line`, so `path:12` can become one. */
  readonly takesLines: boolean;
}

/** What came of looking a path up. */
export type LookUp =
  /** Exactly one existing path matched: use `path`, and tell the model with `note`. */
  | { readonly type: 'found'; readonly path: string; readonly note: string }
  /** Several matched, or only guesses did: `message` says so and names the next call. */
  | { readonly type: 'refused'; readonly message: string }
  /** Nothing near: the tool's own reply for a missing path stands. */
  | { readonly type: 'nothing' };

/** Suggestions a "did you mean" lists at most. */
const MAX_SUGGESTIONS = 5;

const CLEANUP_WORDS: Record<Cleanup | 'unicode', string> = {
  trim: 'without the whitespace at its ends',
  quotes: 'without the quotes around it',
  mention: 'without the leading `@`',
  'file-url': 'read as a `file://` URL',
  backslash: 'with `\\` read as `/`',
  percent: 'with its `%XX` escapes decoded',
  unicode: 'in the Unicode form the disk uses (NFC/NFD)',
};

interface Candidate extends DiskMatch {
  readonly cleanups: ReadonlySet<Cleanup | 'unicode'>;
}

/**
 * Looks up `given`, which names nothing as written (the caller has seen the tool fail on it).
 * Never acts on a guess: `found` only for a single match of lossless cleanups.
 */
export async function lookUpExisting(workspace: Workspace, given: string, field: PathField): Promise<LookUp> {
  const spellings = cleanedSpellings(given);
  const candidates = new Map<string, Candidate>();
  for (const spelling of spellings) {
    for (const match of await matchOnDisk(workspace, spelling.path, 'unicode')) {
      const cleanups = new Set<Cleanup | 'unicode'>([...(candidates.get(match.absolute)?.cleanups ?? []), ...spelling.cleanups, ...(match.near ? ['unicode' as const] : [])]);
      if (cleanups.size > 0) candidates.set(match.absolute, { ...match, cleanups });
    }
  }
  // In name order, so a reply does not depend on the order a folder lists its entries in.
  const found = [...candidates.values()].sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  if (found.length === 1) return { type: 'found', path: found[0]!.relative, note: foundNote(given, found[0]!, field) };
  if (found.length > 1) return { type: 'refused', message: ambiguousMessage(given, found, field) };
  const suggestions = await suggest(workspace, spellings);
  return suggestions.length === 0 ? { type: 'nothing' } : { type: 'refused', message: didYouMean(workspace, given, suggestions, field) };
}

function words(cleanups: Iterable<Cleanup | 'unicode'>): string {
  const list = [...new Set(cleanups)].map((cleanup) => CLEANUP_WORDS[cleanup]);
  return list.length <= 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
}

function foundNote(given: string, found: Candidate, { field }: PathField): string {
  return `Used ${showApart(found.relative, given)} for \`${field}\`: the path you sent, ${showApart(given, found.relative)}, names nothing as written, and, ${words(found.cleanups)}, it names this one existing path.`;
}

function ambiguousMessage(given: string, found: readonly Candidate[], { tool, field }: PathField): string {
  const lookAlike = found.some((one) => found.some((other) => one !== other && one.relative.normalize('NFC') === other.relative.normalize('NFC')));
  const show = lookAlike ? showCodePoints : showPath;
  const list = found.map((one) => show(one.relative));
  return `${show(given)} names nothing as written, and, ${words(found.flatMap((one) => [...one.cleanups]))}, it could be any of ${found.length} existing paths: ${list.join(', ')}. Nothing was done, since that would be a guess; call ${tool} again with ${field} set to the one you meant.`;
}

/** A guess at what the model meant, with why. */
interface Suggestion {
  readonly relative: string;
  readonly reason: string;
  readonly lines?: LineSuffix;
}

/** The guesses, the likeliest kinds first: letter case, a line number, a leading root folder, the tail of an outside path. */
async function suggest(workspace: Workspace, spellings: readonly CleanedPath[]): Promise<Suggestion[]> {
  const rootName = path.basename(workspace.root);
  const found = new Map<string, Suggestion>();
  const add = (matches: readonly DiskMatch[], reason: string, spelling: CleanedPath, lines?: LineSuffix) => {
    const cleaned = spelling.cleanups.length === 0 ? '' : `, ${words(spelling.cleanups)}`;
    for (const match of matches) if (!found.has(match.relative)) found.set(match.relative, { relative: match.relative, reason: `${reason}${cleaned}`, ...(lines === undefined ? {} : { lines }) });
  };
  for (const spelling of spellings) {
    add(await matchOnDisk(workspace, spelling.path, 'case'), 'the same path in other letter case', spelling);
    const lines = lineSuffix(spelling.path);
    if (lines !== undefined) add(await matchOnDisk(workspace, lines.path, 'unicode'), `\`${lines.suffix}\` read as a line number`, spelling, lines);
    const inside = withoutRootName(spelling.path, rootName);
    if (inside !== undefined) add(await matchOnDisk(workspace, inside, 'unicode'), `without the leading \`${rootName}/\`, the workspace folder's own name`, spelling);
    if (startsOutside(workspace, spelling.path)) {
      for (const tail of insideTails(spelling.path, rootName)) {
        const matches = await matchOnDisk(workspace, tail, 'unicode');
        if (matches.length === 0) continue;
        add(matches, 'its part inside the workspace', spelling);
        break;
      }
    }
    if (found.size >= MAX_SUGGESTIONS) break;
  }
  return [...found.values()].slice(0, MAX_SUGGESTIONS).sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

function startsOutside(workspace: Workspace, given: string): boolean {
  const form = outsideForm(given);
  if (form !== 'absolute') return form !== undefined;
  return given !== workspace.root && !given.startsWith(`${workspace.root}/`);
}

function didYouMean(workspace: Workspace, given: string, suggestions: readonly Suggestion[], { tool, field, takesLines }: PathField): string {
  const head = cleanedSpellings(given).some((spelling) => startsOutside(workspace, spelling.path))
    ? `${showPath(given)} is not a path inside the workspace: paths are relative to its root, \`${workspace.root}\`.`
    : `${showPath(given)} does not exist.`;
  const call = (suggestion: Suggestion) => {
    const shown = showPath(suggestion.relative);
    const lines = suggestion.lines;
    if (lines === undefined) return `${field} ${shown}`;
    if (!takesLines) return `${field} ${shown} (\`${lines.suffix}\` is a line number, not part of the path)`;
    return `${field} ${shown} and start_line ${lines.startLine}${lines.endLine === undefined ? '' : ` and end_line ${lines.endLine}`}`;
  };
  if (suggestions.length === 1) {
    const [only] = suggestions as [Suggestion];
    return `${head} Did you mean ${showPath(only.relative)} (${only.reason})? If so, call ${tool} with ${call(only)}.`;
  }
  const list = suggestions.map((suggestion) => `${showPath(suggestion.relative)} (${suggestion.reason})`);
  return `${head} Did you mean one of these: ${list.join('; ')}? Nothing was done; call ${tool} with ${field} set to the one you meant.`;
}
