import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shellHarness } from './test-support/harness.js';

const MB = 1024 * 1024;
const harness = fileURLToPath(new URL('./test-support/flood-harness.ts', import.meta.url));

/** Peak memory of a fresh process that pipes `bytes` of output through run_shell. */
function flood(bytes: number): { growth: number; ms: number; replyLength: number; status: string } {
  const output = execFileSync(process.execPath, ['--import', 'tsx', harness, String(bytes)], { encoding: 'utf8', cwd: process.cwd() });
  const { baseline, peak, ms, replyLength, status } = JSON.parse(output.trim().split('\n').at(-1)!);
  return { growth: peak - baseline, ms, replyLength, status };
}

describe('run_shell: a flood of output', () => {
  // The first few hundred MB of a flood bring the process to its working size: about 30 MB
  // above the baseline here, what a bare spawn that only reads the pipe grows by too (Node's
  // read buffers; plain output stays bytes, so the heap hardly grows). Past that it stops growing,
  // which is what this compares: 800 MB against 100 MB. (The 60 MB once read here was the shell
  // parser's thread settling after its first parse, inside the measurement; the harness now
  // lets it settle before reading the baseline.)
  it('keeps memory bounded: 800 MB grows the process no more than 100 MB does, give or take the heap\'s own swings', () => {
    const small = flood(100 * MB);
    const large = flood(800 * MB);
    console.log(`flood: 100 MB grew RSS by ${(small.growth / MB).toFixed(1)} MB in ${small.ms.toFixed(0)} ms; 800 MB by ${(large.growth / MB).toFixed(1)} MB in ${large.ms.toFixed(0)} ms`);
    for (const run of [small, large]) {
      expect(run.status).toBe('exited');
      expect(run.replyLength).toBeLessThanOrEqual(30_000);
    }
    // 700 MB more output; anything kept per byte would show as hundreds of MB. The slack is
    // for the heap's own ups and downs on a busy machine.
    expect(large.growth - small.growth).toBeLessThan(24 * MB);
    expect(large.growth).toBeLessThan(64 * MB);
  }, 120_000);

  it('returns the head and the tail of a flood and caps the spill file', async () => {
    const { run, workspace } = await shellHarness({ maxSpillCharacters: 10_000_000 });
    const result = await run({ command: `echo first; yes 'a line of flood output' | head -c ${100 * MB}; echo; echo last` });
    expect(result.data).toMatchObject({ status: 'exited', exitCode: 0 });
    expect(result.text.length).toBeLessThanOrEqual(30_000);
    expect(result.text).toMatch(/Output:\nfirst\na line of flood output\n/);
    expect(result.text).toMatch(/\na line of flood output\na \nlast\nNote: The saved copy of the output stops at its size limit\.$/);
    expect(result.text).toMatch(/\[… [\d,]+ characters \([\d,]+ lines\) left out of the middle\. The whole of the output is saved in \.toolbelt\/output\/shell-[\w-]+\.txt;/);
    const spill = (result.data as { spillFile: string }).spillFile;
    const stats = await fs.stat(path.join(workspace.root, spill));
    expect(stats.size).toBeGreaterThanOrEqual(10_000_000);
    expect(stats.size).toBeLessThan(10_001_000);
  }, 120_000);
});
