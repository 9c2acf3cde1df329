/**
 * A search in disk mode (see `local-disk.ts`): the search worker walks, reads and matches,
 * and where matches turn out sparse the walk hands the rest to ripgrep. This module decides
 * when a hand-off may pay, runs the engines in turn (`search-engine.ts`) and adds up what the
 * worker reports.
 */
import type { FileMatch, SearchOutcome } from '../../../workspace/in-place.js';
import type { SearchChannel } from './channel.js';
import type { RequiredText } from './prefilter.js';
import type { FoundMessage } from './protocol.js';
import { planRipgrep, RipgrepEngine } from './ripgrep-engine.js';
import type { EngineEnd } from './search-engine.js';
import { countPassedOver, type SearchRequest, type Skipped } from './search-request.js';
import { WalkEngine, type WalkJobBase } from './walk-engine.js';

/**
 * A walk that has searched `ripgrepAfterFiles` text files hands the rest to ripgrep when
 * reaching the limit at the rate of matches seen so far would mean searching more than this
 * many times as many files: then ripgrep's scan of the whole tree is the faster way to the
 * rest. A common pattern reaches the limit in the walk's first files and never starts
 * ripgrep; a rare one pays for the first few hundred files before it does.
 *
 * A walk whose folders are all listed, with fewer files than that left to search, finishes
 * them itself instead: a ripgrep scan costs a process start and a pass over the whole tree,
 * more than the walk's last files (a 1,000-file tree: 32 ms with the hand-off, 20 ms
 * without, measured side by side).
 *
 * A pattern whose required text the byte prefilter looks for about as fast as ripgrep (see
 * {@link prefilterIsSelective}) is never handed off (unless `ripgrepAfterFiles` is 0): with
 * the prefilter a file costs the walk nearly what it costs ripgrep, and a hand-off guessed
 * from the first files can cost far more than it saves. Measured side by side
 * on the 20,000-file bench tree: `TODO` with `limit: 1000` 346 ms handed off against 94 ms
 * walked (a `docs/` folder without it came first), a rare regex with a literal 291 against
 * 205 ms; on this repository's `node_modules`, `require\(` with `limit: 1000` 555 against
 * 147 ms, a rare literal 1.00 against 0.87 times `rg -l`.
 */
const PROJECTED_FILES_PER_PROBE_FILE = 10;

/** Characters a required literal needs before the byte prefilter rules out most files: a lone `x` rules out almost none. */
const SELECTIVE_LITERAL_CHARACTERS = 3;

/** What a disk-mode search did, besides the matches and files passed over it filled in. */
export interface DiskSearchEnd {
  /** True when the limit left files unsearched. */
  readonly stoppedByLimit: boolean;
  readonly engine: SearchOutcome['engine'];
  readonly searched: number;
}

/** `ripgrepAfterFiles: 0`: ripgrep is asked before the walk searches anything. */
const HANDED_OFF_AT_ONCE: EngineEnd = { type: 'searched', end: { stoppedByLimit: false, handedOffAfter: '' } };

/**
 * Runs a disk-mode search to its end: the walk, then ripgrep for the rest where the walk
 * handed off, then the whole walk again should ripgrep fail. Fills `matches` and `skipped`.
 */
export async function searchOnDisk(request: SearchRequest, channel: SearchChannel, matches: FileMatch[], skipped: Skipped, required: RequiredText | undefined): Promise<DiskSearchEnd> {
  const { options, limit } = request;
  const tally = new FoundTally(request, matches, skipped);
  const job: WalkJobBase = {
    type: 'walk',
    start: request.target,
    startIsFile: request.targetIsFile,
    root: options.workspace.root,
    skipped: options.skippedFolders,
    include: request.includePattern,
  };
  const probeFiles = options.ripgrepAfterFiles;
  const plan = request.targetIsFile || (probeFiles > 0 && prefilterIsSelective(required)) ? undefined : await planRipgrep(request);
  const handOff = { probeFiles, maxProjectedFiles: PROJECTED_FILES_PER_PROBE_FILE * probeFiles, minFilesLeft: PROJECTED_FILES_PER_PROBE_FILE * probeFiles };
  const walked = plan !== undefined && probeFiles === 0 ? HANDED_OFF_AT_ONCE : await new WalkEngine(channel, plan === undefined ? job : { ...job, handOff }).search(limit, tally.onFound);
  const handedOffAfter = walked.type === 'searched' ? walked.end?.handedOffAfter : undefined;
  if (plan === undefined || handedOffAfter === undefined) return { stoppedByLimit: leftFilesToLimit(walked), engine: 'node', searched: tally.searched };
  const ripgrep = new RipgrepEngine(request, channel, job, plan, handedOffAfter);
  const rest = await ripgrep.search(limit - tally.committedUnits, tally.onFound);
  if (rest.type === 'stopped') return { stoppedByLimit: false, engine: 'node', searched: tally.searched };
  if (rest.type === 'unavailable') {
    // ripgrep could not do it: the walk again, whole, as if it had not been asked.
    tally.forget();
    const again = await new WalkEngine(channel, job).search(limit, tally.onFound);
    return { stoppedByLimit: leftFilesToLimit(again), engine: 'node', searched: tally.searched };
  }
  return { stoppedByLimit: leftFilesToLimit(rest), engine: ripgrep.name, searched: rest.searched ?? tally.searched };
}

function leftFilesToLimit(end: EngineEnd): boolean {
  return end.type === 'searched' && end.end?.stoppedByLimit === true;
}

/** Required literals past which the walk's prefilter, a pass over each file per literal, falls behind ripgrep's one pass for them all. */
const MAX_SELECTIVE_LITERALS = 2;

/**
 * True when the byte prefilter passes over a file nearly as fast as ripgrep's scan would, so
 * the walk keeps the search: at most {@link MAX_SELECTIVE_LITERALS} literals of
 * {@link SELECTIVE_LITERAL_CHARACTERS} or more, exact (found with `indexOf`) or caseless (the
 * WebAssembly scan of `literal-scan.ts`).
 *
 * Why such a pattern is not handed off where the first files hold few matches: ripgrep then
 * scans the whole tree, while the walk stops at the limit, and where later folders hold many
 * matches that costs several times as long (`TODO` above: 346 ms handed off against 94 ms).
 * Where the pattern is rare throughout, handing off at once is faster, by less: on the
 * 52,000-file `node_modules` of issue 30, `[xq]u{2}x\d{3}` took 340–348 ms handed off against
 * 396–474 ms walked, `quuxNever|zzyzxMarker` in lines mode 331–364 against 463–535 ms (stop 43,
 * test/bench/README.md). A caseless common word, the last time both were measured, was 1.36×
 * `rg -il` handed off against 0.90× walked (load 8–13).
 */
function prefilterIsSelective(required: RequiredText | undefined): boolean {
  return required !== undefined && required.literals.length <= MAX_SELECTIVE_LITERALS && required.literals.every((literal) => literal.length >= SELECTIVE_LITERAL_CHARACTERS);
}

/** Adds up the worker's messages, whichever engine's turn they come from. */
class FoundTally {
  searched = 0;
  /** Limit units (files, or lines in mode `lines`) the worker has committed so far. */
  committedUnits = 0;
  readonly #request: SearchRequest;
  readonly #matches: FileMatch[];
  readonly #skipped: Skipped;

  constructor(request: SearchRequest, matches: FileMatch[], skipped: Skipped) {
    this.#request = request;
    this.#matches = matches;
    this.#skipped = skipped;
  }

  readonly onFound = (found: FoundMessage): void => {
    const skipped = this.#skipped;
    this.searched += found.searched;
    skipped.unreadable.push(...found.unreadable);
    for (const file of found.files) {
      if (file.verdict === 'text') {
        this.#matches.push({ path: file.path, count: file.count, lines: file.lines });
        this.committedUnits += this.#request.mode === 'lines' ? file.lines.length : 1;
      } else countPassedOver(skipped, file.verdict, file.path);
    }
    this.#request.onCount?.(this.#matches.length, this.searched);
  };

  /** Drops everything reported so far, for a search that starts over. */
  forget(): void {
    this.#matches.length = 0;
    this.#skipped.binary = 0;
    for (const list of [this.#skipped.notUtf8, this.#skipped.tooLarge, this.#skipped.unreadable]) list.length = 0;
    this.searched = 0;
  }
}
