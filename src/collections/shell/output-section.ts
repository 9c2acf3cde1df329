import type { Workspace } from '../../workspace/workspace.js';
import { SpillFile } from './spill.js';
import { CleanTextStream, HeadTailWindow, LineCapper, LineFilter, type OutputPiece } from './text-stream.js';

/** How one output section (merged output, or stdout or stderr alone) is collected. */
export interface OutputSectionOptions {
  readonly workspace: Workspace;
  /** Characters kept in memory for the reply: half as head, half as tail. */
  readonly windowCharacters: number;
  /** Once the clean output passes this many characters, all of it is spilled to a file. */
  readonly spillThreshold: number;
  readonly maxLineCharacters: number;
  readonly maxSpillCharacters: number;
  readonly filter?: RegExp;
  /** Appended to the spill file's name (`-stdout`). */
  readonly spillSuffix?: string;
  /** Receives the text that reaches the reply, as it arrives (background jobs). */
  readonly onText?: (text: string) => void;
}

/** What a section collected, ready to format. */
export interface CollectedOutput {
  readonly head: string;
  readonly tail: string;
  /** Characters of the (cleaned, capped, filtered) output left out between head and tail. */
  readonly omittedCharacters: number;
  readonly omittedLines: number;
  /** All characters the command printed, after escapes were removed. */
  readonly rawCharacters: number;
  readonly cutLines: number;
  readonly filter?: { readonly keptLines: number; readonly totalLines: number };
  /** Where the whole output was saved, relative to the workspace root. */
  readonly spillFile?: string;
  readonly spillTruncated?: boolean;
  /** Why the whole output could not be saved. */
  readonly spillError?: string;
}

interface StreamState {
  readonly clean: CleanTextStream;
  readonly capper: LineCapper;
  readonly filter?: LineFilter;
}

/**
 * Collects one section of a command's output in bounded memory: each stream is decoded and
 * cleaned, long lines are cut, an optional filter keeps matching lines, and only a head and
 * a tail window stay in memory. When the output outgrows the reply, everything (clean,
 * uncut, unfiltered) is streamed to a spill file as it arrives.
 */
export class OutputSection {
  readonly #options: OutputSectionOptions;
  readonly #streams = new Map<string, StreamState>();
  readonly #window: HeadTailWindow;
  #rawCharacters = 0;
  /** Clean output waiting for the spill decision; `undefined` once spilled or given up. */
  #pending: OutputPiece[] | undefined = [];
  #spill: SpillFile | undefined;
  #spillOpening: Promise<void> | undefined;
  #spillError: string | undefined;

  constructor(options: OutputSectionOptions) {
    this.#options = options;
    const half = Math.ceil(options.windowCharacters / 2);
    this.#window = new HeadTailWindow(half, half);
  }

  /**
   * Takes a chunk of `stream`'s bytes. Returns a promise only when the caller must wait
   * before reading more (the spill file is behind, or being opened): back-pressure without
   * a pause on every chunk.
   */
  write(stream: string, chunk: Uint8Array): Promise<void> | undefined {
    const state = this.#state(stream);
    // A plain chunk whose lines fit stays bytes all the way: into the saved copy, and into the
    // window, which makes text only of what it keeps. A filter or a listener needs the text.
    if (state.filter === undefined && this.#options.onText === undefined) {
      const plain = state.clean.takePlain(chunk);
      if (plain !== undefined) return state.capper.acceptsUncut(plain) ? this.#takePlain(state, plain) : this.#take(state, plain.toString('latin1'), false);
    }
    return this.#take(state, state.clean.write(chunk), false);
  }

  /** Ends every stream and closes the spill file. */
  async end(): Promise<void> {
    for (const state of this.#streams.values()) await this.#take(state, state.clean.end(), true);
    await this.#spillOpening;
    await this.#spill?.close();
  }

  result(): CollectedOutput {
    let cutLines = 0;
    let keptLines = 0;
    let totalLines = 0;
    for (const state of this.#streams.values()) {
      cutLines += state.capper.cutLines;
      keptLines += state.filter?.keptLines ?? 0;
      totalLines += state.filter?.totalLines ?? 0;
    }
    return {
      head: this.#window.head,
      tail: this.#window.tail,
      omittedCharacters: this.#window.omittedCharacters,
      omittedLines: this.#window.omittedLines,
      rawCharacters: this.#rawCharacters,
      cutLines,
      ...(this.#options.filter === undefined ? {} : { filter: { keptLines, totalLines } }),
      ...(this.#spill === undefined ? {} : { spillFile: this.#spill.relative, spillTruncated: this.#spill.truncated }),
      ...(this.#spillError === undefined && this.#spill?.error === undefined
        ? {}
        : { spillError: this.#spillError ?? this.#spill?.error?.message }),
    };
  }

  #state(stream: string): StreamState {
    let state = this.#streams.get(stream);
    if (state === undefined) {
      const { filter, maxLineCharacters } = this.#options;
      state = {
        clean: new CleanTextStream(),
        capper: new LineCapper(maxLineCharacters),
        ...(filter === undefined ? {} : { filter: new LineFilter(new RegExp(filter.source, filter.flags)) }),
      };
      this.#streams.set(stream, state);
    }
    return state;
  }

  #take(state: StreamState, text: string, final: boolean): Promise<void> | undefined {
    let wait: Promise<void> | undefined;
    if (text !== '') {
      this.#rawCharacters += text.length;
      if (this.#spill !== undefined) wait = this.#spill.write(text);
      else if (this.#pending !== undefined) this.#pending.push(text);
    }
    let capped = state.capper.write(text);
    if (final) capped += state.capper.end();
    let kept = capped;
    if (state.filter !== undefined) kept = state.filter.write(capped) + (final ? state.filter.end() : '');
    if (kept !== '') {
      this.#window.write(kept);
      this.#options.onText?.(kept);
    }
    return this.#afterTake(state, wait);
  }

  /** {@link #take} for plain bytes that need no cut: the same steps, on bytes. */
  #takePlain(state: StreamState, bytes: Buffer): Promise<void> | undefined {
    let wait: Promise<void> | undefined;
    if (bytes.length > 0) {
      this.#rawCharacters += bytes.length;
      if (this.#spill !== undefined) wait = this.#spill.write(bytes);
      else if (this.#pending !== undefined) this.#pending.push(bytes);
      this.#window.write(bytes);
    }
    return this.#afterTake(state, wait);
  }

  /** Opens the spill file once the output outgrows the reply; what the caller waits for, if anything. */
  #afterTake(state: StreamState, wait: Promise<void> | undefined): Promise<void> | undefined {
    const outgrown = this.#rawCharacters > this.#options.spillThreshold || state.capper.cutLines > 0;
    if (outgrown && this.#spillOpening === undefined) this.#spillOpening = this.#openSpill();
    // Waiting while the file opens bounds what piles up in memory meanwhile.
    if (this.#spillOpening !== undefined && this.#spill === undefined && this.#pending !== undefined) return this.#spillOpening;
    return wait;
  }

  async #openSpill(): Promise<void> {
    try {
      const spill = await SpillFile.create(this.#options.workspace, {
        maxCharacters: this.#options.maxSpillCharacters,
        ...(this.#options.spillSuffix === undefined ? {} : { suffix: this.#options.spillSuffix }),
      });
      const pending = this.#pending!;
      while (pending.length > 0) await spill.write(pending.shift()!);
      this.#spill = spill;
    } catch (error) {
      this.#spillError = error instanceof Error ? error.message : String(error);
    }
    this.#pending = undefined;
  }
}
