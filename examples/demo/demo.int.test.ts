import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUGGY_MATH } from './sample-project.js';

const repository = path.resolve(import.meta.dirname, '../..');

/** Runs `npm run demo`'s command offline, answering its prompts with `answers`, one per line. */
async function runDemo(answers: string[]): Promise<{ output: string; code: number | null }> {
  const env = { ...process.env };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/demo/index.ts'], { cwd: repository, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.stdin.end(answers.map((answer) => `${answer}\n`).join(''));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { output, code };
}

function sampleProject(output: string): string {
  const folder = /Sample project: (\S+)/.exec(output)?.[1];
  if (folder === undefined) throw new Error(`The demo did not print its sample project:\n${output}`);
  return folder;
}

describe('npm run demo (offline)', () => {
  it('walks through search, read, plan, an approved edit, background tests and undo', async () => {
    const { output, code } = await runDemo(['y', 'y', 'y']);

    expect(code, output).toBe(0);
    const expectedInOrder = [
      '→ search_files {"pattern":"function add"}',
      '→ read_file {"path":"src/math.js"}',
      '→ task_add',
      '⚠ Edit src/math.js:',
      '→ edit_file',
      '⚠ Run: node --test (in the background: it keeps running after this turn)',
      '← Started job 1 (node --test) in the background.',
      '→ job_output {"job_id":"1"}',
      'Job 1 (node --test): exited 0',
      '│ ☑ 2. Run the tests',
      '🤖 Fixed add() in src/math.js (it subtracted); the tests pass.',
      "Undo the agent's changes? [y/N] y",
      '`src/math.js`: back to its content before the change',
    ];
    let position = 0;
    for (const expected of expectedInOrder) {
      const found = output.indexOf(expected, position);
      expect(found, `"${expected}" after position ${position} in:\n${output}`).toBeGreaterThanOrEqual(0);
      position = found + expected.length;
    }
    expect(await readFile(path.join(sampleProject(output), 'src/math.js'), 'utf8')).toBe(BUGGY_MATH);
    await rm(sampleProject(output), { recursive: true, force: true });
  }, 60_000);

  it('changes nothing when the edit is denied, and the model says so', async () => {
    const { output, code } = await runDemo(['n']);

    expect(code, output).toBe(0);
    expect(output).toContain(
      '🤖 I did not change src/math.js. Action denied by the user: edit_file was not run. Do not retry the same call; ask or change approach.',
    );
    expect(output).not.toContain('→ run_shell');
    expect(await readFile(path.join(sampleProject(output), 'src/math.js'), 'utf8')).toBe(BUGGY_MATH);
    await rm(sampleProject(output), { recursive: true, force: true });
  }, 60_000);
});
