import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { README, SUMMARY } from './scripted-model.js';

const script = fileURLToPath(new URL('./index.ts', import.meta.url));
const ORIGINAL = '# Demo\n\nOriginal text.\n';

/** Runs the example as a user would, offline, answering the approval prompt on stdin. */
function runExample(folder: string, answer: string) {
  const { OPENAI_API_KEY: _, ...env } = process.env;
  return execa(process.execPath, ['--import', 'tsx', script, folder], { input: `${answer}\n`, env, extendEnv: false, timeout: 60_000 });
}

describe('examples/langgraph', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolbelt-example-langgraph-'));
    await writeFile(join(folder, 'README.md'), ORIGINAL);
  });
  afterEach(async () => rm(folder, { recursive: true, force: true }));

  it('pauses at the write, resumes when the terminal says yes, and runs the other call once', async () => {
    const { stdout } = await runExample(folder, 'y');

    expect(stdout).toContain('Overwrite README.md with 3 lines (90 characters)\nAllow? y = yes, a = always, n or Enter = no, or type why not: y');
    expect(stdout).toContain('• create_file (success): Created `SUMMARY.md` (3 lines, 45 characters).');
    expect(stdout).toContain('• write_file (success): Wrote `README.md` (3 lines).');
    expect(stdout.trimEnd().endsWith('I wrote SUMMARY.md and linked it from README.md.')).toBe(true);
    expect(await readFile(join(folder, 'README.md'), 'utf8')).toBe(README);
    expect(await readFile(join(folder, 'SUMMARY.md'), 'utf8')).toBe(SUMMARY);
  });

  it('leaves the file as it was when the terminal says no, and tells the model why', async () => {
    const { stdout } = await runExample(folder, 'not now');

    expect(stdout).toContain(
      '• write_file (error): Action denied by the user: write_file was not run. Do not retry the same call; ask or change approach. The user said: not now',
    );
    expect(await readFile(join(folder, 'README.md'), 'utf8')).toBe(ORIGINAL);
    expect(await readFile(join(folder, 'SUMMARY.md'), 'utf8')).toBe(SUMMARY);
  });
});
