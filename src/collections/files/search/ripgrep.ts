/**
 * Asking ripgrep which files under a folder may match: finding the program, and the command
 * line that makes it walk as the search worker walks (hidden files searched, ignore files and
 * config files not read, links not followed, skipped folders not entered). ripgrep never
 * decides a result; see `ripgrep-hand-off.ts` for how its answer is used.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import * as path from 'node:path';
import type { RipgrepAnswer } from './ripgrep-host-protocol.js';
import { runRipgrep } from './ripgrep-process.js';

/**
 * A glob ripgrep can use to pass over files, when `include` is as simple as `*.ts`: ripgrep
 * reads such a glob as picomatch does. Anything else is left to the worker's own check.
 */
export function ripgrepGlob(include: string | undefined): string | undefined {
  return include !== undefined && /^\*(\.[A-Za-z0-9_-]+)+$/.test(include) ? include : undefined;
}

const located = new Map<string, Promise<string | undefined>>();

/**
 * The ripgrep program to use: `setting` when it is a path, `rg` found on PATH when it is
 * `true`, none when `false`. A lookup on PATH is made once per PATH value.
 */
export function locateRipgrep(setting: string | boolean): Promise<string | undefined> {
  if (setting === false) return Promise.resolve(undefined);
  if (typeof setting === 'string') return Promise.resolve(setting);
  const searchPath = process.env.PATH ?? '';
  let found = located.get(searchPath);
  if (found === undefined) {
    found = findOnPath('rg', searchPath);
    located.set(searchPath, found);
  }
  return found;
}

async function findOnPath(program: string, searchPath: string): Promise<string | undefined> {
  for (const folder of searchPath.split(path.delimiter)) {
    if (folder === '' || !path.isAbsolute(folder)) continue;
    const candidate = path.join(folder, program);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; try the next folder.
    }
  }
  return undefined;
}

/** What ripgrep was asked. */
export interface RipgrepQuery {
  readonly program: string;
  /** Canonical absolute folder to search; ripgrep runs there. */
  readonly start: string;
  /** From `ripgrepPattern`. */
  readonly pattern: string;
  /** Folder names not entered below the start. */
  readonly skipped: readonly string[];
  /** A glob ripgrep may use to pass over files (a superset of `include`), when there is one. */
  readonly glob: string | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

/** Bytes of file names ripgrep may print before it is stopped: far more than any tree this runs on. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/**
 * Runs ripgrep (through the ripgrep host, see `ripgrep-process.ts`) for the files under
 * `start` that may match: hidden files included, ignore files and config files not read,
 * links never followed (ripgrep does not follow them unless told to), skipped folders not
 * entered, and binary files passed over as it finds them.
 */
export async function ripgrepCandidates(query: RipgrepQuery): Promise<RipgrepAnswer> {
  const args = [
    '--no-config',
    '--no-ignore',
    '--hidden',
    '--no-messages',
    '--files-with-matches',
    '--null',
    '--stats',
    // The last glob that matches wins: skipped folders last, so `*.ts` cannot bring back a folder named `x.ts`.
    ...(query.glob === undefined ? [] : ['--glob', query.glob]),
    ...query.skipped.flatMap((folder) => ['--glob', `!${escapeGlob(folder)}/`]),
    '--regexp',
    query.pattern,
    '--',
    '.',
  ];
  return runRipgrep({ program: query.program, args, cwd: query.start, timeoutMs: query.timeoutMs, maxBytes: MAX_OUTPUT_BYTES }, query.signal);
}

/** A folder name as a literal in a ripgrep glob. */
function escapeGlob(name: string): string {
  return name.replace(/[\\*?[\]{}!]/g, (character) => `\\${character}`);
}
