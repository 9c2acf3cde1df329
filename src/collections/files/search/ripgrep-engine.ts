/**
 * ripgrep as a search engine, for the rest of a walk that handed off: ripgrep scans the tree
 * for the files that may match (a superset, see `ripgrep-pattern.ts`), and the search worker
 * reads those after the hand-off point, with the same rules and matcher as the walk. So the
 * answer is the same either way, and ripgrep's speed at walking and scanning a large tree is
 * what the model waits for.
 */
import * as path from 'node:path';
import type { SearchChannel } from './channel.js';
import type { FoundMessage } from './protocol.js';
import { locateRipgrep, ripgrepCandidates, ripgrepGlob } from './ripgrep.js';
import { ripgrepPattern } from './ripgrep-pattern.js';
import type { EngineEnd, SearchEngine } from './search-engine.js';
import type { SearchRequest } from './search-request.js';
import type { WalkJobBase } from './walk-engine.js';
import { walkOrder } from './walk-order.js';

/** How ripgrep would be asked: the program and the pattern in its syntax. */
export interface RipgrepPlan {
  readonly program: string;
  readonly pattern: string;
}

/** How ripgrep would be asked, or `undefined` when it is off, missing, or cannot express the pattern. */
export async function planRipgrep(request: SearchRequest): Promise<RipgrepPlan | undefined> {
  const pattern = ripgrepPattern(request.pattern.source, request.pattern.flags);
  if (pattern === undefined) return undefined;
  const program = await locateRipgrep(request.options.ripgrep);
  return program === undefined ? undefined : { program, pattern };
}

/** ripgrep's files after the walk's hand-off point (see {@link SearchEngine} for the rules it keeps). */
export class RipgrepEngine implements SearchEngine {
  readonly name = 'ripgrep';
  readonly #request: SearchRequest;
  readonly #channel: SearchChannel;
  readonly #job: WalkJobBase;
  readonly #plan: RipgrepPlan;
  readonly #after: string;

  /** Takes over after `after`, the last file the walk searched (a path as shown; `''`: none). */
  constructor(request: SearchRequest, channel: SearchChannel, job: WalkJobBase, plan: RipgrepPlan, after: string) {
    this.#request = request;
    this.#channel = channel;
    this.#job = job;
    this.#plan = plan;
    this.#after = after;
  }

  async search(limit: number, onFound: (found: FoundMessage) => void): Promise<EngineEnd> {
    const { options, signal } = this.#request;
    const answer = await ripgrepCandidates({
      program: this.#plan.program,
      start: this.#request.target,
      pattern: this.#plan.pattern,
      skipped: options.skippedFolders,
      glob: ripgrepGlob(this.#request.includeGlob),
      timeoutMs: options.searchTimeoutMs,
      signal,
    });
    if (answer.type === 'failed') return { type: 'unavailable' };
    if (answer.type !== 'candidates') {
      this.#channel.fail(answer.type === 'timeout' ? { type: 'timeout', afterMs: options.searchTimeoutMs } : { type: 'cancelled' });
      return { type: 'stopped' };
    }
    const end = await this.#channel.walk({ ...this.#job, limit, files: filesAfter(this.#request, answer.files, this.#after) }, onFound);
    return { type: 'searched', end, searched: answer.searched };
  }
}

/**
 * ripgrep's files (relative to the folder searched) that the walk had not reached when it
 * handed off after `lastSearched` (a path as shown), and that `include` takes, as the
 * worker's `[absolute, shown]` pairs in walk order.
 */
function filesAfter(request: SearchRequest, candidates: readonly string[], lastSearched: string): [string, string][] {
  const { workspace } = request.options;
  const startShown = workspace.display(request.target);
  const shownPrefix = startShown === '.' ? '' : `${startShown}/`;
  // `''`: handed off before the first file.
  const reached = lastSearched === '' ? undefined : lastSearched.slice(shownPrefix.length);
  const files: [string, string][] = [];
  for (const file of candidates) {
    if (reached !== undefined && walkOrder(file, reached) <= 0) continue;
    if (request.include === undefined || request.include(file)) files.push([path.join(request.target, file), shownPrefix + file]);
  }
  return files;
}
