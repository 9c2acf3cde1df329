import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../../run-tool.js';
import { createSession } from '../../../session.js';
import type { ToolDefinition } from '../../../tool.js';
import { Workspace } from '../../../workspace/workspace.js';
import { createReadTools } from '../read-tools.js';

/** A workspace that reads through its own methods: the main thread reads and the worker matches chunks, with no byte prefilter and no screening. */
class ThroughMethods extends Workspace {
  override open(absolute: string): ReturnType<Workspace['open']> {
    return super.open(absolute);
  }
}

/**
 * On a tree large enough that the walker thread screens files ahead of the search worker
 * (see `CLAIM` in protocol.ts) and the byte prefilter decides most files, the answer
 * must be the one the main thread's reading gives, file for file and line for line.
 */
describe('search_files with the byte prefilter and the walker screening files', () => {
  let root = '';
  let disk: ToolDefinition<any>;
  let through: ToolDefinition<any>;
  const session = createSession();

  beforeAll(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-search-screening-')));
    let state = 99;
    const next = (): number => {
      state = (state * 1_664_525 + 1_013_904_223) >>> 0;
      return state / 2 ** 32;
    };
    const filler = 'const value = compute(input); // some ordinary line of code\n'.repeat(30);
    const specials: readonly (string | Buffer)[] = [
      'a line with marker42 in it\n',
      'A LINE WITH MARKER42 SHOUTED\r\n',
      '\ufeffmarker42 after a byte order mark\n',
      'mar\u212aer42 with a Kelvin sign and marſ\n',
      'alpha7 and nothing else\n',
      Buffer.concat([Buffer.from('marker42\n'), Buffer.from([0]), Buffer.from('marker42\n')]),
      Buffer.from('marker42 caf\xe9\n', 'latin1'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('marker42\n', 'utf16le')]),
    ];
    for (let folder = 0; folder < 60; folder += 1) {
      await fs.mkdir(path.join(root, `pkg-${String(folder).padStart(2, '0')}`, 'src'), { recursive: true });
      for (let file = 0; file < 50; file += 1) {
        const roll = next();
        const special = roll < 0.06 ? specials[Math.floor(next() * specials.length)]! : undefined;
        const content = special === undefined ? filler : Buffer.concat([Buffer.from(filler), Buffer.isBuffer(special) ? special : Buffer.from(special), Buffer.from(filler)]);
        await fs.writeFile(path.join(root, `pkg-${String(folder).padStart(2, '0')}`, file % 2 === 0 ? 'src' : '', `file-${file}.ts`), content);
      }
    }
    // Larger than the first 1 MB read: read whole, with the required text past the first megabyte.
    await fs.writeFile(path.join(root, 'pkg-30', 'large.txt'), `${filler.repeat(700)}late marker42 line\n`);
    disk = createReadTools({ workspace: new Workspace(root), ripgrep: false }).find((tool) => tool.name === 'search_files')!;
    through = createReadTools({ workspace: new ThroughMethods(root), ripgrep: false }).find((tool) => tool.name === 'search_files')!;
  });
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  const queries = [
    { pattern: 'marker42', limit: 1_000 },
    { pattern: 'marker42', ignore_case: true, mode: 'lines', limit: 1_000 },
    { pattern: 'marker42', ignore_case: true, mode: 'counts', limit: 1_000 },
    { pattern: 'alpha7|marker42', mode: 'lines', limit: 1_000 },
    { pattern: 'MARKER\\d+ SHOUTED', mode: 'lines', limit: 1_000 },
    { pattern: 'mark', ignore_case: true, mode: 'counts', limit: 40 },
    { pattern: 'never there at all', limit: 1_000 },
  ] as const;
  for (const input of queries) {
    it(`gives the main thread's answer for ${JSON.stringify(input)}`, async () => {
      const [onDisk, reference] = [await runTool(disk, input, { session }), await runTool(through, input, { session })];
      expect(onDisk.isError).toBe(false);
      expect(onDisk.text).toBe(reference.text);
      const data = onDisk.data as { matches: unknown[]; searched: number; skipped: unknown; limitReached: boolean };
      const expected = reference.data as typeof data;
      expect([data.matches, data.searched, data.skipped, data.limitReached]).toEqual([expected.matches, expected.searched, expected.skipped, expected.limitReached]);
      if (input.pattern === 'marker42' && !('ignore_case' in input)) expect(data.matches.length).toBeGreaterThan(20);
    });
  }
});

/**
 * The main thread reads ahead of the worker's answers. Files it passed over after the file
 * that reached the limit were once named (or counted) too, so the reply's `Not searched:`
 * line depended on how far behind the worker was: under load the two readings disagreed.
 */
describe('search_files through the workspace, with the worker behind the reading', () => {
  it('names only the files passed over before the one that reached the limit, as disk mode does', async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-search-read-ahead-')));
    try {
      // The first file keeps the worker busy (400,000 matching lines to count) while the main
      // thread reads the 40 binary and 10 Latin-1 files after it.
      await fs.writeFile(path.join(root, 'a-first.txt'), 'a mark here\n'.repeat(400_000));
      for (let index = 0; index < 40; index += 1) await fs.writeFile(path.join(root, `b-${String(index).padStart(2, '0')}.bin`), Buffer.from([0x6d, 0x61, 0x72, 0x6b, 0, 1, 2]));
      for (let index = 0; index < 10; index += 1) await fs.writeFile(path.join(root, `c-${index}.txt`), Buffer.from('mark caf\xe9\n', 'latin1'));
      const session = createSession();
      const search = (workspace: Workspace) => createReadTools({ workspace, ripgrep: false }).find((tool) => tool.name === 'search_files')!;
      const input = { pattern: 'mark', mode: 'counts', limit: 1 };
      const [through, onDisk] = [await runTool(search(new ThroughMethods(root)), input, { session }), await runTool(search(new Workspace(root)), input, { session })];
      expect(through.text).toContain('a-first.txt: 400000');
      expect(through.text).not.toContain('Not searched');
      expect(through.text).toBe(onDisk.text);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
