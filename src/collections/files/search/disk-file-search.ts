/**
 * One file searched in disk mode, in the search worker: read with synchronous calls
 * (`file-reader.ts`), passed over unless its bytes hold the pattern's required text
 * (`prefilter.ts`), then matched (`line-matcher.ts`), with the same verdicts as the main
 * thread's reading through a workspace. Files too large to read whole are read in chunks.
 */
import * as fs from 'node:fs';
import { countNewlines } from './count-newlines.js';
import { SearchFileReader } from './file-reader.js';
import type { LineMatcher, MutableResult } from './line-matcher.js';
import { compileRequiredText, literalFinders, mayHoldFolds, type LiteralFinder, type RequiredText } from './prefilter.js';
import { READING, type FileVerdict, type SearchWorkerInit } from './protocol.js';

/** This thread's read buffers, kept from search to search (made at the first file). */
let reader: SearchFileReader | undefined;

/** Lets go of the large read buffer between searches (see `SearchFileReader.releaseWholeBuffer`). */
export function releaseReadBuffers(): void {
  reader?.releaseWholeBuffer();
}

/** The current search's way of searching a file on disk. */
export class DiskFileSearch {
  readonly #mode: SearchWorkerInit['mode'];
  readonly #maxFileBytes: number;
  readonly #progress: Int32Array;
  readonly #matcher: LineMatcher;
  readonly #mayMatch: ((bytes: Buffer) => boolean) | undefined;
  readonly #required: RequiredText | undefined;
  /** Where the required literals are in a file's bytes: the lines that can match hold one. */
  readonly #finders: readonly LiteralFinder[];
  /**
   * True when the pattern is nothing but those literals, one or several as alternatives
   * (`Copyright`, `require\(`, `foo|bar`, `todo` ignoring case): finding one is a match. A
   * U+FEFF in one could be the byte order mark, which the match leaves out.
   */
  readonly #plainLiterals: boolean;

  constructor(init: SearchWorkerInit, progress: Int32Array, matcher: LineMatcher) {
    const { required } = init;
    this.#mode = init.mode;
    this.#maxFileBytes = init.maxFileBytes;
    this.#progress = progress;
    this.#matcher = matcher;
    this.#required = required;
    this.#mayMatch = required === undefined ? undefined : compileRequiredText(required);
    this.#finders = required === undefined ? [] : literalFinders(required);
    this.#plainLiterals = required !== undefined && required.plain && !required.literals.some((literal) => literal.includes('\ufeff'));
  }

  /** Reads, screens and matches the file at `absolute`, with at most `wanted` matching lines kept; the verdict is in the answer. */
  search(absolute: string, wanted: number): MutableResult {
    Atomics.store(this.#progress, 1, READING);
    reader ??= new SearchFileReader();
    const read = reader.read(absolute, this.#maxFileBytes);
    if (read.type === 'passed-over') return { count: 0, lines: [], verdict: read.verdict };
    const result: MutableResult = { count: 0, lines: [], verdict: 'text' };
    if (read.type === 'text') {
      // Most files of a search for a rare pattern end here: their bytes lack what every match needs.
      if (this.#mayMatch !== undefined && !this.#mayMatch(read.bytes)) return result;
      // Only the lines holding a literal can match: those are matched, the rest of the file is
      // never decoded (unless a Kelvin sign or long s may stand for a caseless `k` or `s`).
      if (this.#required !== undefined && !mayHoldFolds(this.#required, read.bytes)) {
        this.#matcher.matchCandidateLines(read.bytes, this.#finders, this.#plainLiterals, wanted, result);
        return result;
      }
      let text = read.bytes.toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.#matcher.matchText(text, 1, 0, wanted, result);
      return result;
    }
    return this.#searchLarge(read.fd, read.first, reader.chunkBuffer, wanted, result);
  }

  /** A file too large to read whole, in chunks: decoded as a stream, matched chunk by chunk, closed at the end. */
  #searchLarge(fd: number, first: Buffer, chunk: Buffer, wanted: number, result: MutableResult): MutableResult {
    const fail = (verdict: FileVerdict): MutableResult => ({ count: 0, lines: [], verdict });
    try {
      const decoder = new TextDecoder('utf-8', { fatal: true });
      let bytes = first;
      let position = 0;
      let line = 0;
      let carry = '';
      for (;;) {
        if (position > 0 && bytes.includes(0)) return fail('binary');
        const complete = bytes.length < chunk.length;
        let text: string;
        try {
          text = decoder.decode(bytes, { stream: !complete });
        } catch {
          return fail('not-utf8');
        }
        if (position === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        position += bytes.length;
        if (position > this.#maxFileBytes) return fail('too-large');
        const combined = carry + text;
        const done = this.#mode === 'files' && result.count > 0;
        if (complete) {
          if (!done) this.#matcher.matchText(combined, line + 1, line, wanted, result);
          return result;
        }
        const at = combined.lastIndexOf('\n');
        if (at === -1) carry = combined;
        else {
          const lines = combined.slice(0, at + 1);
          carry = combined.slice(at + 1);
          if (!done) this.#matcher.matchText(lines, line + 1, line, wanted, result);
          line += countNewlines(lines);
        }
        Atomics.store(this.#progress, 1, READING);
        bytes = chunk.subarray(0, readChunk(fd, chunk, position));
      }
    } catch {
      return fail('unreadable');
    } finally {
      fs.closeSync(fd);
    }
  }
}

/** Fills `chunk` from `position` on, as far as the file goes; the bytes read. */
function readChunk(fd: number, chunk: Buffer, position: number): number {
  let filled = 0;
  while (filled < chunk.length) {
    const read = fs.readSync(fd, chunk, filled, chunk.length - filled, position + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}
