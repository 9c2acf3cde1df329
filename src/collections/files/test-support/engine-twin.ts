/**
 * The second engine beside a test's search: when {@link SEARCH_ENGINE_VARIABLE} is `both`, the
 * read kit runs every `search_files` call of a suite again with ripgrep picking the files from
 * the first one, and fails the call unless both answers are the same bytes, apart from what
 * `search-engine.ts` lets an engine say differently.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTool, type RunToolResult } from '../../../run-tool.js';
import { createSession } from '../../../session.js';
import { Workspace } from '../../../workspace/workspace.js';
import { createReadOnlyFileTools } from '../read-tools.js';

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
 * Runs one search with ripgrep from the first file on an empty folder, so the starts of the
 * ripgrep host, the search worker and its walker (seconds on a loaded machine) are not timed
 * inside the first test that searches, whose bound is for one search and not for two.
 */
export async function warmEngines(): Promise<void> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-engines-')));
  try {
    await fs.writeFile(path.join(folder, 'a.txt'), 'warm\n');
    const search = createReadOnlyFileTools({ workspace: new Workspace(folder), ripgrep: true, ripgrepAfterFiles: 0 }).tools.find((tool) => tool.name === 'search_files')!;
    await runTool(search, { pattern: 'warm' }, { session: createSession() });
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}
