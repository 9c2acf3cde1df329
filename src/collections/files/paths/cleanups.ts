/**
 * @module The lossless cleanups of a path a model sent: the spellings it may have meant when
 * the literal path names nothing (trimmed, unquoted, a `file://` URL, `\` as `/`, `%XX`
 * decoded), and the readings that are only guesses (`path:12`, the tail of a path outside
 * the workspace). Pure text: what exists on disk is `disk-match.ts`'s concern.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One lossless cleanup, by what it undoes. */
export type Cleanup = 'trim' | 'quotes' | 'mention' | 'file-url' | 'backslash' | 'percent';

/** A spelling of the path a model sent, and the cleanups that made it. */
export interface CleanedPath {
  readonly path: string;
  readonly cleanups: readonly Cleanup[];
}

/** Whitespace a model leaves at the ends of a path: what `trim` takes, and zero-width spaces. */
const EDGE_SPACE = /^[\s\u200b]+|[\s\u200b]+$/g;
/** Pairs of quotes a path may come wrapped in. */
const QUOTES: readonly (readonly [string, string])[] = [
  ['"', '"'],
  ["'", "'"],
  ['`', '`'],
  ['\u201c', '\u201d'],
  ['\u2018', '\u2019'],
];
/** A percent escape, `%20`. */
export const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;

function trimmed(given: string): string | undefined {
  const result = given.replace(EDGE_SPACE, '');
  return result === given || result === '' ? undefined : result;
}

function unquoted(given: string): string | undefined {
  for (const [open, close] of QUOTES) {
    if (given.length > 2 && given.startsWith(open) && given.endsWith(close)) return given.slice(open.length, -close.length);
  }
  return undefined;
}

/** `@src/app.ts`, the way chat harnesses mention a file. */
function unmentioned(given: string): string | undefined {
  return given.startsWith('@') && given.length > 1 && !given.startsWith('@/') ? given.slice(1) : undefined;
}

/** `file:///root/src/app.ts` as the path it names (percent escapes decoded). */
function fromFileUrl(given: string): string | undefined {
  if (!/^file:\/\//i.test(given)) return undefined;
  try {
    return fileURLToPath(given);
  } catch {
    return undefined;
  }
}

function forwardSlashes(given: string): string | undefined {
  return given.includes('\\') ? given.replaceAll('\\', '/') : undefined;
}

export function percentDecoded(given: string): string | undefined {
  if (!PERCENT_ESCAPE.test(given)) return undefined;
  try {
    const decoded = decodeURIComponent(given);
    return decoded === given ? undefined : decoded;
  } catch {
    return undefined;
  }
}

/**
 * In the order they apply: trimming twice, since a quoted path may hold a line break inside
 * its quotes and a trimmed one may turn out quoted.
 */
const CLEANUPS: readonly (readonly [Cleanup, (given: string) => string | undefined])[] = [
  ['trim', trimmed],
  ['quotes', unquoted],
  ['trim', trimmed],
  ['mention', unmentioned],
  ['file-url', fromFileUrl],
  ['backslash', forwardSlashes],
  ['percent', percentDecoded],
];

/** Most spellings tried for one path (every cleanup applying gives 2^6 at most). */
const MAX_SPELLINGS = 64;

/**
 * The spellings a path may have meant, the literal one first, each with the cleanups that
 * made it. Every combination of cleanups that changes something is tried, in their order, so
 * a quoted Windows path with a trailing line break yields its trimmed, unquoted, `/` form.
 */
export function cleanedSpellings(given: string): CleanedPath[] {
  const spellings: CleanedPath[] = [{ path: given, cleanups: [] }];
  const seen = new Set([given]);
  for (const [name, apply] of CLEANUPS) {
    for (const spelling of [...spellings]) {
      const result = apply(spelling.path);
      if (result === undefined || seen.has(result) || spellings.length >= MAX_SPELLINGS) continue;
      seen.add(result);
      spellings.push({ path: result, cleanups: spelling.cleanups.includes(name) ? spelling.cleanups : [...spelling.cleanups, name] });
    }
  }
  return spellings;
}

/** A line number (or range) after a path, as editors and compilers print them. */
export interface LineSuffix {
  readonly path: string;
  readonly suffix: string;
  readonly startLine: number;
  readonly endLine?: number;
}

/** `src/app.ts:12`, `src/app.ts:12:5`, `src/app.ts:12-20`, `src/app.ts#L12-L20`, or `undefined`. */
export function lineSuffix(given: string): LineSuffix | undefined {
  const match = /^(.+?)(:(\d+)(?:[-:](\d+))?|#L(\d+)(?:-L?(\d+))?)$/.exec(given);
  if (match === null) return undefined;
  const [, rest, suffix, colonStart, colonSecond, hashStart, hashEnd] = match;
  const startLine = Number(colonStart ?? hashStart);
  if (startLine < 1) return undefined;
  // `:12:5` is a line and a column; `:12-20` and `#L12-L20` are ranges.
  const second = hashEnd ?? (suffix!.includes('-') ? colonSecond : undefined);
  const endLine = second === undefined ? undefined : Number(second);
  return { path: rest!, suffix: suffix!, startLine, ...(endLine !== undefined && endLine >= startLine ? { endLine } : {}) };
}

/** How a path outside the workspace was written. */
export type OutsideForm = 'home' | 'absolute' | 'drive';

/** `~/…`, `~user/…`, `/…` or `C:/…`: a path that starts somewhere other than the workspace root. */
export function outsideForm(given: string): OutsideForm | undefined {
  if (given === '~' || /^~[^/]*\//.test(given)) return 'home';
  if (/^[A-Za-z]:\//.test(given)) return 'drive';
  if (path.posix.isAbsolute(given)) return 'absolute';
  return undefined;
}

/**
 * The tails of a path that starts outside the workspace, the likeliest first: the part after
 * the last folder named like the workspace root (`/home/me/shop/src/app.ts` in a workspace
 * `shop` → `src/app.ts`), then every shorter tail, longest first.
 */
export function insideTails(given: string, rootName: string): string[] {
  const segments = given.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (outsideForm(given) !== 'absolute') segments.shift();
  const tails: string[] = [];
  const named = segments.lastIndexOf(rootName);
  if (named !== -1 && named < segments.length - 1) tails.push(segments.slice(named + 1).join('/'));
  for (let start = 0; start < segments.length; start += 1) {
    const tail = segments.slice(start).join('/');
    if (!tails.includes(tail) && !segments.slice(start).includes('..')) tails.push(tail);
  }
  return tails;
}

/** A relative path whose first folder is the workspace root's own name: the rest, or `undefined`. */
export function withoutRootName(given: string, rootName: string): string | undefined {
  const segments = given.split('/').filter((segment) => segment !== '' && segment !== '.');
  return segments.length > 1 && segments[0] === rootName && outsideForm(given) === undefined ? segments.slice(1).join('/') : undefined;
}
