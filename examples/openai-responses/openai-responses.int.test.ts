import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { responsesReply, startScriptedServer, type ScriptedServer, type ScriptStep } from '../../adapters/openai/test-support/scripted-server.js';

const script = fileURLToPath(new URL('./index.ts', import.meta.url));
const ORIGINAL = '# Demo\n\nOriginal text.\n';
const UPDATED = '# Demo\n\nOriginal text.\n\n## Usage\n\nRun it.\n';

/** The model's side: plan and read, then write, then report what the write returned. */
const steps: ScriptStep[] = [
  responsesReply({ calls: [
    ['task_add', { tasks: [{ subject: 'Add a usage section', description: null, blocked_by: null }] }],
    ['read_file', { path: 'README.md', start_line: null, end_line: null }],
  ] }),
  responsesReply({ calls: [['write_file', { path: 'README.md', content: UPDATED }]] }),
  (body) => {
    const output = body.input.findLast((item: { type?: string }) => item.type === 'function_call_output').output as string;
    return responsesReply({ text: output.startsWith('Error:') ? `I left the README as it was: ${output}` : 'The README has a usage section now.' })(body);
  },
];

describe('examples/openai-responses', () => {
  let folder: string;
  let server: ScriptedServer;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolbelt-example-openai-responses-'));
    await writeFile(join(folder, 'README.md'), ORIGINAL);
    server = await startScriptedServer(steps);
  });
  afterEach(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  const runExample = (answer: string) =>
    execa(process.execPath, ['--import', 'tsx', script, folder, 'Add a usage section.'], {
      input: `${answer}\n`,
      env: { PATH: process.env.PATH, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'scripted' },
      extendEnv: false,
      timeout: 60_000,
    });

  it('runs the loop with the real client: strict specs, function_call_output items with the call ids, the write asked about and done', async () => {
    const { stdout } = await runExample('y');
    expect(stdout).toContain('• task_add: Added #1 "Add a usage section"');
    expect(stdout).toContain('Overwrite README.md with 7 lines (42 characters)\nAllow? y = yes, a = always, n or Enter = no, or type why not: y');
    expect(stdout).toMatch(/The README has a usage section now\.$/);
    expect(await readFile(join(folder, 'README.md'), 'utf8')).toBe(UPDATED);

    const [first, second] = server.requests;
    expect(first.path).toBe('/v1/responses');
    expect(first.body.instructions).toContain('You are a careful assistant');
    expect(first.body.tools.every((tool: { strict: boolean; type: string }) => tool.type === 'function' && tool.strict)).toBe(true);
    expect(first.body.input.at(-1)).toMatchObject({ role: 'user', content: expect.stringMatching(/^<context>\n/) });
    const outputs = second.body.input.filter((item: { type?: string }) => item.type === 'function_call_output');
    expect(outputs.map((item: { call_id: string }) => item.call_id)).toEqual(['call_1', 'call_2']);
    expect(second.body.input.filter((item: { type?: string }) => item.type === 'function_call').map((item: { name: string }) => item.name)).toEqual(['task_add', 'read_file']);
  });

  it('leaves the file alone when the terminal says no, and the model reads why', async () => {
    const { stdout } = await runExample('n');
    expect(await readFile(join(folder, 'README.md'), 'utf8')).toBe(ORIGINAL);
    expect(stdout).toContain('I left the README as it was: Error: Action denied by the user: write_file was not run. Do not retry the same call; ask or change approach.');
  });
});
