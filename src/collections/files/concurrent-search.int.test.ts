import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureEventLoopBlock } from '../../../test/support/event-loop.js';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import { Workspace } from '../../workspace/workspace.js';
import { locateRipgrep } from './ripgrep.js';
import { createReadOnlyFileTools } from './read-tools.js';

const ripgrep = await locateRipgrep(true);
if (ripgrep === undefined) console.warn('Skipping the ripgrep half of the concurrent search test: rg is not on PATH (apt-get install ripgrep).');

/**
 * Eight searches at once must not stall the event loop: ripgrep is started from the ripgrep
 * host (a fork of this process would cost in proportion to its memory), the matching runs on
 * worker threads, and the answers are small. Eight workers and eight ripgrep processes share
 * the machine's cores with this thread, so the bound is generous; the bench has the figures.
 */
const GENEROUS_BLOCK_MS = 250;

describe('eight concurrent search_files calls', () => {
  let root = '';
  beforeAll(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-concurrent-search-')));
    for (let folder = 0; folder < 40; folder += 1) {
      await fs.mkdir(path.join(root, `pkg-${folder}`), { recursive: true });
      for (let file = 0; file < 50; file += 1) {
        const marker = folder === 37 && file === 7 ? 'rareMarker42\n' : '';
        await fs.writeFile(path.join(root, `pkg-${folder}`, `file-${file}.ts`), `export const value${file} = ${folder};\n`.repeat(40) + marker);
      }
    }
  });
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  for (const engine of ['ripgrep', 'node'] as const) {
    it.skipIf(engine === 'ripgrep' && ripgrep === undefined)(`find a rare literal without stalling the event loop (${engine})`, async () => {
      // A process holding a lot of memory is where starting ripgrep directly would stall: hold some.
      const ballast = Array.from({ length: 8 }, () => Buffer.alloc(32 * 1024 * 1024, 1));
      const { tools } = createReadOnlyFileTools({ workspace: new Workspace(root), ripgrep: engine === 'ripgrep', ripgrepAfterFiles: 0 });
      const search = tools.find((tool) => tool.name === 'search_files')!;
      // A first search starts the ripgrep host and a worker; the measured ones find them ready.
      await runTool(search, { pattern: 'rareMarker42' }, { session: createSession() });
      const { result, maxDelayMs } = await measureEventLoopBlock(() =>
        Promise.all(Array.from({ length: 8 }, () => runTool(search, { pattern: 'rareMarker42' }, { session: createSession() }))),
      );
      for (const answer of result) {
        expect(answer.text).toContain('pkg-37/file-7.ts');
        expect((answer.data as { engine: string }).engine).toBe(engine);
      }
      expect(maxDelayMs).toBeLessThan(GENEROUS_BLOCK_MS);
      expect(ballast.length).toBe(8);
    });
  }
});
