/**
 * @module What edit_file does and says when `old_string` is not found as written: the edit to
 * make instead, when `text/edit-miss.ts` salvaged it (and the words that say which cleanup was
 * applied), or the refusal that names the lines and what differs, so the next call is exact.
 * Also the refusal of a `new_string` that carries line numbers its `old_string` does not.
 */
import { ToolError } from '../../errors/tool-error.js';
import type { TimeSlicer } from '../../time-slice.js';
import { closestLines, type NumberedLines } from './text/edit-text.js';
import { numberedLines, readMiss, type Cleanup, type MissReading } from './text/edit-miss.js';
import { countLineBreaks, type TextSource } from './text/line-scan.js';
import { formatNumberedLines, lineRange } from './guard/write-guards.js';
import { plural } from './text/text.js';

/** The edit to make after a miss was salvaged, and what to tell the model about it. */
export interface SalvagedEdit {
  readonly oldString: string;
  readonly newString: string;
  /** Which cleanup was applied, for the reply's first line. */
  readonly note: string;
}

/** Where the words of a reply go: the file as shown, and how long a line may be. */
interface Shown {
  readonly shown: string;
  readonly maxLineLength: number;
}

/**
 * The edit to make for an `old_string` that is not in `text` as written, or a {@link ToolError}
 * that says why and what to send.
 */
export async function salvageMiss(text: string, oldString: string, newString: string, where: Shown, slicer: TimeSlicer): Promise<SalvagedEdit> {
  const reading = await readMiss(text, oldString, newString, slicer);
  if (reading.type === 'salvaged') return { oldString: reading.oldString, newString: reading.newString, note: reading.cleanups.map(cleanupNote).join('; ') };
  throw new ToolError(await missMessage(text, reading, where, slicer));
}

function cleanupNote(cleanup: Cleanup): string {
  switch (cleanup.type) {
    case 'line-numbers':
      return `old_string's lines started with line numbers (\`${cleanup.sample}\`), which the file does not hold: they were taken off${cleanup.fromNewString ? ", and off new_string's lines too" : ''}`;
    case 'escapes':
      return `old_string held \`\\n\` as two characters (escaped once more than needed): it was read with real line breaks${cleanup.fromNewString ? ', and so was new_string' : ''}`;
    case 'quotes':
      return cleanup.file === 'straight'
        ? `old_string had curly quotes where the file has straight ones: it was matched with the file's${cleanup.fromNewString ? ", and new_string's curly quotes were written straight, since the file has no curly ones" : ''}`
        : "old_string had straight quotes where the file has curly ones: it was matched with the file's";
    default:
      return cleanup.file === 'characters'
        ? `old_string had HTML entities (such as \`&amp;\`) where the file has the characters: it was matched with the characters${cleanup.fromNewString ? ", and new_string's entities were written as characters, since the file holds none" : ''}`
        : "old_string had characters where the file has HTML entities (such as `&amp;`): it was matched with the file's entities";
  }
}

/** What the cleanups applied before a further miss were, for a refusal: "with its line numbers taken off, ". */
function triedNote(cleanups: readonly Cleanup[]): string {
  const tried = cleanups.map((cleanup) => (cleanup.type === 'line-numbers' ? `its line numbers (\`${cleanup.sample}\`) taken off` : cleanup.type === 'escapes' ? 'its `\\n` read as line breaks' : 'its quotes read as the file has them'));
  return tried.length === 0 ? '' : ` (even with ${tried.join(' and ')})`;
}

const WHAT_DIFFERS = { whitespace: 'its whitespace differs', quotes: 'its quotes differ', entities: 'its HTML entities differ' } as const;

async function missMessage(text: string, reading: Exclude<MissReading, { type: 'salvaged' }>, { shown, maxLineLength }: Shown, slicer: TimeSlicer): Promise<string> {
  const where = (lines: NumberedLines) => (lines.first === lines.last ? `line ${lines.first}` : `lines ${lineRange(lines)}`);
  switch (reading.type) {
    case 'differs': {
      const never = reading.kind === 'whitespace' ? ', and edit_file never re-indents for you (in Python, YAML and Makefiles indentation is meaning)' : '';
      return (
        `old_string was not found in \`${shown}\` as written${triedNote(reading.cleanups)}: the text is at ${where(reading.lines)}, but ${WHAT_DIFFERS[reading.kind]}${never}:\n` +
        `${reading.differences.map((difference) => `- ${difference}`).join('\n')}\nThe file's ${reading.lines.first === reading.lines.last ? 'line reads' : 'lines read'}:\n${formatNumberedLines(reading.lines, maxLineLength)}\n` +
        `Copy ${reading.lines.first === reading.lines.last ? 'it' : 'them'} exactly (without the "N: " prefixes) into old_string, write new_string the same way, and call edit_file again.`
      );
    }
    case 'ambiguous':
      return `old_string was not found in \`${shown}\` as written${triedNote(reading.cleanups)}, and so cleaned it occurs ${plural(reading.occurrences, 'time')}. Send old_string without line numbers or escapes, with surrounding lines added until it occurs exactly once.`;
    case 'line-numbers-uncertain':
      return (
        `old_string was not found in \`${shown}\`: its lines start with what look like line numbers (\`${reading.sample}\`), but the file holds lines like that itself, and the numbers do not name the lines where the rest is (${where(reading.lines)}), so it was not changed. ` +
        `If they are line numbers, copy the text again without them:\n${formatNumberedLines(reading.lines, maxLineLength)}`
      );
    default:
      return closestLinesMessage(text, reading.oldString, reading.cleanups, { shown, maxLineLength }, slicer);
  }
}

async function closestLinesMessage(text: string, oldString: string, cleanups: readonly Cleanup[], { shown, maxLineLength }: Shown, slicer: TimeSlicer): Promise<string> {
  const numbers = cleanups.find((cleanup) => cleanup.type === 'line-numbers');
  const closest = await closestLines(text, oldString, slicer);
  if (numbers !== undefined && closest === undefined) {
    return `old_string was not found in \`${shown}\`: it starts its lines with line numbers (\`${numbers.sample}\`), which read_file shows but the file does not hold, and without them it is not there either. Read the file again with read_file and copy the text exactly, without the "N: " prefixes.`;
  }
  if (closest === undefined) {
    return `old_string was not found in \`${shown}\`${triedNote(cleanups)}, and no lines there resemble it. Read the file again with read_file and copy the text exactly, including whitespace and indentation.`;
  }
  const lines = closest.first === closest.last ? `The closest line is ${closest.first}` : `The closest lines are ${lineRange(closest)}`;
  return `old_string was not found in \`${shown}\`${triedNote(cleanups)}. ${lines}:\n${formatNumberedLines(closest, maxLineLength)}\nRead the file again with read_file and copy the text exactly, including whitespace and indentation (without the "N: " prefixes).`;
}

/**
 * Refuses a `new_string` whose every line starts with a line number, numbered in order from
 * the line the edit is on, when `old_string`'s lines do not: copied from read_file's view,
 * they would be written into the file. Numbers that start elsewhere are taken as the text
 * meant (a list, YAML's `200: ok`), so such text can always be written.
 */
export async function refuseNumberedNewString(text: TextSource, edit: { readonly oldString: string; readonly newString: string }, matchStart: number, slicer: TimeSlicer): Promise<void> {
  const numbered = numberedLines(edit.newString, true);
  if (numbered === undefined || numberedLines(edit.oldString, false) !== undefined) return;
  if (1 + (await countLineBreaks(text, 0, matchStart, slicer)) !== numbered.first) return;
  throw new ToolError(
    `new_string starts its lines with line numbers (\`${numbered.sample}\`), as read_file shows them, but old_string does not: they would be written into the file, so nothing was changed. Send new_string without the "N: " prefixes, such as:\n${cutText(numbered.stripped)}`,
  );
}

/** Text shown in a reply, at most 2,000 characters. */
function cutText(text: string): string {
  return text.length <= 2_000 ? text : `${text.slice(0, 2_000)}… [${(text.length - 2_000).toLocaleString('en-US')} more characters]`;
}
