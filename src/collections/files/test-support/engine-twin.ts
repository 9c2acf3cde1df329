/**
 * The second engine beside a test's search: when {@link SEARCH_ENGINE_VARIABLE} is `both`, the
 * read kit runs every `search_files` call of a suite again with ripgrep picking the files from
 * the first one, and fails the call unless both answers are the same bytes, apart from what
 * `search-engine.ts` lets an engine say differently.
 */
import * as os from 'node:os';
import type { RunToolResult } from '../../../run-tool.js';
import { runRipgrep } from '../search/ripgrep-process.js';

/** Set to `both` to compare every search of the kits' suites with ripgrep's (`test/search-engines/`). */
export const SEARCH_ENGINE_VARIABLE = 'AGENT_TOOLBELT_TEST_SEARCH_ENGINE';

/** True when this test process's kits run each search on both engines. */
export function twinEngines(): boolean {
  return process.env[SEARCH_ENGINE_VARIABLE] === 'both';
}

/** Searches compared so far in this process, and of them those ripgrep picked files for. */
export const twinRuns = { compared: 0, byRipgrep: 0 };

/**
 * Throws unless `ripgrep`'s answer is `walked`'s: the same text once the two things an engine
 * may say differently are taken out (the files searched, which counts ripgrep's files, and the
 * files passed over, of which ripgrep names only those that may match: never a binary one, and
 * every one it names the walk names too). A walk stopped by a time limit, a runaway
 * pattern or a cancel is not compared: ripgrep rules out files without running the pattern, so
 * it may never reach the line that stopped the walk.
 */
export function expectSameAnswer(input: Record<string, unknown>, walked: RunToolResult, ripgrep: RunToolResult): void {
  if (stoppedByTime(walked)) return;
  twinRuns.compared += 1;
  if ((ripgrep.data as { engine?: string } | undefined)?.engine === 'ripgrep') twinRuns.byRipgrep += 1;
  const walkedPassedOver = passedOver(walked.text);
  const same =
    walked.isError === ripgrep.isError && comparable(walked.text) === comparable(ripgrep.text) && passedOver(ripgrep.text).every((file) => walkedPassedOver.includes(file));
  if (!same) {
    throw new Error(`search_files ${JSON.stringify(input)} answered differently with ripgrep:\n--- walked\n${walked.text}\n--- ripgrep\n${ripgrep.text}`);
  }
}

function stoppedByTime(result: RunToolResult): boolean {
  return /The search stopped after|ran for more than|was cancelled/.test(result.text);
}

/** The reply without its files-searched count and its files passed over. */
function comparable(text: string): string {
  return text
    .replace(/\(\d+ files? searched/g, '(N files searched')
    .split('\n')
    .filter((line) => !line.startsWith('Not searched:'))
    .join('\n');
}

/** The files the reply names as passed over (not UTF-8, too large, unreadable). */
function passedOver(text: string): string[] {
  const line = text.split('\n').find((each) => each.startsWith('Not searched:')) ?? '';
  return [...line.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

/**
 * Starts the ripgrep host and runs `rg` once, so the host's start (a second Node.js process,
 * seconds on a loaded machine) is not timed inside the first test that searches.
 */
export async function warmRipgrep(program: string): Promise<void> {
  await runRipgrep({ program, args: ['--version'], cwd: os.tmpdir(), timeoutMs: 60_000, maxBytes: 1024 * 1024 }, new AbortController().signal);
}
