// The files collection's own large-files suite, with every search_files call run again with ripgrep and the answers compared (see engine-twin.ts).
import { vi } from 'vitest';
import { onBothEngines } from './on-both-engines.js';

vi.hoisted(() => {
  process.env.AGENT_TOOLBELT_TEST_SEARCH_ENGINE = 'both';
});

await onBothEngines(() => import('../../src/collections/files/large-files.int.test.js'));
