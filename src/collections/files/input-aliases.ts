/**
 * @module The conversions behind the file tools' alias tables: another harness's line numbers
 * and counts, Claude Code's Grep modes and file types, and the refusals that name the exact
 * next call. The tables themselves stay beside their tools (`READ_FILE_ALIASES` in
 * `read-file.ts`, …), one line per name, so a person reads each in one go.
 */
import type { InputAlias } from '../../model-inputs/aliases.js';

/** A whole number sent as a number or as its digits; `undefined` for anything else. */
export function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : undefined;
}

/** A count of at least 1, or a `TypeError` whose text completes "send …" with the accepted form. */
export function positiveCount(value: unknown, accepted: string): number {
  const count = wholeNumber(value);
  if (count === undefined || count < 1) throw new TypeError(accepted);
  return count;
}

/**
 * The first line an `offset` asks for. Claude Code and Codex count it from 1 (Claude Code reads
 * 0 as 1 too), Gemini CLI and older OpenCode from 0: offset 10 is line 10 or line 11. Read as
 * line 10 it starts where either meant, and {@link limitAsEndLine} ends where either meant, so
 * the reply holds every line asked for and at most one more; its header names the lines shown.
 */
export function offsetAsStartLine(value: unknown): number {
  const offset = wholeNumber(value);
  if (offset === undefined || offset < 0) {
    throw new TypeError('`start_line` as a line number counted from 1 (read_file cannot count from the end: its first page gives the line count)');
  }
  return Math.max(1, offset);
}

/** The last line a `limit` (a count of lines) asks for, from `start_line` or `offset` as sent beside it. */
export function limitAsEndLine(value: unknown, input: Readonly<Record<string, unknown>>): number {
  const limit = positiveCount(value, '`end_line`, the last line to show (counted from 1), or leave `limit` out to read as much as fits');
  const startLine = wholeNumber(input['start_line']);
  // Our own start_line counts from 1: the range is exact.
  if (startLine !== undefined) return startLine + limit - 1;
  const offset = wholeNumber(input['offset']);
  if (offset === undefined || offset <= 0) return limit;
  // From 1, the range ends at offset + limit - 1; from 0, at offset + limit: show both.
  return offset + limit;
}

/** A `[first, last]` range (Anthropic's `view_range`) or `"first-last"` text, refused naming the two fields to send. */
export function lineRangeRefusal(name: string): InputAlias {
  return {
    to: 'start_line',
    convert: (value) => {
      const [first, last] = Array.isArray(value) ? value.map(wholeNumber) : typeof value === 'string' ? value.split(/\s*[-–:,]\s*/).map(wholeNumber) : [];
      if (first === undefined || first < 1) throw new TypeError(`\`start_line\` and \`end_line\` (1-based, inclusive) instead of \`${name}\`, such as start_line=10 end_line=20`);
      const end = last === undefined || last === -1 ? 'and no end_line (to read to the end)' : `end_line=${last}`;
      throw new TypeError(`start_line=${first} ${end} instead of \`${name}\` (read_file takes the range as two fields)`);
    },
  };
}

/**
 * One path where the tool takes one (`paths: ["a.ts"]`), or a refusal naming each call to make
 * for several.
 */
export function singlePath(tool: string): InputAlias {
  return {
    to: 'path',
    convert: (value) => {
      const paths = Array.isArray(value) ? value : [value];
      if (paths.length === 1 && typeof paths[0] === 'string') return paths[0];
      const shown = paths.slice(0, 5).map((path) => JSON.stringify(path)).join(', ');
      throw new TypeError(`one \`path\` per call: ${tool} takes one, so call it once for each of ${shown}${paths.length > 5 ? ', …' : ''}`);
    },
  };
}

/** A boolean, or its text. */
function booleanOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^\s*(true|false)\s*$/i.test(value)) return value.trim().toLowerCase() === 'true';
  return undefined;
}

/** Gemini CLI's and Cursor's `case_sensitive`, the other way round from `ignore_case`. */
export function caseSensitiveAsIgnoreCase(value: unknown): boolean {
  const caseSensitive = booleanOf(value);
  if (caseSensitive === undefined) throw new TypeError('`ignore_case: true` to ignore case (or leave it out to match case)');
  return !caseSensitive;
}

/** Claude Code's Grep `output_mode` values, as `mode` spells them. */
const OUTPUT_MODES: Readonly<Record<string, string>> = { content: 'lines', files_with_matches: 'files', count: 'counts' };

/** Claude Code's Grep `output_mode` as search_files' `mode`. */
export function modeOfOutputMode(value: unknown): string {
  const mode = typeof value === 'string' ? OUTPUT_MODES[value] : undefined;
  if (mode === undefined) throw new TypeError('`mode` "lines" (for output_mode "content"), "files" (for "files_with_matches") or "counts" (for "count")');
  return mode;
}

/**
 * Claude Code's Grep `-n` (line numbers, shown in its content mode only): search_files' `lines`
 * mode always shows them, so `-n` is read as the mode the call asks for anyway and changes
 * nothing (Claude Code's default mode lists files, as ours does).
 */
export function modeOfLineNumbers(_value: unknown, input: Readonly<Record<string, unknown>>): unknown {
  if (input['mode'] !== undefined) return input['mode'];
  return input['output_mode'] === undefined ? 'files' : modeOfOutputMode(input['output_mode']);
}

/**
 * Globs for ripgrep's common `type` names, to name in the refusal. They are not mapped:
 * ripgrep's own lists differ between versions (`py` gained `*.pyi`, `ts` gained `*.mts`).
 */
const TYPE_GLOBS: Readonly<Record<string, string>> = {
  py: '*.py', python: '*.py', js: '*.{js,jsx,mjs,cjs}', ts: '*.{ts,tsx}', typescript: '*.{ts,tsx}', rust: '*.rs', go: '*.go', java: '*.java',
  c: '*.{c,h}', cpp: '*.{cpp,cc,cxx,hpp,h}', cs: '*.cs', rb: '*.rb', ruby: '*.rb', php: '*.php', md: '*.md', markdown: '*.md',
  json: '*.json', yaml: '*.{yaml,yml}', html: '*.{html,htm}', css: '*.{css,scss}', sh: '*.sh', kotlin: '*.{kt,kts}', swift: '*.swift',
};

/** Claude Code's Grep `type` (a ripgrep file type): refused, naming the `include` glob to send. */
export function typeAsInclude(value: unknown): never {
  const glob = typeof value === 'string' && /^[\w+-]+$/.test(value) ? (TYPE_GLOBS[value] ?? `*.${value}`) : '*.py';
  throw new TypeError(`\`include: ${JSON.stringify(glob)}\` instead of \`type\` (search_files picks files by a glob of their names, not by ripgrep's file types)`);
}

/** Claude Code's Grep `-A`, `-B`, `-C` and `context`: search_files shows no context lines. */
export const NO_CONTEXT_LINES: InputAlias = {
  refuse:
    'You sent a count of context lines (`-A`, `-B`, `-C` or `context`), but search_files shows matching lines only: leave it out and search with mode "lines", then read the lines around a match with read_file, e.g. start_line=N-3 end_line=N+3 for a match on line N',
};
