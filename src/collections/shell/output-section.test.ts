import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import stripAnsi from 'strip-ansi';
import { afterAll, describe, expect, it } from 'vitest';
import { Workspace } from '../../workspace/workspace.js';
import { OutputSection, type CollectedOutput } from './output-section.js';
import { mixedOutput } from './test-support/mixed-output.js';

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await fs.rm(root, { recursive: true, force: true });
});

/** Feeds `chunks` to a fresh section the way run_shell does (waiting when asked), and returns what it collected and the spill file's text. */
async function collect(chunks: readonly Uint8Array[]): Promise<{ result: CollectedOutput; spilled: string }> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-section-'));
  roots.push(root);
  const section = new OutputSection({ workspace: new Workspace(root), windowCharacters: 30_000, spillThreshold: 29_000, maxLineCharacters: 2_000, maxSpillCharacters: 50_000_000 });
  for (const chunk of chunks) await section.write('output', Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  await section.end();
  const result = section.result();
  return { result, spilled: result.spillFile === undefined ? '' : await fs.readFile(path.join(root, result.spillFile), 'utf8') };
}

describe('OutputSection on a deterministic mixed flood', () => {
  it('collects the same head, tail, counts and saved copy whatever the chunking (6 seeds, 2 MB each)', async () => {
    for (let seed = 1; seed <= 6; seed += 1) {
      const { whole, chunks } = mixedOutput(seed, 2_000_000);
      const streamed = await collect(chunks);
      const atOnce = await collect([whole]);
      const { spillFile: _streamedFile, ...streamedResult } = streamed.result;
      const { spillFile: _atOnceFile, ...atOnceResult } = atOnce.result;
      expect(streamedResult, `seed ${seed}`).toEqual(atOnceResult);
      expect(streamedResult.omittedCharacters, `seed ${seed}`).toBeGreaterThan(1_000_000);
      // The saved copy is the whole output, cleaned, with long lines whole.
      const clean = stripAnsi(new TextDecoder().decode(whole)).replaceAll('\r\n', '\n');
      if (streamed.spilled !== clean) expect.fail(`seed ${seed}: the saved copy differs from the cleaned output`);
      expect(streamed.result.rawCharacters).toBe(clean.length);
    }
  }, 60_000);
});
