// The shell collection's own spill suite, run against a remote workspace under bubblewrap with the folder at its own path (see ../test-workspace.ts).
import { afterAll, it, vi } from 'vitest';
import { bwrapWorks } from '../support.js';

vi.hoisted(() => {
  process.env.AGENT_TOOLBELT_TEST_WORKSPACE = 'bwrap-same-path';
});

// The variable is this test process's alone; leave nothing behind for a file that may run after.
afterAll(() => {
  delete process.env.AGENT_TOOLBELT_TEST_WORKSPACE;
});

if (bwrapWorks()) await import('../../../src/workspace/kept-output.test.js');
else it.skip('needs bubblewrap (`bwrap`) able to create a sandbox here: install bubblewrap to run this suite remotely', () => undefined);
