import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneSpillFiles, SPILL_MAX_FILES } from './kept-output.js';
import { temporaryWorkspace } from '../collections/shell/test-support/harness.js';

describe('pruneSpillFiles', () => {
  it('removes files older than a day and keeps room for one more beside the newest', async () => {
    const workspace = await temporaryWorkspace('prune-');
    const directory = await workspace.privateDir('output');
    const now = Date.now();
    const names: string[] = [];
    for (let index = 0; index < 25; index += 1) {
      const name = `shell-${String(index).padStart(2, '0')}.txt`;
      names.push(name);
      const file = path.join(directory, name);
      await fs.writeFile(file, 'x');
      // index 0 is two days old; the others one minute apart, the highest index newest.
      const time = new Date(index === 0 ? now - 2 * 24 * 3600_000 : now - (25 - index) * 60_000);
      await fs.utimes(file, time, time);
    }
    await fs.writeFile(path.join(directory, 'notes.md'), 'not a spill file');
    await pruneSpillFiles(directory, now);
    const left = (await fs.readdir(directory)).sort();
    expect(left).toEqual([...names.slice(25 - (SPILL_MAX_FILES - 1)), 'notes.md'].sort());
  });
});
