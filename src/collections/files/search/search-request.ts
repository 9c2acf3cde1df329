/**
 * What one search is asked, as this process runs it, and what it passed over: the shapes the
 * parts of a local search (`run-search.ts` and the paths it takes) fill in together.
 */
import type { InPlaceSearchRequest } from '../../../workspace/in-place.js';
import type { ResolvedReadToolsOptions } from '../read-options.js';
import type { FileVerdict, IncludePattern } from './protocol.js';

/**
 * A search as this process runs it: the request a workspace may run in place, plus what only
 * a local run uses (the compiled include glob, the live count).
 */
export interface SearchRequest extends InPlaceSearchRequest {
  readonly options: ResolvedReadToolsOptions;
  /** Matches paths relative to the folder searched (or file names, for a glob without `/`). */
  readonly include: ((fromStart: string) => boolean) | undefined;
  /** The same glob for the worker, in disk mode. */
  readonly includePattern?: IncludePattern | undefined;
  /** Told the counts so far after each file answered, for a live view (`search_files`' progress). */
  readonly onCount?: ((matchedFiles: number, searchedFiles: number) => void) | undefined;
  /** Who asked (the session): searches waiting for a worker are served by caller in turn. */
  readonly caller?: unknown;
}

/** The files a search passed over, filled in as it runs. */
export interface Skipped {
  binary: number;
  readonly notUtf8: string[];
  readonly tooLarge: string[];
  readonly unreadable: string[];
}

/** Counts a file passed over in `skipped`, under its verdict: binary files by number, the rest by path. */
export function countPassedOver(skipped: Skipped, verdict: Exclude<FileVerdict, 'text'>, path: string): void {
  if (verdict === 'binary') skipped.binary += 1;
  else if (verdict === 'not-utf8') skipped.notUtf8.push(path);
  else if (verdict === 'too-large') skipped.tooLarge.push(path);
  else skipped.unreadable.push(path);
}
