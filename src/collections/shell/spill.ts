import type { Writable } from 'node:stream';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { nanoid } from 'nanoid';
import type { Workspace } from '../../workspace/workspace.js';
import { pruneSpillFiles } from '../../workspace/kept-output.js';
import type { OutputPiece } from './text-stream.js';

/**
 * Bytes a spill file may have queued before the command is made to wait. A file stream's own
 * mark (16 KiB) is below one pipe read (64 KiB), so waiting on it paused the command after
 * every chunk: a third of a 1 GB flood's time went to those round trips. Queued writes are
 * written together (`writev`), so a deeper queue also means fewer, larger writes.
 */
const SPILL_QUEUE_BYTES = 1024 * 1024;
/**
 * Output is gathered into writes of at least this many characters (or whatever arrived within
 * {@link SPILL_FLUSH_MS}): a command that prints in small reads (`seq`, a test runner's lines)
 * would otherwise cost one file write per read.
 */
const SPILL_WRITE_CHARACTERS = 64 * 1024;
/** The longest the saved copy lags behind the output, for a reader of a command still running. */
const SPILL_FLUSH_MS = 100;

/**
 * A file in `.toolbelt/output/` that receives a command's whole output while it arrives, so
 * a reply cut in the middle can name where the rest is. Writes respect back-pressure: the
 * caller waits for {@link write} when the disk is slower than the command.
 */
export class SpillFile {
  /** The path relative to the workspace root, as the model should pass it to read_file. */
  readonly relative: string;
  readonly #stream: Writable;
  readonly #maxCharacters: number;
  #written = 0;
  /** Text not yet handed to the stream, and its length. */
  #gathered: OutputPiece[] = [];
  #gatheredLength = 0;
  #flushTimer: NodeJS.Timeout | undefined;
  #error: Error | undefined;
  /** True when the output went past the file's limit and the rest was not saved. */
  truncated = false;

  private constructor(relative: string, stream: Writable, maxCharacters: number) {
    this.relative = relative;
    this.#stream = stream;
    this.#maxCharacters = maxCharacters;
    stream.on('error', (error) => {
      this.#error ??= error;
    });
  }

  /**
   * Creates a new spill file, after pruning old ones.
   * @throws when the private folder cannot be used or the file cannot be created.
   */
  static async create(workspace: Workspace, options: { suffix?: string; maxCharacters: number }): Promise<SpillFile> {
    const directory = await workspace.privateDir('output');
    await pruneSpillFiles(directory, Date.now(), 'shell-', workspace);
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    const absolute = path.join(directory, `shell-${stamp}-${nanoid(8).replace(/[^A-Za-z0-9]/g, 'x')}${options.suffix ?? ''}.txt`);
    // Through the workspace: a remote one keeps the file in its box.
    const stream = await workspace.createFileStream(absolute);
    return new SpillFile(workspace.display(absolute), stream, options.maxCharacters);
  }

  /** Why writing failed, if it did. */
  get error(): Error | undefined {
    return this.#error;
  }

  /**
   * Appends text (or plain bytes, one ASCII character each); returns a promise, to wait for,
   * only when the file cannot take more yet.
   */
  write(text: OutputPiece): Promise<void> | undefined {
    if (this.#error !== undefined || this.truncated || text.length === 0) return undefined;
    if (this.#written + text.length > this.#maxCharacters) {
      const room = Math.max(0, this.#maxCharacters - this.#written);
      text = typeof text === 'string' ? text.slice(0, room) : text.subarray(0, room);
      this.truncated = true;
    }
    this.#written += text.length;
    this.#gathered.push(text);
    this.#gatheredLength += text.length;
    if (this.truncated) this.#gathered.push(`\n[… the output went on; this file stops at ${this.#maxCharacters.toLocaleString('en-US')} characters]\n`);
    else if (this.#gatheredLength < SPILL_WRITE_CHARACTERS) {
      this.#flushTimer ??= setTimeout(() => void this.#flush(), SPILL_FLUSH_MS).unref();
      return undefined;
    }
    return this.#flush();
  }

  /** Hands the gathered text to the stream; a promise when the stream is too far behind. */
  #flush(): Promise<void> | undefined {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (this.#gathered.length === 0 || this.#stream.destroyed) return undefined;
    const pieces = this.#gathered;
    const text = pieces.length === 1 ? pieces[0]! : pieces.every((piece) => typeof piece === 'string') ? pieces.join('') : Buffer.concat(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));
    this.#gathered = [];
    this.#gatheredLength = 0;
    const more = this.#stream.write(text);
    // `drain` follows only a write that returned false, so only then is there something to wait for.
    if (more || this.#error !== undefined || this.#stream.writableLength < SPILL_QUEUE_BYTES) return undefined;
    return new Promise<void>((resolve) => {
      const done = () => {
        this.#stream.off('drain', done);
        this.#stream.off('error', done);
        this.#stream.off('close', done);
        resolve();
      };
      this.#stream.on('drain', done);
      this.#stream.on('error', done);
      this.#stream.on('close', done);
    });
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    clearTimeout(this.#flushTimer);
    if (this.#stream.closed) return;
    await this.#flush();
    await new Promise<void>((resolve) => {
      this.#stream.end(() => resolve());
      this.#stream.once('error', () => resolve());
    });
  }
}
