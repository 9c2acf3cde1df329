import picomatch from 'picomatch';
import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import { defineTool, type ToolDefinition } from '../../tool.js';
import { rethrowUnlessFileSystemError } from '../../workspace/file-system-errors.js';
import { FIND_FILES_DESCRIPTION, FIND_PATTERN_FIELD, fillDescription, PATH_FIELD } from './read-descriptions.js';
import type { ResolvedReadToolsOptions } from './read-options.js';
import { listsLocalDisk } from './search/local-disk.js';
import type { FindAnswer, IncludePattern } from './search/protocol.js';
import { findInWorker } from './search/worker-pool.js';
import { capReply, formatCount, orRoot, plural, shownName } from './text/text.js';
import { walkFiles, type WalkReport } from './search/walk.js';
import { findFilesOutput } from './output-schemas.js';
import { findInSmallFolder, folderFilter, unpackPaths } from './search/folder-listing.js';
import { globFolders } from './search/glob-prefix.js';
import { withPathRules } from './paths/path-fields.js';
import type { InputAliases } from '../../model-inputs/aliases.js';
import { regexInsteadOfGlob } from './regex-as-glob.js';

/** Modification times are looked up for this many files at a time. */
const STAT_BATCH = 64;
/**
 * A glob whose matches all lie in one folder of at most this many names is answered on this
 * thread, with synchronous calls: the search worker would add two thread wake-ups (about
 * 0.2 ms, a third of a small find) to a job that takes a lookup per match. The bound keeps
 * the event loop's block near 2 ms on a 2-core machine (`find-files.int.test.ts` measures it);
 * a larger folder, and every walk, goes to the worker.
 */
export const SMALL_FOLDER_NAMES = 512;
/** Characters kept free at the end of a reply for the notes. */
const FOOTER_RESERVE = 400;

const findFilesInput = z.object({
  pattern: z.string().min(1).describe(FIND_PATTERN_FIELD),
  path: z.string().optional().describe(PATH_FIELD.findFiles),
});

/**
 * Other harnesses' names for find_files' fields: Claude Code's Glob (the same names), Gemini
 * CLI's glob, Codex. camelCase and kebab-case spellings of our own names are read by the core.
 */
export const FIND_FILES_ALIASES: InputAliases = {
  glob: 'pattern',
  dir_path: 'path', // Gemini CLI
  directory: 'path',
  workdir: 'path', // Codex
  case_sensitive: { refuse: 'You sent `case_sensitive`, but find_files always matches case: leave it out, and for a name in any case use classes such as "[Rr][Ee][Aa][Dd][Mm][Ee]*"' }, // Gemini CLI
  respect_git_ignore: { refuse: 'You sent `respect_git_ignore`, but find_files never reads .gitignore: leave it out (it skips only .git, node_modules and the like)' }, // Gemini CLI
  exclude: { refuse: 'You sent `exclude`, but find_files cannot leave names out: leave it out and match only what you want, with {a,b} for alternatives or a narrower `path`' },
  limit: { refuse: 'You sent `limit`, but find_files has a fixed limit (the reply says how many more matched): leave it out and narrow the pattern or `path` instead' },
};

/** A file `find_files` found, as `data` gives it to a user interface. */
export interface FoundFile {
  /** Relative to the workspace root. */
  readonly path: string;
  readonly mtimeMs: number;
  /** Where a symbolic link points (links are listed, never followed). */
  readonly target?: string;
}

/**
 * `*` wildcards a glob may have in one path segment (`**` on its own is a segment of its own
 * and does not count). Three cost at most about 10 ms on a 255-character name; each more
 * multiplies that by the name's length (4: about a second, 5: a minute).
 */
export const MAX_STARS_PER_SEGMENT = 3;

/**
 * A matcher for a glob as `find_files` and `search_files` read it: without `/` it matches the
 * file name at any depth, with `/` the path relative to the folder searched. Dotfiles match.
 *
 * @throws {ToolError} when the glob cannot be compiled.
 */
export function compileGlob(pattern: string, field: string): (fromStart: string) => boolean {
  const known = compiledGlobs.get(pattern);
  if (known !== undefined) return known;
  // "./src/*.ts" and "/src/*.ts" mean the folder searched, as "src/*.ts" does.
  const cleaned = pattern.replace(/^\.?\/+/, '');
  // Each `*` is a lazy loop the compiled expression backtracks through: matching one long name
  // costs its length to the power of their number, and runs on the host's thread.
  if (cleaned.split('/').some((segment) => segment !== '**' && (segment.replace(/\\./g, '').match(/\*/g)?.length ?? 0) > MAX_STARS_PER_SEGMENT)) {
    throw new ToolError(
      `\`${field}\` has more than ${MAX_STARS_PER_SEGMENT} \`*\` wildcards in one path segment, which can make matching a long name take hours. Use at most ${MAX_STARS_PER_SEGMENT} per segment, such as "*foo*bar*", or narrow the search with path.`,
    );
  }
  let matcher: (fromStart: string) => boolean;
  try {
    matcher = picomatch(cleaned, { dot: true, basename: !cleaned.includes('/') });
  } catch (error) {
    throw new ToolError(`\`${field}\` is not a valid glob pattern (${(error as Error).message}). Use *, **, ?, [abc] and {a,b}, e.g. "*.ts" or "src/**/*.test.ts".`);
  }
  remember(compiledGlobs, pattern, matcher);
  return matcher;
}

/**
 * Globs compiled lately, by pattern: a model repeats its globs, and compiling one (picomatch
 * parses it, then builds a regular expression) costs more than a small search's listing.
 */
const compiledGlobs = new Map<string, (fromStart: string) => boolean>();
const workerGlobs = new Map<string, IncludePattern>();
const REMEMBERED_GLOBS = 64;

/** Keeps `value` under `key`, forgetting the entry kept longest once there are {@link REMEMBERED_GLOBS}. */
function remember<T>(cache: Map<string, T>, key: string, value: T): void {
  if (cache.size >= REMEMBERED_GLOBS) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
}

/**
 * The glob {@link compileGlob} matches with, as a regular expression the search worker can
 * use: it matches when the path equals `glob`, or when `regex` matches the path (the file
 * name, with `basename`), as picomatch decides. Call after `compileGlob` accepted the glob.
 */
export function globForWorker(pattern: string): IncludePattern {
  const known = workerGlobs.get(pattern);
  if (known !== undefined) return known;
  const cleaned = pattern.replace(/^\.?\/+/, '');
  const basename = !cleaned.includes('/');
  const regex = picomatch.makeRe(cleaned, { dot: true, basename });
  const include: IncludePattern = { glob: cleaned, source: regex.source, flags: regex.flags, basename, ...globFolders(cleaned) };
  remember(workerGlobs, pattern, include);
  return include;
}

/** `find_files`: files by glob, newest first, at most `maxFindResults`. */
export function createFindFilesTool(options: ResolvedReadToolsOptions): ToolDefinition<typeof findFilesInput> {
  const { workspace, maxFindResults, maxReadCharacters, skippedFolders } = options;
  return withPathRules(defineTool({
    name: 'find_files',
    description: fillDescription(FIND_FILES_DESCRIPTION, {
      maxResults: formatCount(maxFindResults),
      skipped: skippedFolders.join(', '),
    }),
    kind: 'search',
    output: findFilesOutput,
    input: findFilesInput,
    aliases: FIND_FILES_ALIASES,
    async execute(input, context) {
      const local = listsLocalDisk(workspace);
      const folder = orRoot(input.path);
      // On the local disk the listing (here or in the worker) finds out whether the start is a
      // folder, which saves a thread-pool round trip per call (a sixth of a small find); the
      // workspace says why when it is not.
      const start = local ? await workspace.resolve(folder) : await workspace.resolveDirectory(folder);
      if (!start.exists) await workspace.resolveDirectory(folder);
      const matches = compileGlob(input.pattern, 'pattern');
      const include = globForWorker(input.pattern);
      let listed: Listed | 'start-missing' | undefined;
      if (local) {
        const job = { start: start.absolute, root: workspace.root, skipped: skippedFolders, include, keep: maxFindResults };
        // A small folder costs less to list here than the worker's two wake-ups (see SMALL_FOLDER_NAMES).
        listed = fromAnswer(findInSmallFolder(job, SMALL_FOLDER_NAMES) ?? (await findInWorker(job, context.signal, context.session)));
      } else {
        listed = await findThroughWorkspace(workspace, start.absolute, matches, include, skippedFolders, context.signal);
      }
      if (listed === 'start-missing') {
        await workspace.resolveDirectory(folder);
        throw new ToolError(`\`${start.relative}\` changed while find_files looked at it. Call find_files again.`);
      }
      if (listed === undefined || context.signal.aborted) throw new ToolError('find_files was cancelled.');
      const { walked, newest, total } = listed;
      const report: WalkReport = { unreadable: [...listed.unreadable] };

      const where = start.relative === '.' ? 'the workspace' : `\`${start.relative}\``;
      const notes = walkNotes(report);
      if (total === 0) {
        const regex = regexInsteadOfGlob(input.pattern, { tool: 'find_files', field: 'pattern', ...(input.path === undefined ? {} : { path: input.path }) });
        if (regex !== undefined) throw new ToolError(regex);
        const hint = input.pattern.includes('/')
          ? ` A pattern with "/" matches paths relative to the folder searched (${start.relative === '.' ? 'the workspace root' : `\`${start.relative}\``}); try "**/${input.pattern.split('/').pop()}" to match the name at any depth.`
          : ' Try a broader pattern such as "*name*", or search contents with search_files.';
        return {
          text: [`No files match \`${input.pattern}\` in ${where} (${plural(walked, 'file')} looked at).${hint}`, ...notes].join('\n'),
          data: { files: [], total: 0 },
        };
      }

      const lines: string[] = [];
      const files: FoundFile[] = [];
      let length = 0;
      for (const file of newest.slice(0, maxFindResults)) {
        const line = file.target === undefined ? shownName(file.path) : `${shownName(file.path)} -> ${shownName(file.target)}`;
        if (length + line.length + 1 > maxReadCharacters - FOOTER_RESERVE) break;
        lines.push(line);
        files.push(file);
        length += line.length + 1;
      }
      const header =
        files.length === total
          ? `Found ${plural(total, 'file')} matching \`${input.pattern}\` in ${where}, newest first:`
          : `Found ${plural(total, 'file')} matching \`${input.pattern}\` in ${where}; the ${formatCount(files.length)} newest:`;
      const footer =
        files.length < total
          ? [`… ${formatCount(total - files.length)} more matched and are not shown. Narrow the pattern or give a path.`]
          : [];
      return { text: capReply([header, ...lines, ...footer, ...notes].join('\n'), maxReadCharacters), data: { files, total } };
    },
  }), workspace, { path: 'existing' });
}

/** What a walk for `find_files` found: files (and links) looked at, how many matched and the newest of them, folders it could not list. */
interface Listed {
  readonly walked: number;
  readonly total: number;
  /** Newest first (ties by path); at least the `maxFindResults` newest. */
  readonly newest: readonly FoundFile[];
  readonly unreadable: readonly string[];
}

function fromAnswer(answer: FindAnswer | undefined): Listed | 'start-missing' | undefined {
  if (answer === undefined) return undefined;
  if (answer.startMissing) return 'start-missing';
  const { mtimes, targets } = answer.newest;
  const paths = unpackPaths(answer.newest);
  const newest: FoundFile[] = paths.map((path, index) => ({ path, mtimeMs: mtimes[index]! }));
  for (const [index, target] of targets) newest[index] = { ...newest[index]!, target };
  return { walked: answer.walked, total: answer.total, newest, unreadable: answer.unreadable };
}

/** Newest first, ties by path: the order find_files lists in (the worker sorts the same way). */
function byNewest(a: FoundFile, b: FoundFile): number {
  return b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/** `find_files` on a workspace that is not the local disk: walked through the workspace's methods. */
async function findThroughWorkspace(
  workspace: ResolvedReadToolsOptions['workspace'],
  start: string,
  matches: (fromStart: string) => boolean,
  include: IncludePattern,
  skippedFolders: readonly string[],
  signal: AbortSignal,
): Promise<Listed | undefined> {
  const report: WalkReport = { unreadable: [] };
  const found: { absolute: string; isLink: boolean }[] = [];
  let walked = 0;
  for await (const file of walkFiles(workspace, start, skippedFolders, report, signal, folderFilter(include), include.base)) {
    walked += 1;
    if (matches(file.fromStart)) found.push({ absolute: file.absolute, isLink: file.isLink });
  }
  if (signal.aborted) return undefined;
  const dated = await withModificationTimes(workspace, found);
  return { walked, total: dated.length, newest: dated.sort(byNewest), unreadable: report.unreadable };
}

async function withModificationTimes(
  workspace: ResolvedReadToolsOptions['workspace'],
  found: readonly { absolute: string; isLink: boolean }[],
): Promise<FoundFile[]> {
  const dated: FoundFile[] = [];
  for (let index = 0; index < found.length; index += STAT_BATCH) {
    const batch = found.slice(index, index + STAT_BATCH);
    const described = await Promise.all(
      batch.map(async (file): Promise<FoundFile | undefined> => {
        // Gone since the listing, or out of reach (a path over PATH_MAX): left out.
        const stats = await workspace.lstatOrUndefined(file.absolute).catch(rethrowUnlessFileSystemError);
        if (stats === undefined) return undefined;
        const shown = workspace.display(file.absolute);
        if (!file.isLink) return { path: shown, mtimeMs: stats.mtimeMs };
        return { path: shown, mtimeMs: stats.mtimeMs, target: await workspace.readLink(file.absolute).catch(() => '?') };
      }),
    );
    for (const file of described) if (file !== undefined) dated.push(file);
  }
  return dated;
}

/** A note on folders that could not be read, shared with search_files. */
export function walkNotes(report: WalkReport): string[] {
  if (report.unreadable.length === 0) return [];
  const shown = report.unreadable.slice(0, 5).map((folder) => `\`${folder}\``).join(', ');
  const more = report.unreadable.length > 5 ? ` and ${formatCount(report.unreadable.length - 5)} more` : '';
  return [`Could not read ${plural(report.unreadable.length, 'folder')} (permission denied): ${shown}${more}.`];
}

