import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import { defineTool, type ToolContext, type ToolDefinition } from '../../tool.js';
import { compileGlob, globForWorker } from './find-files.js';
import { fillDescription, PATH_FIELD, SEARCH_FIELDS, SEARCH_FILES_DESCRIPTION } from './read-descriptions.js';
import type { ResolvedReadToolsOptions } from './read-options.js';
import type { SearchOutcome } from '../../workspace/in-place.js';
import { runSearch } from './search/run-search.js';
import { capReply, cutLine, formatBytes, formatCount, formatSeconds, orRoot, plural, shownName } from './text/text.js';
import { withPathRules } from './paths/path-fields.js';
import type { InputAliases } from '../../model-inputs/aliases.js';
import { caseSensitiveAsIgnoreCase, modeOfLineNumbers, modeOfOutputMode, NO_CONTEXT_LINES, positiveCount, typeAsInclude } from './input-aliases.js';

/** Most results a model may ask for in one call. */
export const MAX_SEARCH_LIMIT = 1_000;
/** Default number of files or lines returned. */
export const DEFAULT_SEARCH_LIMIT = 100;
/** Characters kept free at the end of a reply for the notes. */
const FOOTER_RESERVE = 1_200;
/** Files named in a note on what was not searched. */
const NAMED_SKIPS = 5;

const searchFilesInput = z.object({
  pattern: z.string().min(1).describe(SEARCH_FIELDS.pattern),
  path: z.string().optional().describe(PATH_FIELD.searchFiles),
  include: z.string().min(1).optional().describe(SEARCH_FIELDS.include),
  mode: z.enum(['files', 'lines', 'counts']).optional().describe(SEARCH_FIELDS.mode),
  ignore_case: z.boolean().optional().describe(SEARCH_FIELDS.ignoreCase),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe(SEARCH_FIELDS.limit),
});

/**
 * Other harnesses' names for search_files' fields: Claude Code's Grep, Gemini CLI's
 * search_file_content, Cline's and Roo Code's search_files, Cursor's grep_search, Codex's
 * grep_files. camelCase and kebab-case spellings of our own names are read by the core.
 */
export const SEARCH_FILES_ALIASES: InputAliases = {
  regex: 'pattern', // Cline, Roo Code
  query: 'pattern', // Cursor (a regular expression there too)
  dir_path: 'path', // Gemini CLI
  directory: 'path',
  workdir: 'path', // Codex
  glob: 'include', // Claude Code
  file_pattern: 'include', // Cline, Roo Code
  include_pattern: 'include', // Cursor
  type: { to: 'include', convert: typeAsInclude }, // Claude Code: ripgrep's file types
  '-i': 'ignore_case', // Claude Code
  case_sensitive: { to: 'ignore_case', convert: caseSensitiveAsIgnoreCase }, // Gemini CLI, Cursor
  case_insensitive: 'ignore_case',
  output_mode: { to: 'mode', convert: modeOfOutputMode }, // Claude Code
  '-n': { to: 'mode', convert: modeOfLineNumbers }, // Claude Code
  head_limit: { to: 'limit', convert: (value) => positiveCount(value, `\`limit\` from 1 to ${MAX_SEARCH_LIMIT} (default ${DEFAULT_SEARCH_LIMIT})`) }, // Claude Code
  max_results: 'limit',
  '-A': NO_CONTEXT_LINES,
  '-B': NO_CONTEXT_LINES,
  '-C': NO_CONTEXT_LINES,
  context: NO_CONTEXT_LINES,
  multiline: { refuse: 'You sent `multiline`, but search_files matches one line at a time: leave `multiline` out and search for a single line of the text' },
  offset: { refuse: 'You sent `offset`, but search_files has no offset: leave it out and narrow the search with `path` or `include` instead' },
  exclude: { refuse: 'You sent `exclude`, but search_files cannot leave files out: leave it out and narrow the search with `include` (a glob such as "*.{ts,tsx}") or `path`' },
  exclude_pattern: { refuse: 'You sent `exclude_pattern`, but search_files cannot leave files out: leave it out and narrow the search with `include` (a glob such as "*.{ts,tsx}") or `path`' },
};

/** Compiled pattern: the source and flags the worker uses. */
export interface CompiledPattern {
  readonly source: string;
  readonly flags: string;
}

/** Characters of an invalid pattern quoted in its refusal. */
const MAX_PATTERN_IN_ERROR = 500;

/**
 * Compiles the model's pattern as a JavaScript regular expression: with the `u` flag when it
 * compiles that way (so `\p{L}` works), else without it (so needless escapes such as `\:` do
 * not fail). A leading `(?i)`, common in other regex dialects, turns on case folding.
 *
 * @throws {ToolError} with the engine's message and how to fix the pattern.
 */
export function compilePattern(pattern: string, ignoreCase: boolean): CompiledPattern {
  let source = pattern;
  let caseless = ignoreCase;
  if (source.startsWith('(?i)')) {
    source = source.slice(4);
    caseless = true;
  }
  const base = caseless ? 'i' : '';
  try {
    new RegExp(source, `${base}u`);
    return { source, flags: `${base}u` };
  } catch {
    // Try again without `u` below.
  }
  try {
    new RegExp(source, base);
    return { source, flags: base };
  } catch (error) {
    // The engine's message quotes the whole pattern, which may be huge: quote its start only.
    const quoted = source.length > MAX_PATTERN_IN_ERROR ? `/${cutLine(source, MAX_PATTERN_IN_ERROR)}/` : `/${source}/`;
    const reason = (error as Error).message.replace(/^Invalid regular expression: /, '').replace(`/${source}/`, () => quoted);
    let hint = 'Escape ( ) [ ] { } . * + ? ^ $ | and \\ with a backslash to match them literally, e.g. `foo\\(` or `a\\.b`.';
    if (source.includes('(?P<')) hint = 'Named groups are written `(?<name>…)` in JavaScript, not `(?P<name>…)`.';
    else if (/\(\?[a-z]+[):]/.test(source)) hint = 'Inline flags such as `(?s)` or `(?m)` are not supported; only a leading `(?i)` is (or use ignore_case).';
    throw new ToolError(`\`pattern\` is not a valid JavaScript regular expression: ${reason}. ${hint}`);
  }
}

/** `search_files`: a regular expression over file contents, off the main thread and stoppable. */
export function createSearchFilesTool(options: ResolvedReadToolsOptions): ToolDefinition<typeof searchFilesInput> {
  const { workspace, maxReadCharacters, maxSearchFileBytes, skippedFolders } = options;
  return withPathRules(defineTool({
    name: 'search_files',
    description: fillDescription(SEARCH_FILES_DESCRIPTION, {
      maxFileSize: formatBytes(maxSearchFileBytes),
      skipped: skippedFolders.join(', '),
    }),
    kind: 'search',
    input: searchFilesInput,
    aliases: SEARCH_FILES_ALIASES,
    reportsProgress: true,
    async execute(input, context) {
      const mode = input.mode ?? 'files';
      const limit = input.limit ?? DEFAULT_SEARCH_LIMIT;
      const compiled = compilePattern(input.pattern, input.ignore_case ?? false);
      const include = input.include === undefined ? undefined : compileGlob(input.include, 'include');
      const target = await workspace.resolve(orRoot(input.path));
      const targetStats = target.exists ? await workspace.statOrUndefined(target.absolute) : undefined;
      if (targetStats === undefined) {
        throw new ToolError(`\`${target.relative}\` does not exist. Check the path with list_directory or find_files.`);
      }
      if (!targetStats.isDirectory() && !targetStats.isFile()) {
        throw new ToolError(`\`${target.relative}\` is not a regular file or a folder (a device, socket or pipe), so it cannot be searched.`);
      }
      const outcome = await runSearch({
        options,
        target: target.absolute,
        targetIsFile: !targetStats.isDirectory(),
        pattern: compiled,
        mode,
        limit,
        include,
        includePattern: input.include === undefined ? undefined : globForWorker(input.include),
        includeGlob: input.include,
        signal: context.signal,
        onCount: countReporter(context.onProgress),
        caller: context.session,
      });
      if (outcome.stopped?.type === 'cancelled') throw new ToolError('search_files was cancelled.');
      if (outcome.stopped?.type === 'regex-timeout') {
        throw new ToolError(
          `The pattern \`${input.pattern}\` ran for more than ${formatSeconds(options.regexTimeoutMs)} s on ${outcome.stopped.line === undefined ? '' : `line ${outcome.stopped.line} of `}\`${outcome.stopped.file}\` without finishing (catastrophic backtracking, e.g. nested quantifiers like \`(a+)+\`), so the search was stopped. Simplify the pattern: avoid nested or overlapping quantifiers, anchor it, or search for a literal part of it.`,
          { data: { file: outcome.stopped.file, line: outcome.stopped.line } },
        );
      }
      const where = target.relative === '.' ? 'the workspace' : `\`${target.relative}\``;
      const text = formatReply(outcome, { mode, limit, pattern: input.pattern, where, maxReadCharacters, maxSearchFileBytes, input });
      return { text: capReply(text, maxReadCharacters), data: outcome.data };
    },
  }), workspace, { path: 'existing' });
}

/** Least time between two counts handed to `onProgress`: the core throttles too, this spares building the text per file. */
const COUNT_INTERVAL_MS = 100;

/** Reports the counts so far as a status line, when someone listens. */
function countReporter(onProgress: ToolContext['onProgress']): ((matched: number, searched: number) => void) | undefined {
  if (onProgress === undefined) return undefined;
  let last = -Infinity;
  return (matched, searched) => {
    const now = performance.now();
    if (now - last < COUNT_INTERVAL_MS) return;
    last = now;
    onProgress({ message: `${plural(matched, 'file')} ${matched === 1 ? 'matches' : 'match'} so far (${plural(searched, 'file')} searched)`, progress: searched });
  };
}

interface ReplyContext {
  readonly mode: 'files' | 'lines' | 'counts';
  readonly limit: number;
  readonly pattern: string;
  readonly where: string;
  readonly maxReadCharacters: number;
  readonly maxSearchFileBytes: number;
  readonly input: { ignore_case?: boolean | undefined; include?: string | undefined };
}

function formatReply(outcome: SearchOutcome, context: ReplyContext): string {
  const { mode, limit, pattern, where } = context;
  const searched = `${plural(outcome.searched, 'file')} searched in ${where}`;
  const notes = skipNotes(outcome, context);
  if (outcome.matches.length === 0) {
    const hints: string[] = [];
    if (!context.input.ignore_case) hints.push('set ignore_case');
    if (context.input.include !== undefined) hints.push('check include');
    hints.push('try a shorter or simpler pattern');
    return [`No matches for \`${pattern}\` (${searched}). To widen the search: ${hints.join(', ')}.`, ...notes].join('\n');
  }

  const body: string[] = [];
  let length = 0;
  const room = context.maxReadCharacters - FOOTER_RESERVE;
  let shownFiles = 0;
  let shownLines = 0;
  outer: for (const match of outcome.matches) {
    const shownPath = shownName(match.path);
    const block: string[] =
      mode === 'files'
        ? [shownPath]
        : mode === 'counts'
          ? [`${shownPath}: ${match.count}`]
          : [...(shownFiles > 0 ? [''] : []), shownPath];
    const blockLength = block.reduce((sum, line) => sum + line.length + 1, 0);
    if (length + blockLength > room) break;
    body.push(...block);
    length += blockLength;
    shownFiles += 1;
    if (mode === 'lines') {
      for (const [number, text] of match.lines) {
        const line = `${number}: ${text}`;
        if (length + line.length + 1 > room) break outer;
        body.push(line);
        length += line.length + 1;
        shownLines += 1;
      }
    }
  }

  const totalLines = outcome.matches.reduce((sum, match) => sum + match.lines.length, 0);
  const totalCount = outcome.matches.reduce((sum, match) => sum + match.count, 0);
  let header: string;
  if (mode === 'files') header = `${plural(outcome.matches.length, 'file')} match \`${pattern}\` (${searched}):`;
  else if (mode === 'counts') header = `${plural(totalCount, 'matching line')} in ${plural(outcome.matches.length, 'file')} for \`${pattern}\` (${searched}):`;
  else header = `${plural(totalLines, 'matching line')} in ${plural(outcome.matches.length, 'file')} for \`${pattern}\` (${searched}):`;

  const footer: string[] = [];
  const cutByReply = mode === 'lines' ? shownLines < totalLines : shownFiles < outcome.matches.length;
  if (cutByReply) {
    const left = mode === 'lines' ? plural(totalLines - shownLines, 'more line') : plural(outcome.matches.length - shownFiles, 'more file');
    footer.push(`The reply limit of ${formatCount(context.maxReadCharacters)} characters was reached: ${left} not shown. Narrow the search with path or include.`);
  }
  if (outcome.limitReached) {
    const unit = mode === 'lines' ? 'lines' : 'files';
    footer.push(`Stopped at limit=${limit} ${unit}; more may match. Narrow the search with path or include${limit < MAX_SEARCH_LIMIT ? `, or raise limit (at most ${MAX_SEARCH_LIMIT})` : ''}.`);
  }
  return [header, ...body, ...footer, ...notes].join('\n');
}

/** Notes on what was not searched and why, naming a few files a model may want to look at another way. */
function skipNotes(outcome: SearchOutcome, context: ReplyContext): string[] {
  const notes: string[] = [];
  const parts: string[] = [];
  const named = (files: readonly string[]): string => {
    if (files.length === 0) return '';
    const shown = files.slice(0, NAMED_SKIPS).map((file) => `\`${shownName(file)}\``).join(', ');
    return `: ${shown}${files.length > NAMED_SKIPS ? ', …' : ''}`;
  };
  if (outcome.skipped.binary > 0) parts.push(`${plural(outcome.skipped.binary, 'binary file')}`);
  if (outcome.skipped.notUtf8.length > 0) parts.push(`${plural(outcome.skipped.notUtf8.length, 'file')} not in UTF-8${named(outcome.skipped.notUtf8)}`);
  if (outcome.skipped.tooLarge.length > 0) {
    parts.push(`${plural(outcome.skipped.tooLarge.length, 'file')} over ${formatBytes(context.maxSearchFileBytes)}${named(outcome.skipped.tooLarge)}`);
  }
  if (outcome.skipped.unreadable.length > 0) parts.push(`${plural(outcome.skipped.unreadable.length, 'file or folder', 'files or folders')} that could not be read${named(outcome.skipped.unreadable)}`);
  if (parts.length > 0) notes.push(`Not searched: ${parts.join('; ')}.`);
  if (outcome.stopped?.type === 'timeout') {
    notes.push(`The search stopped after ${formatSeconds(outcome.stopped.afterMs)} s, so results are incomplete. Narrow it with path or include.`);
  }
  return notes;
}

