/**
 * What a glob with `/` says about folders, so a walk can skip the rest of the tree: a test of
 * the folders a match can lie under (`pkg-0`, `pkg-0/src` and `pkg-0/src/mod-1` for
 * `pkg-0/src/mod-1/*.js`; anything below `pkg-1` for `pkg-1/**\/*.js`), so no other folder is
 * entered. A glob's literal start is thereby walked straight down (one listing per level, the
 * other folders of each level left unopened). Files found are exactly those the whole walk
 * would find: only folders that cannot hold a match are left out.
 */
import picomatch from 'picomatch';

/** Folder facts of one glob, for `IncludePattern.folders` and `IncludePattern.base`. */
export interface GlobFolders {
  readonly folders?: { readonly source: string; readonly flags: string };
  /**
   * The glob's literal folder part (`packages/pkg-0` of `packages/pkg-0/*\/index.ts`): every
   * match lies below it, so a walk may start there. Absent when the glob starts with a wildcard.
   */
  readonly base?: string;
  /** True when every match is a file directly in {@link base} (`docs/*.md`): one listing answers the glob. */
  readonly oneFolder?: true;
}

/** Braces or parentheses that hold a `/`: the glob cannot be taken apart segment by segment. */
const SPANS_SEGMENTS = /\{[^}]*\/[^}]*\}|\([^)]*\/[^)]*\)/;

/**
 * The folder facts of a cleaned glob (no leading `./` or `/`), as `find_files` and
 * `search_files` match it: without `/` it matches names at any depth, so every folder may
 * hold a match and nothing is returned.
 */
export function globFolders(cleaned: string): GlobFolders {
  // A leading `!` negates the whole glob: the folders it rules in are not the ones named.
  if (!cleaned.includes('/') || cleaned.startsWith('!') || SPANS_SEGMENTS.test(cleaned) || cleaned.includes('\\')) return {};
  const segments = cleaned.split('/');
  const folderSegments = segments.slice(0, -1);
  const globstar = segments.indexOf('**');
  if (globstar === 0) return {};
  // Folders as deep as the glob's folder part (or down to its `**`) match its first segments; below a `**`, anything does.
  const depth = globstar === -1 ? folderSegments.length : globstar;
  const patterns: string[] = [];
  for (let count = 1; count <= depth; count += 1) patterns.push(segments.slice(0, count).join('/'));
  if (globstar !== -1) patterns.push(`${segments.slice(0, globstar).join('/')}/**`);
  const expressions = patterns.map((pattern) => picomatch.makeRe(pattern, { dot: true }));
  const folders = { source: expressions.map((expression) => `(?:${expression.source})`).join('|'), flags: expressions[0]!.flags };
  const base = literalBase(cleaned, folderSegments.length);
  if (base === undefined) return { folders };
  return globstar === -1 && base.split('/').length === folderSegments.length ? { folders, base, oneFolder: true } : { folders, base };
}

/**
 * The folder segments before the glob's first wildcard (picomatch's `scan`), at most `depth`
 * of them; none when one is empty, `.` or `..`, which no walk's path holds (so starting there
 * would name a different folder, or one outside the workspace).
 */
function literalBase(cleaned: string, depth: number): string | undefined {
  const scanned = picomatch.scan(cleaned).base;
  if (scanned === '') return undefined;
  const segments = scanned.split('/').slice(0, depth);
  if (segments.length === 0 || segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined;
  return segments.join('/');
}
