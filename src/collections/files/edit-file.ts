import type { Stats } from 'node:fs';
import { diffLines } from 'diff';
import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import { defineTool } from '../../tool.js';
import { summarizeEdit } from './text/edit-diff.js';
import { closestLines, replaceExactText, type NumberedLines } from './text/edit-text.js';
import { recordWrite } from './guard/read-state.js';
import { decodeTextFile, encodeTextFile } from './text/text-file.js';
import { formatBytes, plural } from './text/text.js';
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

/** Changed lines shown in an `edit_file` reply; more are counted, not shown. */
export const MAX_EDIT_REPLY_LINES = 60;
/** edit_file reads the whole file into memory; larger files are refused with a message. */
export const MAX_EDIT_FILE_BYTES = 10 * 1024 * 1024;

const editFileInput = z.object({
  path: z.string().describe(WRITE_FIELDS.path),
  old_string: z.string().describe(WRITE_FIELDS.oldString),
  new_string: z.string().describe(WRITE_FIELDS.newString),
  replace_all: z.boolean().optional().describe(WRITE_FIELDS.replaceAll),
});

/** `edit_file`: exact, literal text replacement in a file the session has read. */
export function createEditFileTool(context: WriteToolsContext) {
  const { workspace } = context;
  return defineTool({
    name: 'edit_file',
    description: EDIT_FILE_DESCRIPTION,
    kind: 'edit',
    output: editFileOutput,
    input: editFileInput,
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
        const decoded = await decodeTextFile(bytes, slicer);
        if ('problem' in decoded) {
          throw new ToolError(`\`${shown}\` is not UTF-8 text (${decoded.problem}), so edit_file cannot change it without damaging it. Leave it as it is or ask the user.`);
        }
        requireFreshRead(session, resolved.absolute, stats, shown, { toolName: 'edit_file', whole: false });

        const outcome = await replaceExactText(decoded.text, input.old_string, input.new_string, input.replace_all ?? false, slicer);
        if (outcome.type === 'ambiguous') {
          throw new ToolError(
            `old_string occurs ${plural(outcome.occurrences, 'time')} in \`${shown}\`, so edit_file did not know which one to change. Add surrounding lines to old_string until it occurs exactly once, or set replace_all to true to change every occurrence.`,
          );
        }
        if (outcome.type === 'not-found') throw new ToolError(await notFoundMessage(decoded.text, input.old_string, shown, context.maxLineLength, slicer));

        const newBytes = await encodeTextFile(outcome.text, decoded.bom, slicer);
        if (newBytes.equals(bytes)) {
          // Only line breaks differed, and they are written in the file's own ending.
          return { text: `\`${shown}\` already reads that way (old_string and new_string differ only in line endings); nothing was written.`, data: { path: shown, replacements: 0 } };
        }
        const backup = await backupBeforeChange(context, shown, bytes);
        await workspace.writeFileAtomic(resolved.absolute, newBytes);
        const after = await workspace.statOrUndefined(resolved.absolute);
        if (after !== undefined) recordWrite(session, resolved.absolute, after);
        if (backup !== undefined) recordChange(session, workspace, { type: 'write', path: shown, backup, after: await contentHashInSlices(newBytes, slicer) });

        const summary = await summarizeEdit(shown, decoded.text, outcome.text, outcome.spans, MAX_EDIT_REPLY_LINES, slicer);
        const header = `Edited \`${shown}\`: ${plural(outcome.replacements, 'replacement')}. The changed lines now read:`;
        return {
          text: `${header}\n${formatChangedLines(summary.shown, summary.changedLines, context.maxLineLength)}`,
          data: { path: shown, replacements: outcome.replacements, changedLines: summary.ranges.map(lineRange), diff: summary.diff, backup },
        };
      });
    },
  });
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

/** read_file's `N: ` line prefix, which models sometimes copy into old_string. */
const LINE_NUMBER_PREFIX = /^\s*\d+: /;

async function notFoundMessage(text: string, oldString: string, shown: string, maxLineLength: number, slicer: TimeSlicer): Promise<string> {
  const oldLines = oldString.split('\n').filter((line) => line.trim() !== '');
  if (oldLines.length > 0 && oldLines.every((line) => LINE_NUMBER_PREFIX.test(line))) {
    return `old_string was not found in \`${shown}\`: it starts its lines with line numbers (\`${oldLines[0]!.match(LINE_NUMBER_PREFIX)![0]}\`), which read_file shows but the file does not hold. Copy the text again without the "N: " prefixes.`;
  }
  const closest = await closestLines(text, oldString, slicer);
  if (closest === undefined) {
    return `old_string was not found in \`${shown}\`, and no lines there resemble it. Read the file again with read_file and copy the text exactly, including whitespace and indentation.`;
  }
  const where = closest.first === closest.last ? `The closest line is ${closest.first}` : `The closest lines are ${lineRange(closest)}`;
  return `old_string was not found in \`${shown}\`. ${where}:\n${formatNumberedLines(closest, maxLineLength)}\nRead the file again with read_file and copy the text exactly, including whitespace and indentation (without the "N: " prefixes).`;
}

/** `-`/`+` lines for an approval prompt: what the edit takes out and puts in. */
function snippetDiff(oldString: string, newString: string): string {
  const withNewline = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
  return diffLines(withNewline(oldString), withNewline(newString))
    .flatMap((part) => {
      const marker = part.added ? '+' : part.removed ? '-' : ' ';
      return part.value.replace(/\n$/, '').split('\n').map((line) => `${marker}${line}`);
    })
    .join('\n');
}

/** edit_file reads the whole file into memory: larger files are refused before anyone is asked. */
function refuseOversize(stats: Pick<Stats, 'size'>, shown: string): void {
  if (stats.size <= MAX_EDIT_FILE_BYTES) return;
  throw new ToolError(
    `\`${shown}\` is ${formatBytes(stats.size)}; edit_file changes files of up to ${formatBytes(MAX_EDIT_FILE_BYTES)}, so it was left as it is. Ask the user to change it, or use a shell command if you have one.`,
  );
}
