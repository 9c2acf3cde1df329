/**
 * The walk as a search engine: the search worker walks the tree with its walker thread, and
 * reads and matches each file as it comes. It is always the first engine of a disk-mode
 * search; given a hand-off rule, it stops where ripgrep would reach the rest sooner.
 */
import type { SearchChannel } from './channel.js';
import type { FoundMessage, SearchWalkJob } from './protocol.js';
import type { EngineEnd, SearchEngine } from './search-engine.js';

/** A walk job without its limit, which each turn sets. */
export type WalkJobBase = Omit<SearchWalkJob, 'limit'>;

/** The worker's own walk from the first file (see {@link SearchEngine} for the rules it keeps). */
export class WalkEngine implements SearchEngine {
  readonly name = 'node';
  readonly #channel: SearchChannel;
  readonly #job: WalkJobBase;

  /** `job.handOff`, when set, lets the walk stop for ripgrep where matches are sparse. */
  constructor(channel: SearchChannel, job: WalkJobBase) {
    this.#channel = channel;
    this.#job = job;
  }

  async search(limit: number, onFound: (found: FoundMessage) => void): Promise<EngineEnd> {
    return { type: 'searched', end: await this.#channel.walk({ ...this.#job, limit }, onFound) };
  }
}
