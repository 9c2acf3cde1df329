import type { Stats } from 'node:fs';
import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import type { Session } from '../../session.js';
import { defineTool, type ToolDefinition, type ToolOutput } from '../../tool.js';
import { LONG_LINE_LIMIT_BYTES, readPage, type Page, type PageEnd } from './text/line-reader.js';
import { fillDescription, PATH_FIELD, READ_FIELDS, READ_FILE_DESCRIPTION, READ_RANGE_ERRORS } from './read-descriptions.js';
import { recordRead } from './guard/read-state.js';
import type { ResolvedReadToolsOptions } from './read-options.js';
import { formatBytes, formatCount, shownName } from './text/text.js';
import { readFileOutput } from './output-schemas.js';
import type { ReadFileData } from './output-schemas.js';
import { withPathRules } from './paths/path-fields.js';
import type { InputAliases } from '../../model-inputs/aliases.js';
import { lineRangeRefusal, limitAsEndLine, offsetAsStartLine, positiveCount } from './input-aliases.js';

const readFileInput = z.object({
  path: z.string().describe(PATH_FIELD.readFile),
  // A model counting from 0 counts its other line numbers from 0 too: refused, not read as 1.
  start_line: z.number().int().min(1, READ_RANGE_ERRORS.startLineFromOne).optional().describe(READ_FIELDS.startLine),
  // -1 is "the last line" in Anthropic's view_range and in slices; 0 is no line in either count.
  end_line: z.number().int().min(-1, READ_RANGE_ERRORS.endLineNoLine).refine((line) => line !== 0, READ_RANGE_ERRORS.endLineNoLine).optional().describe(READ_FIELDS.endLine),
});

/**
 * Other harnesses' names for read_file's fields (camelCase and kebab-case spellings of our
 * own names are read by the core). See `input-aliases.ts` for why `offset` and `limit` show
 * the lines either counting meant.
 */
export const READ_FILE_ALIASES: InputAliases = {
  file_path: 'path', // Claude Code, Codex, Gemini CLI
  filePath: 'path', // OpenCode
  absolute_path: 'path', // Gemini CLI (older versions)
  offset: { to: 'start_line', convert: offsetAsStartLine }, // Claude Code, Codex (from 1), Gemini CLI (from 0)
  limit: { to: 'end_line', convert: limitAsEndLine }, // a count of lines, with offset or start_line
  head: { to: 'end_line', convert: (value) => positiveCount(value, '`end_line`, the last line to show (counted from 1)') }, // MCP filesystem server
  tail: { refuse: 'You sent `tail`, but read_file cannot count lines from the end: call it without `tail` (its reply says "lines 1-N of TOTAL"), then read the last lines with start_line=TOTAL-N+1' },
  view_range: lineRangeRefusal('view_range'), // Anthropic's text editor: [first, last]
  lines: lineRangeRefusal('lines'), // "2000-2010"
  line_range: lineRangeRefusal('line_range'),
};

type ReadFileInput = z.output<typeof readFileInput>;

/** A page that holds lines, as against a file that is not text or a start past its end. */
type LinesPage = Extract<Page, { type: 'lines' }>;

/** `read_file`: numbered lines of a text file, paged, streamed. */
export function createReadFileTool(options: ResolvedReadToolsOptions): ToolDefinition<typeof readFileInput> {
  const { maxReadCharacters, maxLineLength } = options;
  return withPathRules(defineTool({
    name: 'read_file',
    description: fillDescription(READ_FILE_DESCRIPTION, {
      maxCharacters: formatCount(maxReadCharacters),
      maxLineLength: formatCount(maxLineLength),
    }),
    kind: 'read',
    output: readFileOutput,
    input: readFileInput,
    aliases: READ_FILE_ALIASES,
    execute: (input, context) => readFile(options, input, context.session),
  }), options.workspace, { path: 'existing' });
}

async function readFile(options: ResolvedReadToolsOptions, input: ReadFileInput, session: Session): Promise<ToolOutput> {
  const startLine = input.start_line ?? 1;
  const endLine = input.end_line === undefined || input.end_line === -1 ? Number.POSITIVE_INFINITY : input.end_line;
  if (startLine > endLine) {
    throw new ToolError(
      `start_line (${startLine}) is after end_line (${endLine}). Give a start_line that is at most end_line, e.g. start_line=${endLine} end_line=${startLine}.`,
    );
  }
  const file = await options.workspace.resolveFile(input.path);
  const shown = shownName(file.relative);
  if (!file.stats.isFile()) {
    throw new ToolError(`\`${shown}\` is not a regular file (a device, socket or pipe), so it cannot be read.`);
  }

  const read = await readRequestedPage(options, file.absolute, shown, startLine, endLine, session);
  if (read === undefined) {
    return { text: `\`${shown}\` is empty (0 bytes).`, data: { path: file.relative, startLine: 1, endLine: 0, totalLines: 0 } satisfies ReadFileData };
  }
  const { page, stats } = read;
  if (page.type === 'not-text') {
    throw new ToolError(notTextMessage(shown, page.kind, stats.size));
  }
  if (page.type === 'past-end') {
    const total = page.totalLines;
    throw new ToolError(
      `\`${shown}\` has ${formatCount(total)} ${total === 1 ? 'line' : 'lines'}, so start_line=${startLine} is past the end. Use a start_line from 1 to ${total}.`,
    );
  }
  if (page.lines.length === 0) throw new ToolError(unreadableLineMessage(shown, page.end, startLine));

  const lastShown = startLine + page.lines.length - 1;
  recordRead(session, file.absolute, stats, { from: startLine, to: lastShown, reachedEnd: page.end.type === 'end-of-file' });
  return pageReply(options, { shown, relative: file.relative, size: stats.size }, page, startLine, lastShown);
}

/**
 * Reads the page through one handle, and the file's stats through the same handle so they
 * describe what was read; `undefined` for an empty file, which is recorded as read whole.
 */
async function readRequestedPage(
  { workspace, maxReadCharacters, maxLineLength }: ResolvedReadToolsOptions,
  absolute: string,
  shown: string,
  startLine: number,
  endLine: number,
  session: Session,
): Promise<{ page: Page; stats: Stats } | undefined> {
  const handle = await workspace.open(absolute);
  try {
    const stats = await handle.stat();
    if (stats.size === 0) {
      recordRead(session, absolute, stats, true);
      return undefined;
    }
    // The path appears in the header and in a closing note: leave room for it.
    const page = await readPage(handle, {
      startLine,
      endLine,
      maxCharacters: maxReadCharacters - 2 * shown.length,
      maxLineLength,
      fileBytes: stats.size,
    });
    return { page, stats };
  } finally {
    await handle.close();
  }
}

/** The reply for a page of lines: a header that says where the page ends and how to go on, the lines, and a note on why reading stopped. */
function pageReply(
  { maxReadCharacters, maxLineLength }: ResolvedReadToolsOptions,
  file: { shown: string; relative: string; size: number },
  page: LinesPage,
  startLine: number,
  lastShown: number,
): ToolOutput {
  const { shown } = file;
  const range = `${lastShown === startLine ? `line ${startLine}` : `lines ${startLine}-${lastShown}`}${page.totalLines === undefined ? '' : ` of ${page.totalLines}`}`;
  let header: string;
  let footer: string | undefined;
  const next = lastShown + 1;
  switch (page.end.type) {
    case 'end-of-file':
      header = `${shown}: ${range} (end of file).`;
      break;
    case 'end-line':
      header = `${shown}: ${range}. More follows: continue with start_line=${next}.`;
      break;
    case 'limit':
      header = `${shown}: ${range}${page.totalLines === undefined ? ` (the file is ${formatBytes(file.size)})` : ''}. The reply limit of ${formatCount(maxReadCharacters)} characters was reached; more follows: continue with start_line=${next}.`;
      break;
    default:
      header = `${shown}: ${range}. The file is not text from line ${next} on (see the note at the end).`;
      footer = unreadableLineMessage(shown, page.end, next);
  }
  if (page.cutLines > 0) {
    const lines = page.cutLines === 1 ? '1 line was' : `${formatCount(page.cutLines)} lines were`;
    header += ` ${lines} longer than ${formatCount(maxLineLength)} characters and cut (marked "line cut").`;
  }
  const text = [header, ...page.lines, ...(footer === undefined ? [] : [footer])].join('\n');
  const data: ReadFileData = {
    path: file.relative,
    startLine,
    endLine: lastShown,
    ...(page.totalLines === undefined ? {} : { totalLines: page.totalLines }),
    ...(page.more ? { nextStartLine: next } : {}),
  };
  return { text, data };
}

function notTextMessage(shown: string, kind: string, size: number): string {
  const what = kind === 'binary data' ? `holds binary data (NUL bytes; ${formatBytes(size)})` : `is ${kind} (${formatBytes(size)})`;
  let advice = 'Tell the user if you need its content, or look at it with another tool.';
  if (kind.endsWith('image')) advice = 'To learn what it shows, use an image tool such as query_image if you have one.';
  else if (kind.startsWith('UTF-')) advice = 'Convert it to UTF-8 first (e.g. `iconv -f UTF-16 -t UTF-8` in a shell), or ask the user.';
  return `\`${shown}\` ${what}, not UTF-8 text, so read_file cannot show it as lines. ${advice}`;
}

function unreadableLineMessage(shown: string, end: PageEnd, line: number): string {
  switch (end.type) {
    case 'binary':
      return `Line ${end.line} of \`${shown}\` holds binary data (NUL bytes), so reading stopped there. Use search_files to look for text further on.`;
    case 'not-utf8':
      return `Line ${end.line} of \`${shown}\` is not valid UTF-8 (the file may use another encoding, such as Latin-1 or Windows-1252), so reading stopped there. Convert the file to UTF-8 (e.g. \`iconv -f latin1 -t utf-8\` in a shell) or ask the user.`;
    case 'long-line':
      return `Line ${end.line} of \`${shown}\` is longer than ${formatBytes(LONG_LINE_LIMIT_BYTES)}, so reading stopped there. Use search_files to find text inside it.`;
    default:
      return `Line ${line} of \`${shown}\` could not be read.`;
  }
}
