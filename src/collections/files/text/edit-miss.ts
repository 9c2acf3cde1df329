/**
 * @module Why an edit's `old_string` was not found, when it is one of the usual reasons: line
 * numbers copied from a numbered view (read_file's `12: `, `cat -n`'s `    12\t`, Claude Code's
 * `    12→`), text escaped once more than needed (`\n` as two characters), curly quotes for
 * straight ones or the other way round, HTML entities for the characters they stand for, or
 * whitespace (indentation, tabs for spaces, trailing spaces).
 *
 * A miss is salvaged only when the cleaned text occurs exactly once and the cleanup cannot
 * change what the model meant in this file: `new_string` is cleaned the same way only where
 * the file shows the cleanup is lossless (no curly quotes anywhere in a file whose straight
 * ones the model sent curly, no entities in a file whose characters it sent as entities, line
 * numbers that name the lines found or a file that holds no such numbered lines). Whitespace
 * is never salvaged: in Python, YAML and Makefiles indentation is meaning, so the reading
 * names the lines and what differs, and the model copies them.
 */
import type { NumberedLines } from './edit-text.js';
import { countLineBreaks, lfViewOf } from './line-scan.js';
import { TimeSlicer } from '../../../time-slice.js';

/** A cleanup applied to `old_string` (and, where said, to `new_string`) before it was found. */
export type Cleanup =
  /** Line numbers taken off each line; `sample` is the first prefix as sent (`12: `). */
  | { readonly type: 'line-numbers'; readonly sample: string; readonly fromNewString: boolean }
  /** `\n`, `\t`, `\"` and `\\` read as the characters they escape. */
  | { readonly type: 'escapes'; readonly fromNewString: boolean }
  /** Quotes read as the file's: `file` says which kind the file has where they differed. */
  | { readonly type: 'quotes'; readonly file: 'straight' | 'curly'; readonly fromNewString: boolean }
  /** HTML entities read as their characters, or the other way round (`file: 'entities'`). */
  | { readonly type: 'entities'; readonly file: 'characters' | 'entities'; readonly fromNewString: boolean };

/** What {@link readMiss} found. */
export type MissReading =
  /** `oldString` occurs exactly once in the text; replace it with `newString`. */
  | { readonly type: 'salvaged'; readonly oldString: string; readonly newString: string; readonly cleanups: readonly Cleanup[] }
  /** The text is there once, but differs in a way that is not salvaged: `lines` as in the file, and what differs on each. */
  | { readonly type: 'differs'; readonly kind: 'whitespace' | 'quotes' | 'entities'; readonly lines: NumberedLines; readonly differences: readonly string[]; readonly cleanups: readonly Cleanup[] }
  /** The cleaned text occurs more than once. */
  | { readonly type: 'ambiguous'; readonly occurrences: number; readonly cleanups: readonly Cleanup[] }
  /** Line numbers were found, but taking them off is not certain in this file (it holds such lines itself). */
  | { readonly type: 'line-numbers-uncertain'; readonly sample: string; readonly lines: NumberedLines }
  /** No usual reason; `oldString` is the text to compare with the file's lines (cleaned, if a cleanup applied). */
  | { readonly type: 'unexplained'; readonly oldString: string; readonly cleanups: readonly Cleanup[] };

/** The prefixes numbered views put before each line. */
const PREFIX_FORMS = [
  { name: 'read_file', line: /^ *(\d+):(?: |$)/, inFile: /^ *\d+: \S/m },
  { name: 'cat -n', line: /^ *(\d+)(?:\t|$)/, inFile: /^ *\d+\t\S/m },
  { name: 'arrow', line: /^ *(\d+)→/, inFile: /^ *\d+→/m },
] as const;

type PrefixForm = (typeof PREFIX_FORMS)[number];

/** Text whose every line starts with a line number of one form, with the numbers taken off. */
export interface NumberedText {
  readonly form: PrefixForm;
  /** The first line's number, and its prefix as sent. */
  readonly first: number;
  readonly sample: string;
  readonly stripped: string;
}

/**
 * `text` with a line-number prefix on every line (and text after at least one), numbered one
 * after another when `consecutive`; the last line may be empty (text that ends with a break).
 */
export function numberedLines(text: string, consecutive: boolean): NumberedText | undefined {
  const lines = text.replaceAll('\r\n', '\n').split('\n');
  const last = lines.at(-1) === '' && lines.length > 1 ? lines.pop() : undefined;
  for (const form of PREFIX_FORMS) {
    const matches = lines.map((line) => form.line.exec(line));
    if (matches.some((match) => match === null)) continue;
    const numbers = matches.map((match) => Number(match![1]));
    if (consecutive && numbers.some((number, index) => number !== numbers[0]! + index)) continue;
    const stripped = lines.map((line, index) => line.slice(matches[index]![0].length));
    if (stripped.every((line) => line.trim() === '')) continue;
    return { form, first: numbers[0]!, sample: matches[0]![0], stripped: [...stripped, ...(last === undefined ? [] : [last])].join('\n') };
  }
  return undefined;
}

/** True when the file itself holds lines that look like `form`'s numbered lines (YAML keys such as `200: OK`). */
export function fileHasNumberedLines(text: string, form: PrefixForm): boolean {
  return form.inFile.test(text);
}

/** Escapes a text escaped once more than needed holds: `\n`, `\t`, `\r`, `\"`, `\'`, `\\`, `\/`. */
const ESCAPE = /\\(["'\\/nrt])/g;
const ESCAPED: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '"': '"', "'": "'", '\\': '\\', '/': '/' };

/** Text with `\n` or `\t` as two characters and no real line break or tab, read once more; else `undefined`. */
function unescapedOnce(text: string): string | undefined {
  if (/[\n\t]/.test(text) || !/\\[nt]/.test(text)) return undefined;
  return text.replace(ESCAPE, (_whole, character: string) => ESCAPED[character]!);
}

/** Matches of `pattern` in `text`, up to two (enough to tell one from several), and where the first starts. */
function findOnce(text: string, pattern: RegExp): { readonly count: number; readonly index: number; readonly found: string } {
  pattern.lastIndex = 0;
  const first = pattern.exec(text);
  if (first === null) return { count: 0, index: -1, found: '' };
  const second = pattern.exec(text);
  return { count: second === null ? 1 : 2, index: first.index, found: first[0] };
}

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The whole lines of `text` that hold `[index, index + length)`, numbered. */
async function linesAround(text: string, index: number, length: number, slicer: TimeSlicer): Promise<NumberedLines> {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const breakAfter = text.indexOf('\n', index + Math.max(0, length - 1));
  const end = breakAfter === -1 ? text.length : breakAfter;
  const first = 1 + (await countLineBreaks(text, 0, start, slicer));
  const lines = text.slice(start, end).split('\n');
  return { first, last: first + lines.length - 1, lines };
}

/**
 * Reads why `oldString` was not found in `original` (it must not occur there as it is), and
 * salvages the edit where that is certain. `newString` is cleaned along with it only where
 * the cleanup is lossless for this file; see the module comment.
 */
export async function readMiss(original: string, oldString: string, newString: string, slicer = new TimeSlicer()): Promise<MissReading> {
  const { text } = await lfViewOf(original, slicer);
  const cleaned = cleanText(oldString.replaceAll('\r\n', '\n'), newString);
  if (cleaned.type === 'uncertain-escapes') return { type: 'unexplained', oldString: cleaned.oldString, cleanups: [] };
  const { cleanups } = cleaned;
  if (cleanups.length > 0) {
    const index = text.indexOf(cleaned.oldString);
    if (index !== -1 && text.includes(cleaned.oldString, index + cleaned.oldString.length)) {
      return { type: 'ambiguous', occurrences: await countAll(text, cleaned.oldString, slicer), cleanups };
    }
    if (index !== -1) return salvagedAt(text, index, cleaned.oldString, cleaned.newString, cleaned, slicer);
  }
  for (const tolerant of [quotesTolerant, entitiesTolerant]) {
    const reading = await tolerant(text, cleaned.oldString, cleaned.newString, slicer);
    if (reading === undefined) continue;
    if (reading.type !== 'salvaged') return { ...reading, cleanups: [...cleanups, ...reading.cleanups] };
    const at = text.indexOf(reading.oldString);
    return salvagedAt(text, at, reading.oldString, reading.newString, { ...cleaned, cleanups: [...cleanups, ...reading.cleanups] }, slicer);
  }
  const whitespace = await whitespaceTolerant(text, cleaned.oldString, slicer);
  if (whitespace !== undefined) return { ...whitespace, cleanups };
  return { type: 'unexplained', oldString: cleaned.oldString, cleanups };
}

/** The exact cleanups (line numbers, escapes), applied to both strings as the module comment says. */
type CleanedText =
  | { readonly type: 'cleaned'; readonly oldString: string; readonly newString: string; readonly cleanups: readonly Cleanup[]; readonly numbered?: NumberedText }
  | { readonly type: 'uncertain-escapes'; readonly oldString: string };

function cleanText(oldString: string, newString: string): CleanedText {
  const cleanups: Cleanup[] = [];
  let wanted = oldString;
  let replacement = newString;
  const numbered = numberedLines(wanted, true);
  if (numbered !== undefined) {
    wanted = numbered.stripped;
    const numberedNew = numberedLines(replacement, false);
    if (numberedNew !== undefined) replacement = numberedNew.stripped;
    cleanups.push({ type: 'line-numbers', sample: numbered.sample, fromNewString: numberedNew !== undefined });
  }
  const unescaped = unescapedOnce(wanted);
  if (unescaped !== undefined) {
    // A new_string with real line breaks and escapes too says nothing certain about its escapes.
    if (/[\n\t]/.test(replacement) && /\\[nt]/.test(replacement)) return { type: 'uncertain-escapes', oldString: wanted };
    const unescapedNew = unescapedOnce(replacement);
    wanted = unescaped;
    if (unescapedNew !== undefined) replacement = unescapedNew;
    cleanups.push({ type: 'escapes', fromNewString: unescapedNew !== undefined });
  }
  return { type: 'cleaned', oldString: wanted, newString: replacement, cleanups, ...(numbered === undefined ? {} : { numbered }) };
}

/** A salvage found at `index`, unless the line numbers taken off are not certain there. */
async function salvagedAt(
  text: string,
  index: number,
  oldString: string,
  newString: string,
  cleaned: Extract<CleanedText, { type: 'cleaned' }>,
  slicer: TimeSlicer,
): Promise<MissReading> {
  const { numbered } = cleaned;
  if (numbered !== undefined && fileHasNumberedLines(text, numbered.form)) {
    const lines = await linesAround(text, index, oldString.length, slicer);
    // The numbers must name the lines found: the file's own numbered lines could be what was meant.
    if (lines.first !== numbered.first) return { type: 'line-numbers-uncertain', sample: numbered.sample, lines };
  }
  return { type: 'salvaged', oldString, newString, cleanups: cleaned.cleanups };
}

async function countAll(text: string, needle: string, slicer: TimeSlicer): Promise<number> {
  let count = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    count += 1;
    if (slicer.due()) await slicer.pause();
  }
  return count;
}

/** What a tolerant search found: a salvage (exact file text and cleaned new_string), or lines that differ. */
type TolerantReading =
  | Extract<MissReading, { type: 'salvaged' }>
  | Extract<MissReading, { type: 'differs' }>
  | undefined;

const SINGLE_QUOTES = "'‘’‛";
const DOUBLE_QUOTES = '"“”„';
const CURLY_QUOTE = /[‘’‛“”„]/;
const CURLY_QUOTES = /[‘’‛“”„]/g;

/** old_string found with either kind of quote; salvaged where the module comment allows. */
async function quotesTolerant(text: string, oldString: string, newString: string, slicer: TimeSlicer): Promise<TolerantReading> {
  if (!/['"‘’‛“”„]/.test(oldString)) return undefined;
  const source = [...oldString]
    .map((character) => (SINGLE_QUOTES.includes(character) ? `[${SINGLE_QUOTES}]` : DOUBLE_QUOTES.includes(character) ? `[${DOUBLE_QUOTES}]` : literal(character)))
    .join('');
  const match = findOnce(text, new RegExp(source, 'gu'));
  if (match.count !== 1) return undefined;
  const given = [...oldString];
  const found = [...match.found];
  const curlyForStraight = given.some((character, index) => CURLY_QUOTE.test(character) && !CURLY_QUOTE.test(found[index]!));
  const straightForCurly = given.some((character, index) => !CURLY_QUOTE.test(character) && CURLY_QUOTE.test(found[index]!));
  const otherCurly = given.some((character, index) => CURLY_QUOTE.test(character) && CURLY_QUOTE.test(found[index]!) && character !== found[index]);
  if (curlyForStraight && !straightForCurly && !otherCurly) {
    if (!CURLY_QUOTE.test(newString)) return { type: 'salvaged', oldString: match.found, newString, cleanups: [{ type: 'quotes', file: 'straight', fromNewString: false }] };
    // The file has no curly quote anywhere: those in new_string are the same slip.
    if (!CURLY_QUOTE.test(text)) {
      const straight = newString.replace(CURLY_QUOTES, (quote) => (SINGLE_QUOTES.includes(quote) ? "'" : '"'));
      return { type: 'salvaged', oldString: match.found, newString: straight, cleanups: [{ type: 'quotes', file: 'straight', fromNewString: true }] };
    }
  }
  if (straightForCurly && !curlyForStraight && !otherCurly && !/['"]/.test(newString)) {
    return { type: 'salvaged', oldString: match.found, newString, cleanups: [{ type: 'quotes', file: 'curly', fromNewString: false }] };
  }
  const lines = await linesAround(text, match.index, match.found.length, slicer);
  const differences = differingLines(oldString, match.found, lines.first, (line) => uniqueOf(line.match(/['"‘’‛“”„]/g)));
  return { type: 'differs', kind: 'quotes', lines, differences, cleanups: [] };
}

/** The entities HTML escaping writes, and the character each stands for. */
const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#34;': '"', '&#39;': "'", '&#x27;': "'", '&apos;': "'" };
const ENTITY = /&(?:amp|lt|gt|quot|apos|#34|#39|#x27);/;
const ENTITY_OR_CHARACTER = /&(?:amp|lt|gt|quot|apos|#34|#39|#x27);|[&<>"']/g;

function entityAlternatives(character: string): string {
  const spellings = [character, ...Object.keys(ENTITIES).filter((entity) => ENTITIES[entity] === character)];
  return `(?:${spellings.map(literal).join('|')})`;
}

/** old_string found with HTML entities read either way; salvaged where the module comment allows. */
async function entitiesTolerant(text: string, oldString: string, newString: string, slicer: TimeSlicer): Promise<TolerantReading> {
  const givenHasEntities = ENTITY.test(oldString);
  if (!givenHasEntities && !(/[&<>"']/.test(oldString) && ENTITY.test(text))) return undefined;
  let source = '';
  let last = 0;
  for (const match of oldString.matchAll(ENTITY_OR_CHARACTER)) {
    source += literal(oldString.slice(last, match.index)) + entityAlternatives(ENTITIES[match[0]] ?? match[0]);
    last = match.index + match[0].length;
  }
  const match = findOnce(text, new RegExp(source + literal(oldString.slice(last)), 'g'));
  if (match.count !== 1) return undefined;
  const foundHasEntities = ENTITY.test(match.found);
  if (givenHasEntities && !foundHasEntities) {
    if (!ENTITY.test(newString)) return { type: 'salvaged', oldString: match.found, newString, cleanups: [{ type: 'entities', file: 'characters', fromNewString: false }] };
    // The file holds no entity anywhere: those in new_string are the same slip.
    if (!ENTITY.test(text)) {
      const decoded = newString.replace(new RegExp(ENTITY.source, 'g'), (entity) => ENTITIES[entity]!);
      return { type: 'salvaged', oldString: match.found, newString: decoded, cleanups: [{ type: 'entities', file: 'characters', fromNewString: true }] };
    }
  }
  if (!givenHasEntities && foundHasEntities && !/[&<>"']/.test(newString)) {
    return { type: 'salvaged', oldString: match.found, newString, cleanups: [{ type: 'entities', file: 'entities', fromNewString: false }] };
  }
  const lines = await linesAround(text, match.index, match.found.length, slicer);
  const differences = differingLines(oldString, match.found, lines.first, (line) => uniqueOf(line.match(ENTITY_OR_CHARACTER)));
  return { type: 'differs', kind: 'entities', lines, differences, cleanups: [] };
}

function uniqueOf(found: readonly string[] | null): string {
  return [...new Set(found ?? [])].join(' ');
}

/** For each line of `given` that differs from `found`'s, what the file has where old_string has something else. */
function differingLines(given: string, found: string, firstLine: number, shown: (line: string) => string): string[] {
  const givenLines = given.split('\n');
  const foundLines = found.split('\n');
  return givenLines.flatMap((line, index) => {
    const fileLine = foundLines[index] ?? '';
    if (line === fileLine) return [];
    return [`line ${firstLine + index}: the file has ${shown(fileLine) || 'none'} where old_string has ${shown(line) || 'none'}`];
  });
}

/** old_string found with any whitespace at line starts, ends and between words: never salvaged, described. */
async function whitespaceTolerant(text: string, oldString: string, slicer: TimeSlicer): Promise<Extract<MissReading, { type: 'differs' }> | undefined> {
  const lines = oldString.split('\n');
  if (lines.every((line) => line.trim() === '')) return undefined;
  const words = (line: string) => line.trim().split(/[ \t]+/).map(literal).join('[ \\t]+');
  // The first line starts at its first word, so a match can start inside the file's line.
  const source = lines
    .map((line, index) => `${index === 0 ? '' : '[ \\t]*'}${words(line)}${index === lines.length - 1 ? '' : '[ \\t]*'}`)
    .join('\n');
  const match = findOnce(text, new RegExp(source, 'g'));
  if (match.count !== 1) return undefined;
  const found = await linesAround(text, match.index, match.found.length, slicer);
  const differences = lines.flatMap((line, index) => {
    const fileLine = found.lines[index] ?? '';
    const difference = whitespaceDifference(line, fileLine, index === 0, index === lines.length - 1);
    return difference === undefined ? [] : [`line ${found.first + index}: ${difference}`];
  });
  if (differences.length === 0) return undefined;
  return { type: 'differs', kind: 'whitespace', lines: found, differences, cleanups: [] };
}

/** How a line of old_string differs from the file's line in whitespace; the first may start and the last end inside the line. */
function whitespaceDifference(given: string, file: string, first: boolean, last: boolean): string | undefined {
  const indent = (line: string) => /^[ \t]*/.exec(line)![0];
  const trail = (line: string) => /[ \t]*$/.exec(line)![0];
  const parts: string[] = [];
  const givenIndent = indent(given);
  const fileIndent = indent(file);
  if (first ? !fileIndent.endsWith(givenIndent) && given.trim() !== '' : givenIndent !== fileIndent) {
    parts.push(`the file indents it with ${describeWhitespace(fileIndent)}, old_string with ${describeWhitespace(givenIndent)}`);
  }
  const givenTrail = trail(given);
  const fileTrail = trail(file);
  if (given.trim() !== '' && (last ? !fileTrail.startsWith(givenTrail) : givenTrail !== fileTrail)) {
    parts.push(`the file ends it with ${describeWhitespace(fileTrail)}, old_string with ${describeWhitespace(givenTrail)}`);
  }
  const between = innerDifference(given, file);
  if (between !== undefined) parts.push(between);
  return parts.length === 0 ? undefined : parts.join('; ');
}

/** The first place inside a line where the file's whitespace between two words differs from old_string's. */
function innerDifference(given: string, file: string): string | undefined {
  const runs = (line: string) => line.trim().match(/[ \t]+/g) ?? [];
  const givenRuns = runs(given);
  const fileRuns = runs(file);
  const index = givenRuns.findIndex((run, at) => run !== fileRuns[at]);
  if (index === -1) return undefined;
  const words = given.trim().split(/[ \t]+/);
  return `between \`${words[index]}\` and \`${words[index + 1]}\` the file has ${describeWhitespace(fileRuns[index] ?? '')}, old_string ${describeWhitespace(givenRuns[index]!)}`;
}

/** `4 spaces`, `1 tab`, `1 tab and 2 spaces`, `nothing`. */
export function describeWhitespace(whitespace: string): string {
  if (whitespace === '') return 'nothing';
  const runs = whitespace.match(/ +|\t+/g)!.map((run) => `${run.length} ${run[0] === '\t' ? (run.length === 1 ? 'tab' : 'tabs') : run.length === 1 ? 'space' : 'spaces'}`);
  return runs.join(' and ');
}
