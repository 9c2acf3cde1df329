/**
 * Runs one of the files collection's suites with every `search_files` call run again with
 * ripgrep and the answers compared (see `engine-twin.ts`). The file that calls it sets
 * `AGENT_TOOLBELT_TEST_SEARCH_ENGINE=both` in `vi.hoisted`, before the suite's modules load.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { locateRipgrep } from '../../src/collections/files/search/ripgrep.js';
import { SEARCH_ENGINE_VARIABLE, twinRuns, warmEngines } from '../../src/collections/files/test-support/engine-twin.js';

export async function onBothEngines(suite: () => Promise<unknown>): Promise<void> {
  // The variable is this test process's alone; leave nothing behind for a file that may run after.
  afterAll(() => {
    delete process.env[SEARCH_ENGINE_VARIABLE];
  });
  const rg = await locateRipgrep(true);
  if (rg === undefined) {
    it.skip('needs ripgrep (rg) on PATH: install it (apt-get install ripgrep) to compare the engines', () => undefined);
    return;
  }
  beforeAll(() => warmEngines(), 60_000);
  await suite();
  it('compared searches whose files ripgrep picked', () => {
    expect(twinRuns.byRipgrep).toBeGreaterThan(0);
  });
}
