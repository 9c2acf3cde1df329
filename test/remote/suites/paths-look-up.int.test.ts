// The files collection's own look-up suite (src/collections/files/paths/), run against a remote workspace under bubblewrap (see ../test-workspace.ts).
import { afterAll, it, vi } from 'vitest';
import { bwrapWorks } from '../support.js';

vi.hoisted(() => {
  process.env.AGENT_TOOLBELT_TEST_WORKSPACE = 'bwrap';
});

// The variable is this test process's alone; leave nothing behind for a file that may run after.
afterAll(() => {
  delete process.env.AGENT_TOOLBELT_TEST_WORKSPACE;
});

if (bwrapWorks()) await import('../../../src/collections/files/paths/look-up.test.js');
else it.skip('needs bubblewrap (`bwrap`) able to create a sandbox here: install bubblewrap to run this suite remotely', () => undefined);
