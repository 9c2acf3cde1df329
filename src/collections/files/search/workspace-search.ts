/**
 * A search of a workspace the worker may not read (see `local-disk.ts`): this thread walks
 * the tree through the workspace (`walk.ts`), opens a few files ahead, reads each in chunks
 * (`workspace-file-reader.ts`) and sends the text to the search worker, which matches it. The
 * order, limit and rules are those of the disk-mode engines (see `search-engine.ts`).
 */
import * as path from 'node:path';
import type { FileMatch } from '../../../workspace/in-place.js';
import type { FileState, SearchChannel } from './channel.js';
import type { FileVerdict } from './protocol.js';
import { countPassedOver, type SearchRequest, type Skipped } from './search-request.js';
import { walkFiles, type WalkedFile } from './walk.js';
import { walkOrder } from './walk-order.js';
import { WorkspaceFileReader, type Loaded } from './workspace-file-reader.js';

/** Files opened and read ahead while the worker matches earlier ones. */
const READ_AHEAD = 16;

/** One search through the workspace's methods; {@link commit} is its channel's commit callback. */
export class WorkspaceSearch {
  /** Limit units (files, or lines in mode `lines`) committed so far. */
  #committed = 0;
  #searched = 0;
  #passedOver = 0;
  readonly #request: SearchRequest;
  readonly #matches: FileMatch[];
  readonly #skipped: Skipped;
  readonly #reader: WorkspaceFileReader;
  readonly #files: AsyncIterator<WalkedFile>;
  /** Files taken from the walk in order and opening, oldest first. */
  readonly #ahead: { loaded: Promise<Loaded>; done: boolean }[] = [];
  /** Files closing; all are waited for before the search returns. */
  readonly #closing: Promise<unknown>[] = [];
  #exhausted = false;
  /** The file whose matches reached the limit (a path as shown), once one has. */
  #limitReachedAt: string | undefined;
  /** Files this search read and passed over (not the walk's unreadable folders), put in `skipped` by {@link dropPastLimit}. */
  readonly #passed: { readonly shown: string; readonly verdict: Exclude<FileVerdict, 'text'> }[] = [];

  /** Fills `matches` and `skipped` as the search runs. */
  constructor(request: SearchRequest, matches: FileMatch[], skipped: Skipped) {
    const { workspace, maxSearchFileBytes, skippedFolders } = request.options;
    this.#request = request;
    this.#matches = matches;
    this.#skipped = skipped;
    this.#reader = new WorkspaceFileReader(workspace, maxSearchFileBytes);
    const files = request.targetIsFile ? singleFile(request.target) : walkFiles(workspace, request.target, skippedFolders, { unreadable: skipped.unreadable }, request.signal);
    this.#files = files[Symbol.asyncIterator]();
  }

  /** Text files searched, final once the channel has drained. */
  get searched(): number {
    return this.#searched;
  }

  /** Files answered or passed over after the limit was reached, which were read ahead, not asked for. */
  get passedOver(): number {
    return this.#passedOver;
  }

  /** Takes a file whose last chunk the worker answered. */
  readonly commit = (file: FileState): void => {
    const { limit, mode } = this.#request;
    if (this.#committed >= limit) {
      this.#passedOver += 1;
      return;
    }
    this.#searched += 1;
    if (file.count > 0) {
      this.#matches.push({ path: file.path, count: file.count, lines: file.lines });
      this.#committed += mode === 'lines' ? file.lines.length : 1;
      if (this.#committed >= limit) this.#limitReachedAt = file.path;
    }
    this.#request.onCount?.(this.#matches.length, this.#searched);
  };

  /**
   * Sends the files to `channel` in walk order, opening up to {@link READ_AHEAD} ahead, until
   * the last, the limit or the search's end; true when the limit left files unsearched.
   */
  async search(channel: SearchChannel): Promise<boolean> {
    const { limit } = this.#request;
    for (;;) {
      while (!this.#exhausted && this.#ahead.length < READ_AHEAD) {
        const file = await this.#nextFile();
        if (file === undefined) this.#exhausted = true;
        else {
          const entry = { loaded: this.#reader.load(file), done: false };
          void entry.loaded.then(() => (entry.done = true));
          this.#ahead.push(entry);
        }
      }
      const entry = this.#ahead.shift();
      if (entry === undefined) return false;
      // Keep the worker busy while this thread waits for the disk.
      if (!entry.done) channel.flush();
      const loaded = await entry.loaded;
      if (channel.failure !== undefined || this.#committed >= limit) {
        if (loaded.type === 'open') {
          loaded.release();
          await loaded.handle.close();
        }
        return channel.failure === undefined;
      }
      if (loaded.type !== 'open') this.#passed.push({ shown: loaded.path, verdict: loaded.type });
      else {
        const verdict = await this.#reader.send(loaded, channel, limit - this.#committed, this.#closing);
        if (verdict === 'binary' || verdict === 'not-utf8') this.#passed.push({ shown: loaded.path, verdict });
      }
    }
  }

  /**
   * Once the worker has answered every file: puts the files passed over in `skipped`, but
   * those after the one that reached the limit only in {@link passedOver}. This thread reads
   * ahead of the worker's answers, so how far past the limit it got depends on the machine's
   * load; the walk in disk mode names only the files before it, and so does this.
   */
  dropPastLimit(): void {
    const cut = this.#limitReachedAt;
    for (const { shown, verdict } of this.#passed) {
      if (cut !== undefined && walkOrder(shown, cut) > 0) {
        // A file past the limit, like one answered after it: the limit left it out.
        this.#passedOver += 1;
        continue;
      }
      countPassedOver(this.#skipped, verdict, shown);
    }
  }

  /** Closes what was read ahead and not searched, ends the walk, and waits for every file to close. */
  async close(): Promise<void> {
    await Promise.all(this.#ahead.map((entry) => entry.loaded.then((loaded) => (loaded.type === 'open' ? loaded.handle.close() : undefined), () => undefined)));
    await this.#files.return?.(undefined);
    await Promise.all(this.#closing);
  }

  /** The next file to search, in walk order: links and files outside `include` are passed over. */
  async #nextFile(): Promise<WalkedFile | undefined> {
    const { include, targetIsFile } = this.#request;
    for (;;) {
      const step = await this.#files.next();
      if (step.done) return undefined;
      const file = step.value;
      if (file.isLink) continue;
      if (include !== undefined && !targetIsFile && !include(file.fromStart)) continue;
      return file;
    }
  }
}

async function* singleFile(absolute: string): AsyncGenerator<WalkedFile> {
  yield { absolute, fromStart: path.basename(absolute), isLink: false };
}
