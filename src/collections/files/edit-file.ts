import type { Stats } from 'node:fs';
import { diffLines } from 'diff';
import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import { defineTool } from '../../tool.js';
import { summarizeEdit } from './text/edit-diff.js';
import { replaceExactText, type EditSpans, type NumberedLines, type TextEditOutcome } from './text/edit-text.js';
import { ByteText, replaceExactBytes } from './text/byte-edit.js';
import type { TextSource } from './text/line-scan.js';
import { refuseNumberedNewString, salvageMiss } from './edit-miss-reply.js';
import { recordWrite } from './guard/read-state.js';
import { checkTextFile, decodeCheckedText, encodeTextFile, type CheckedTextFile } from './text/text-file.js';
import { cutLine, formatBytes, plural } from './text/text.js';
import { TimeSlicer } from '../../time-slice.js';
import { recordChange } from './guard/undo.js';
import { EDIT_FILE_DESCRIPTION, WRITE_FIELDS } from './write-descriptions.js';
import {
  backupBeforeChange,
  contentHashInSlices,
  formatNumberedLines,
  lineRange,
  refusePrivate,
  requireFreshRead,
  withPathLocks,
  writePolicy,
  type WriteToolsContext,
} from './guard/write-guards.js';
import { editFileOutput } from './output-schemas.js';
import { withPathRules } from './paths/path-fields.js';
import type { InputAliases } from '../../model-inputs/aliases.js';
import { wholeNumber } from './input-aliases.js';

/** Changed lines shown in an `edit_file` reply; more are counted, not shown. */
export const MAX_EDIT_REPLY_LINES = 60;
/** Milliseconds the reply's summary works between two turns of the event loop while the edit's write is in flight. */
const BESIDE_WRITE_SLICE_MS = 0.5;
/** edit_file reads the whole file into memory; larger files are refused with a message. */
export const MAX_EDIT_FILE_BYTES = 10 * 1024 * 1024;

const editFileInput = z.object({
  path: z.string().describe(WRITE_FIELDS.path),
  old_string: z.string().describe(WRITE_FIELDS.oldString),
  new_string: z.string().describe(WRITE_FIELDS.newString),
  replace_all: z.boolean().optional().describe(WRITE_FIELDS.replaceAll),
});

/**
 * Other harnesses' names for edit_file's fields: Claude Code's Edit (ours but `file_path`),
 * Anthropic's text editor, Gemini CLI's replace, OpenCode's edit (`oldString` and the like
 * are read by the core), Zed's `old_text`.
 */
export const EDIT_FILE_ALIASES: InputAliases = {
  file_path: 'path', // Claude Code, Gemini CLI
  filePath: 'path', // OpenCode
  old_str: 'old_string', // Anthropic's text editor
  new_str: 'new_string',
  old_text: 'old_string', // Zed
  new_text: 'new_string',
  expected_replacements: { to: 'replace_all', convert: expectedReplacements }, // Gemini CLI
  edits: { refuse: 'You sent `edits`, but edit_file makes one replacement a call: call it once for each edit, with that edit\'s text as old_string and its replacement as new_string' }, // Claude Code's MultiEdit, the MCP filesystem server
};

/** Gemini CLI's count of replacements: 1 is edit_file's own rule; a larger one is refused, since edit_file does not check a count. */
function expectedReplacements(value: unknown): boolean {
  if (wholeNumber(value) === 1) return false;
  throw new TypeError('`replace_all: true` to change every occurrence (edit_file takes no count; its reply says how many it changed), or leave it out to change the one occurrence');
}

/** `edit_file`: exact, literal text replacement in a file the session has read. */
export function createEditFileTool(context: WriteToolsContext) {
  const { workspace } = context;
  return withPathRules(defineTool({
    name: 'edit_file',
    description: EDIT_FILE_DESCRIPTION,
    kind: 'edit',
    output: editFileOutput,
    input: editFileInput,
    aliases: EDIT_FILE_ALIASES,
    checkPolicy: writePolicy(workspace, (input: z.output<typeof editFileInput>) => [
      { path: input.path, followFinalLink: true, checkFile: refuseOversize, needsRead: { toolName: 'edit_file', whole: false } },
    ]),
    describeCall: (input) => `Edit ${input.path}${input.replace_all ? ' (every occurrence)' : ''}:\n${snippetDiff(input.old_string, input.new_string)}`,
    execute: async (input, { session }) => {
      if (input.old_string === '') {
        throw new ToolError(
          'old_string is empty, so there is nothing to find. Copy the exact text to replace from read_file output; to make a new file use create_file, to replace a whole file use write_file.',
        );
      }
      if (input.old_string === input.new_string) {
        throw new ToolError('old_string and new_string are identical, so the edit would change nothing. Give the new text in new_string.');
      }
      const resolved = await workspace.resolveFile(input.path);
      const shown = resolved.relative;
      refusePrivate(workspace, resolved.absolute, shown);

      return withPathLocks([resolved.absolute], async () => {
        const stats = await workspace.statOrUndefined(resolved.absolute);
        if (stats === undefined) throw new ToolError(`\`${shown}\` no longer exists. Check the path with find_files.`);
        refuseOversize(stats, shown);
        const bytes = await workspace.readFile(resolved.absolute);
        // One time budget for the whole call: each step pauses when the slice it shares is used up.
        const slicer = new TimeSlicer();
        const checked = checkTextFile(bytes);
        if ('problem' in checked) {
          throw new ToolError(`\`${shown}\` is not UTF-8 text (${checked.problem}), so edit_file cannot change it without damaging it. Leave it as it is or ask the user.`);
        }
        requireFreshRead(session, resolved.absolute, stats, shown, { toolName: 'edit_file', whole: false });

        const { outcome, note, newBytes, before, after } = await planEdit(bytes, checked, input, { shown, maxLineLength: context.maxLineLength }, slicer);
        if (newBytes.equals(bytes)) {
          // Only line breaks differed, and they are written in the file's own ending.
          return { text: `\`${shown}\` already reads that way (old_string and new_string differ only in line endings); nothing was written.`, data: { path: shown, replacements: 0 } };
        }
        const backup = await backupBeforeChange(context, shown, bytes);
        // The reply's summary is worked out while the write waits for the disk (its fsync is
        // most of a call's time); the call answers once both are done, the write's fault first.
        // The summary gives the event loop a turn every half millisecond meanwhile: each step of
        // the write (open, write, fsync, close, rename) needs a turn to start the next. Behind
        // the call's 4 ms slices the write ended 2.3-4.6 ms after the summary of a 10,000-line
        // replace_all; with short slices, 1.4-2.2 ms after.
        const [written, summarized] = await Promise.allSettled([
          workspace.writeFileAtomic(resolved.absolute, newBytes),
          summarizeEdit(shown, before, after, outcome.spans, MAX_EDIT_REPLY_LINES, new TimeSlicer(BESIDE_WRITE_SLICE_MS)),
        ]);
        if (written.status === 'rejected') throw written.reason;
        if (summarized.status === 'rejected') throw summarized.reason;
        const summary = summarized.value;
        const afterStats = await workspace.statOrUndefined(resolved.absolute);
        if (afterStats !== undefined) recordWrite(session, resolved.absolute, afterStats);
        if (backup !== undefined) recordChange(session, workspace, { type: 'write', path: shown, backup, after: await contentHashInSlices(newBytes, slicer) });

        const header = `Edited \`${shown}\`: ${plural(outcome.replacements, 'replacement')}${note === undefined ? '' : ` (${note})`}. The changed lines now read:`;
        return {
          text: `${header}\n${formatChangedLines(summary.shown, summary.changedLines, context.maxLineLength)}`,
          data: { path: shown, replacements: outcome.replacements, changedLines: summary.ranges.map(lineRange), diff: summary.diff, backup },
        };
      });
    },
  }), workspace, { path: 'existing' });
}

/** The changed lines as `N: text`, groups apart by `…` (the first {@link MAX_EDIT_REPLY_LINES}), and a count of the rest. */
function formatChangedLines(shownGroups: readonly NumberedLines[], changedLines: number, maxLineLength: number): string {
  const parts: string[] = [];
  let shownLines = 0;
  for (const group of shownGroups) {
    if (shownLines > 0) parts.push('…');
    parts.push(formatNumberedLines(group, maxLineLength));
    shownLines += group.lines.length;
  }
  const hiddenLines = changedLines - shownLines;
  if (hiddenLines > 0) parts.push(`… and ${plural(hiddenLines, 'more changed line')}; read the file to see them.`);
  return parts.join('\n');
}

type EditInput = z.output<typeof editFileInput>;

/** An edit worked out: the new bytes, and both sides as the summary reads them. */
interface PlannedEdit {
  readonly outcome: { readonly replacements: number; readonly spans: EditSpans };
  readonly note?: string;
  readonly newBytes: Buffer;
  readonly before: TextSource;
  readonly after: TextSource;
}

/**
 * The edit on the file's bytes when they can answer alone (an `old_string` without line
 * breaks that is there: no text decoded whole, see byte-edit.ts), otherwise on its decoded
 * text (line breaks matched across CRLF, a miss salvaged).
 */
async function planEdit(bytes: Buffer, checked: CheckedTextFile, input: EditInput, where: { shown: string; maxLineLength: number }, slicer: TimeSlicer): Promise<PlannedEdit> {
  const prefix = bytes.subarray(0, bytes.length - checked.body.length);
  const inBytes = await replaceExactBytes(checked.body, input.old_string, input.new_string, { replaceAll: input.replace_all ?? false, prefix }, slicer);
  if (inBytes?.type === 'ambiguous') throw ambiguous(inBytes.occurrences, where.shown);
  if (inBytes !== undefined) {
    const before = new ByteText(checked.body);
    await refuseNumberedNewString(before, { oldString: input.old_string, newString: input.new_string }, inBytes.spans.oldStart(0), slicer);
    return { outcome: inBytes, newBytes: inBytes.bytes, before, after: new ByteText(inBytes.body) };
  }
  const decoded = await decodeCheckedText(checked, slicer);
  const { outcome, note } = await findEdit(decoded.text, input, where, slicer);
  const newBytes = await encodeTextFile(outcome.text, decoded.bom, slicer);
  return { outcome, ...(note === undefined ? {} : { note }), newBytes, before: decoded.text, after: outcome.text };
}

/** The refusal of an `old_string` found more than once without `replace_all`. */
function ambiguous(occurrences: number, shown: string): ToolError {
  return new ToolError(
    `old_string occurs ${plural(occurrences, 'time')} in \`${shown}\`, so edit_file did not know which one to change. Add surrounding lines to old_string until it occurs exactly once, or set replace_all to true to change every occurrence.`,
  );
}

/**
 * The replacement in `text`: as written, or as salvaged after a miss (`note` says how), with
 * a `new_string` that carries line numbers its `old_string` does not refused. Throws a
 * {@link ToolError} for text that is not there once.
 */
async function findEdit(text: string, input: EditInput, where: { shown: string; maxLineLength: number }, slicer: TimeSlicer): Promise<{ outcome: Extract<TextEditOutcome, { type: 'edited' }>; note?: string }> {
  const replaceAll = input.replace_all ?? false;
  let edit: { oldString: string; newString: string; note?: string } = { oldString: input.old_string, newString: input.new_string };
  let outcome = await replaceExactText(text, edit.oldString, edit.newString, replaceAll, slicer);
  if (outcome.type === 'not-found') {
    edit = await salvageMiss(text, input.old_string, input.new_string, where, slicer);
    outcome = await replaceExactText(text, edit.oldString, edit.newString, replaceAll, slicer);
  }
  if (outcome.type === 'ambiguous') throw ambiguous(outcome.occurrences, where.shown);
  // A salvaged old_string is the file's own text: it is there.
  if (outcome.type === 'not-found') throw new ToolError(`old_string was not found in \`${where.shown}\`. Read the file again with read_file and copy the text exactly.`);
  await refuseNumberedNewString(text, edit, outcome.spans.oldStart(0), slicer);
  return { outcome, ...(edit.note === undefined ? {} : { note: edit.note }) };
}

/**
 * Lines of old_string and new_string together up to which an approval prompt diffs them. The
 * `diff` package's line diff has no bound of its own: two different texts of 5,000 lines each
 * held the event loop for 12 s. Past this, each side's first lines are shown instead.
 */
const MAX_SNIPPET_DIFF_LINES = 200;
/** Lines of each side an approval prompt shows when it does not diff them. */
const SNIPPET_SIDE_LINES = 40;
/** Characters of a line an approval prompt shows; the rest is counted. */
const MAX_SNIPPET_LINE = 400;

/** `-`/`+` lines for an approval prompt: what the edit takes out and puts in, bounded in work and length. */
function snippetDiff(oldString: string, newString: string): string {
  const before = leadingLines(oldString, MAX_SNIPPET_DIFF_LINES);
  const after = leadingLines(newString, MAX_SNIPPET_DIFF_LINES);
  const mark = (marker: string, line: string) => `${marker}${cutLine(line, MAX_SNIPPET_LINE)}`;
  if (before.read === oldString.length && after.read === newString.length && before.lines.length + after.lines.length <= MAX_SNIPPET_DIFF_LINES) {
    const withNewline = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
    return diffLines(withNewline(oldString), withNewline(newString))
      .flatMap((part) => {
        const marker = part.added ? '+' : part.removed ? '-' : ' ';
        return part.value.replace(/\n$/, '').split('\n').map((line) => mark(marker, line));
      })
      .join('\n');
  }
  const side = (marker: string, text: string) => {
    const { lines, read } = leadingLines(text, SNIPPET_SIDE_LINES);
    const rest = text.length - read;
    return [...lines.map((line) => mark(marker, line)), ...(rest > 0 ? [`${marker}… and ${plural(rest, 'more character')}`] : [])];
  };
  return [...side('-', oldString), ...side('+', newString)].join('\n');
}

/** The first `count` lines of `text`, and how many of its characters they take: read no further than they end. */
function leadingLines(text: string, count: number): { lines: string[]; read: number } {
  const lines: string[] = [];
  let read = 0;
  while (lines.length < count && read < text.length) {
    const end = text.indexOf('\n', read);
    lines.push(text.slice(read, end === -1 ? text.length : end));
    read = end === -1 ? text.length : end + 1;
  }
  return { lines, read };
}

/** edit_file reads the whole file into memory: larger files are refused before anyone is asked. */
function refuseOversize(stats: Pick<Stats, 'size'>, shown: string): void {
  if (stats.size <= MAX_EDIT_FILE_BYTES) return;
  throw new ToolError(
    `\`${shown}\` is ${formatBytes(stats.size)}; edit_file changes files of up to ${formatBytes(MAX_EDIT_FILE_BYTES)}, so it was left as it is. Ask the user to change it, or use a shell command if you have one.`,
  );
}
