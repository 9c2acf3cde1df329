/**
 * How the main thread reads one file for a search of a workspace the worker may not read
 * (see `local-disk.ts`): opened through the workspace, its first bytes read ahead of its turn,
 * then decoded as UTF-8 in chunks and sent to the search worker, with the same verdicts the
 * worker gives in disk mode (binary, not UTF-8, too large, unreadable).
 */
import type { FileHandle } from 'node:fs/promises';
import { rethrowUnlessFileSystemError } from '../../../workspace/file-system-errors.js';
import type { Workspace } from '../../../workspace/workspace.js';
import { describeNonText } from '../text/text.js';
import type { FileState, SearchChannel } from './channel.js';
import { countNewlines } from './count-newlines.js';
import type { WalkedFile } from './walk.js';

/** Bytes of the first read of each file; most source files fit in it. */
const FIRST_READ_BYTES = 64 * 1024;
/** Bytes read at a time from a larger file. */
const CHUNK_BYTES = 256 * 1024;
/** Characters sent to the worker and not answered yet, before reading waits for it. */
const MAX_IN_FLIGHT_CHARACTERS = 8 * 1024 * 1024;

/** A file opened and its first chunk read, ahead of its turn. */
export type Loaded =
  | { readonly type: 'unreadable'; readonly path: string }
  | { readonly type: 'too-large'; readonly path: string }
  | {
      readonly type: 'open';
      readonly path: string;
      readonly handle: FileHandle;
      readonly first: Buffer;
      /** True when the first read already reached the end of the file. */
      readonly complete: boolean;
      /** Gives the first read's buffer back for the next file. */
      readonly release: () => void;
    };

/** What a file opened for a search turned out to be once read. */
export type Verdict = 'text' | 'binary' | 'not-utf8' | 'stopped';

/** The buffers one search reads into, kept from file to file. */
export class WorkspaceFileReader {
  readonly #workspace: Workspace;
  readonly #maxFileBytes: number;
  readonly #chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  /** Buffers for first reads, reused: a fresh 64 KB per file would keep the garbage collector busy. */
  readonly #spare: Buffer[] = [];

  constructor(workspace: Workspace, maxFileBytes: number) {
    this.#workspace = workspace;
    this.#maxFileBytes = maxFileBytes;
  }

  /** Opens `file` and reads its first chunk; a file system error makes it `unreadable`. */
  async load(file: WalkedFile): Promise<Loaded> {
    const shown = this.#workspace.display(file.absolute);
    let handle: FileHandle;
    try {
      handle = await this.#workspace.open(file.absolute);
    } catch (error) {
      rethrowUnlessFileSystemError(error);
      return { type: 'unreadable', path: shown };
    }
    try {
      // Most files fit in the first read: open, read, close, with no stat on the way.
      const first = this.#spare.pop() ?? Buffer.allocUnsafe(FIRST_READ_BYTES);
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        this.#spare.push(first);
      };
      const { bytesRead } = await handle.read(first, 0, first.length, 0);
      const complete = bytesRead < first.length;
      if (complete ? bytesRead > this.#maxFileBytes : (await handle.stat()).size > this.#maxFileBytes) {
        release();
        await handle.close();
        return { type: 'too-large', path: shown };
      }
      return { type: 'open', path: shown, handle, first: first.subarray(0, bytesRead), complete, release };
    } catch (error) {
      await handle.close().catch(() => undefined);
      rethrowUnlessFileSystemError(error);
      return { type: 'unreadable', path: shown };
    }
  }

  /**
   * Reads an opened file in chunks and sends its text to the worker, at most `wanted` matching
   * lines asked back; what the file turned out to be. Its handle is closed without waiting,
   * off the path from one file to the next: the promise goes on `closing`.
   */
  async send(loaded: Extract<Loaded, { type: 'open' }>, channel: SearchChannel, wanted: number, closing: Promise<unknown>[]): Promise<Verdict> {
    const file: FileState = { path: loaded.path, dropped: false, count: 0, lines: [] };
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const drop = (verdict: 'binary' | 'not-utf8'): 'binary' | 'not-utf8' => {
      file.dropped = true;
      return verdict;
    };
    try {
      let position = 0;
      const kind = describeNonText(loaded.first);
      if (kind !== undefined) return kind.startsWith('UTF-') ? 'not-utf8' : 'binary';
      let carry = '';
      let line = 1;
      let chunk: Buffer = loaded.first;
      let complete = loaded.complete;
      for (;;) {
        if (chunk.includes(0)) return drop('binary');
        let text: string;
        try {
          // The whole file in one read (the usual case) is decoded and sent in one piece.
          text = complete ? decoder.decode(chunk) : decoder.decode(chunk, { stream: true });
        } catch {
          return drop('not-utf8');
        }
        if (position === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        position += chunk.length;
        loaded.release();
        const combined = carry + text;
        if (complete) {
          channel.send(file, line, combined, wanted, true);
          return 'text';
        }
        const cut = combined.lastIndexOf('\n');
        if (cut === -1) carry = combined;
        else {
          const lines = combined.slice(0, cut + 1);
          carry = combined.slice(cut + 1);
          channel.send(file, line, lines, wanted, false);
          line += countNewlines(lines);
          await channel.waitForRoom(MAX_IN_FLIGHT_CHARACTERS);
          if (channel.failure !== undefined) return 'stopped';
        }
        const { bytesRead } = await loaded.handle.read(this.#chunk, 0, this.#chunk.length, position);
        chunk = this.#chunk.subarray(0, bytesRead);
        complete = bytesRead < this.#chunk.length;
      }
    } finally {
      loaded.release();
      closing.push(loaded.handle.close().catch(() => undefined));
    }
  }
}
