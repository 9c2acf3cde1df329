// The files collection's own look-up suite, with every search_files call run again with ripgrep and the answers compared (see engine-twin.ts).
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { locateRipgrep } from '../../src/collections/files/search/ripgrep.js';
import { twinRuns, warmEngines } from '../../src/collections/files/test-support/engine-twin.js';

vi.hoisted(() => {
  process.env.AGENT_TOOLBELT_TEST_SEARCH_ENGINE = 'both';
});

// The variable is this test process's alone; leave nothing behind for a file that may run after.
afterAll(() => {
  delete process.env.AGENT_TOOLBELT_TEST_SEARCH_ENGINE;
});

const rg = await locateRipgrep(true);
if (rg === undefined) it.skip('needs ripgrep (rg) on PATH: install it (apt-get install ripgrep) to compare the engines', () => undefined);
else {
  beforeAll(() => warmEngines(), 60_000);
  await import('../../src/collections/files/paths/look-up.test.js');
  it('compared searches whose files ripgrep picked', () => {
    expect(twinRuns.byRipgrep).toBeGreaterThan(0);
  });
}
