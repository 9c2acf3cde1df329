import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureEventLoopBlock } from '../../../test/support/event-loop.js';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import { Workspace } from '../../workspace/workspace.js';
import { SMALL_FOLDER_NAMES } from './find-files.js';
import { createReadOnlyFileTools } from './read-tools.js';

/**
 * A glob of one small folder is answered on the event loop's thread, with synchronous calls;
 * everything else goes to the search worker. Both must leave the event loop free: the small
 * folder at its bound costs about 2 ms here, and a folder of 20,000 files listed and dated
 * on this thread would cost about 110 ms. The bound is this thread's own CPU time in its
 * longest block, which waiting for a core on a busy machine does not inflate.
 */
const GENEROUS_BUSY_MS = 20;
const LARGE_FOLDER = 20_000;

describe('find_files and the event loop', () => {
  let root = '';
  beforeAll(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-find-block-')));
    await fs.mkdir(path.join(root, 'small'));
    await fs.mkdir(path.join(root, 'large'));
    const write = (folder: string, count: number) => Array.from({ length: count }, (_, index) => fs.writeFile(path.join(root, folder, `file-${index}.txt`), ''));
    await Promise.all(write('small', SMALL_FOLDER_NAMES));
    for (let start = 0; start < LARGE_FOLDER; start += 1_000) {
      await Promise.all(Array.from({ length: 1_000 }, (_, index) => fs.writeFile(path.join(root, 'large', `file-${start + index}.txt`), '')));
    }
  }, 120_000);
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it.each([
    ['small', SMALL_FOLDER_NAMES],
    ['large', LARGE_FOLDER],
  ])('lists every file of the %s folder, newest first, without holding the event loop', async (folder, count) => {
    const find = createReadOnlyFileTools({ workspace: new Workspace(root) }).tools.find((tool) => tool.name === 'find_files')!;
    const session = createSession();
    await runTool(find, { pattern: `${folder}/*.txt` }, { session });
    const { result, maxBusyMs } = await measureEventLoopBlock(() => runTool(find, { pattern: `${folder}/*.txt` }, { session }));
    expect(result.isError).toBe(false);
    expect((result.data as { total: number }).total).toBe(count);
    expect(result.text.split('\n')[0]).toBe(`Found ${count.toLocaleString('en-US')} files matching \`${folder}/*.txt\` in the workspace; the 100 newest:`);
    expect(maxBusyMs).toBeLessThan(GENEROUS_BUSY_MS);
  });
});
