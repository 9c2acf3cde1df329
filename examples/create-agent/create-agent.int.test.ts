import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { README } from './scripted-model.js';

const script = fileURLToPath(new URL('./index.ts', import.meta.url));
const ORIGINAL = '# Demo\n\nOriginal text.\n';

/** Runs the example as a user would, offline, answering the approval prompt on stdin. */
function runExample(folder: string, answer: string) {
  const { OPENAI_API_KEY: _, ...env } = process.env;
  return execa(process.execPath, ['--import', 'tsx', script, folder], { input: `${answer}\n`, env, extendEnv: false, timeout: 60_000 });
}

describe('examples/create-agent', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolbelt-example-create-agent-'));
    await writeFile(join(folder, 'README.md'), ORIGINAL);
  });
  afterEach(async () => rm(folder, { recursive: true, force: true }));

  it('plans with the task list, pauses at the write and writes when the terminal says yes', async () => {
    const { stdout } = await runExample(folder, 'y');

    expect(stdout).toContain('Overwrite README.md with 7 lines (89 characters)\nAllow? y = yes, a = always, n or Enter = no, or type why not: y');
    expect(stdout).toContain('• task_add (success): Added #1 "Read the README" and #2 "Add a usage section". Now 2 open, 0 completed.');
    expect(stdout).toContain('• write_file (success): Wrote `README.md` (7 lines).');
    expect(stdout).toContain('The README has a usage section now.\n\nTasks:\n1. [completed] Read the README\n2. [in_progress] Add a usage section');
    expect(await readFile(join(folder, 'README.md'), 'utf8')).toBe(README);
  });

  it('leaves the README as it was when the terminal says no', async () => {
    const { stdout } = await runExample(folder, 'n');

    expect(stdout).toContain(
      '• write_file (error): Action denied by the user: write_file was not run. Do not retry the same call; ask or change approach.',
    );
    expect(stdout).toContain('I left the README as it was: Action denied by the user');
    expect(await readFile(join(folder, 'README.md'), 'utf8')).toBe(ORIGINAL);
  });
});
