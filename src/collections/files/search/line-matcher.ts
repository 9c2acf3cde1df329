/**
 * Matching text against the pattern in the search worker, one line at a time: a match never
 * spans lines, and the reply numbers them. Before each line the matcher writes where it is
 * into the progress memory the watchdog reads (`SearchChannel`), so a pattern stuck on one
 * line is caught and named with its line.
 */
import type { LiteralFinder } from './prefilter.js';
import type { FileVerdict, SearchWorkerInit } from './protocol.js';

/** What one file (or chunk) matched so far. */
export interface MutableResult {
  count: number;
  lines: [number, string][];
  verdict?: FileVerdict;
}

/** The current search's pattern and mode. */
export class LineMatcher {
  readonly #mode: SearchWorkerInit['mode'];
  readonly #maxMatchLineLength: number;
  readonly #progress: Int32Array;
  readonly #regex: RegExp;
  /** The whole-text test (see `canPrefilter`), when it may stand for the lines. */
  readonly #whole: RegExp | undefined;

  /** `progress` is the search's shared progress memory (see `SearchWorkerInit.progress`). */
  constructor(init: SearchWorkerInit, progress: Int32Array) {
    this.#mode = init.mode;
    this.#maxMatchLineLength = init.maxMatchLineLength;
    this.#progress = progress;
    this.#regex = new RegExp(init.source, init.flags);
    this.#whole = init.prefilter ? new RegExp(init.source, `${init.flags}m`) : undefined;
  }

  /** Matches the lines of `text`, numbered from `startLine`; progress slot 1 counts from `base`. */
  matchText(text: string, startLine: number, base: number, wanted: number, result: MutableResult): void {
    const progress = this.#progress;
    const regex = this.#regex;
    const mode = this.#mode;
    Atomics.store(progress, 1, -1);
    if (this.#whole !== undefined && !this.#whole.test(text)) return;
    // Line by line with indexOf rather than split: no array of every line, and mode `files` stops at the first match.
    for (let start = 0, index = 0; start < text.length; index += 1) {
      Atomics.store(progress, 1, base + index);
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
      start = end + 1;
      if (mode === 'lines' && result.lines.length < wanted) {
        const found = regex.exec(line);
        if (found === null) continue;
        result.count += 1;
        result.lines.push([startLine + index, this.#cut(line, found.index)]);
      } else if (regex.test(line)) {
        result.count += 1;
        if (mode === 'files') break;
      }
    }
  }

  /**
   * Matches the lines of `bytes` (a whole file, valid UTF-8) that hold a literal one of
   * `finders` finds, as {@link matchText} would match them all: every matching line holds one
   * (see `requiredText`), so only those lines are decoded and tested, in order, each once.
   * With `plain` (the pattern is its literals) a line holding one is a match, so modes `files`
   * and `counts` decode nothing. A common word ignoring case no longer costs a decode of each
   * file that holds it and a regular expression over every line of it.
   */
  matchCandidateLines(bytes: Buffer, finders: readonly LiteralFinder[], plain: boolean, wanted: number, result: MutableResult): void {
    const progress = this.#progress;
    const regex = this.#regex;
    const mode = this.#mode;
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    const next = finders.map((find) => find(bytes, 0));
    // Lines counted so far (for line numbers and the stuck-pattern report), up to `counted`.
    let line = 0;
    let counted = 0;
    for (;;) {
      let at = -1;
      for (const hit of next) if (hit !== -1 && (at === -1 || hit < at)) at = hit;
      if (at === -1) return;
      const start = bytes.lastIndexOf(0x0a, at) + 1;
      let end = bytes.indexOf(0x0a, at);
      if (end === -1) end = bytes.length;
      for (let newline = bytes.indexOf(0x0a, counted); newline !== -1 && newline < start; newline = bytes.indexOf(0x0a, newline + 1)) line += 1;
      counted = start;
      Atomics.store(progress, 1, line);
      const lineEnd = end > start && bytes[end - 1] === 0x0d ? end - 1 : end;
      if (mode === 'lines' && result.lines.length < wanted) {
        const text = bytes.toString('utf8', Math.max(start, bom), lineEnd);
        const found = regex.exec(text);
        if (found !== null) {
          result.count += 1;
          result.lines.push([line + 1, this.#cut(text, found.index)]);
        }
      } else if (plain || regex.test(bytes.toString('utf8', Math.max(start, bom), lineEnd))) {
        result.count += 1;
        if (mode === 'files') return;
      }
      // On to the next line: each literal's next hit past this one.
      for (let index = 0; index < next.length; index += 1) {
        if (next[index] !== -1 && next[index]! <= end) next[index] = end + 1 >= bytes.length ? -1 : finders[index]!(bytes, end + 1);
      }
    }
  }

  /** A matched line as the reply shows it: cut around the match when it is too long. */
  #cut(line: string, index: number): string {
    const maxMatchLineLength = this.#maxMatchLineLength;
    if (line.length <= maxMatchLineLength) return line;
    const before = Math.floor(maxMatchLineLength / 4);
    const start = Math.max(0, Math.min(index - before, line.length - maxMatchLineLength));
    const end = Math.min(line.length, start + maxMatchLineLength);
    const shown = (start > 0 ? '…' : '') + line.slice(start, end) + (end < line.length ? '…' : '');
    return `${shown} [line of ${line.length.toLocaleString('en-US')} characters cut around the match]`;
  }
}
