import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatReply, startScriptedServer, type ScriptedServer, type ScriptStep } from '../../adapters/openai/test-support/scripted-server.js';

const script = fileURLToPath(new URL('./index.ts', import.meta.url));
const ORIGINAL = '# Demo\n\nOriginal text.\n';
const UPDATED = '# Demo\n\nOriginal text.\n\n## Usage\n\nRun it.\n';

/** The model's side: plan and read, then write, then report what the write returned. */
const script_: ScriptStep[] = [
  chatReply({ calls: [
    ['task_add', { tasks: [{ subject: 'Add a usage section', description: null, blocked_by: null }] }],
    ['read_file', { path: 'README.md', start_line: null, end_line: null }],
  ] }),
  chatReply({ calls: [['write_file', { path: 'README.md', content: UPDATED }]] }),
  (body) => {
    const last = body.messages.at(-1)?.role === 'tool' ? body.messages.at(-1) : body.messages.at(-2);
    return chatReply({ text: last.content.startsWith('Error:') ? `I left the README as it was: ${last.content}` : 'The README has a usage section now.' })(body);
  },
];

describe('examples/openai-chat', () => {
  let folder: string;
  let server: ScriptedServer;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolbelt-example-openai-chat-'));
    await writeFile(join(folder, 'README.md'), ORIGINAL);
    server = await startScriptedServer(script_);
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

  it('runs the loop with the real client: strict specs, context last, and the write asked about and done', async () => {
    const { stdout } = await runExample('y');
    expect(stdout).toContain('• task_add: Added #1 "Add a usage section"');
    expect(stdout).toContain('Overwrite README.md with 7 lines (42 characters)\nAllow? y = yes, a = always, n or Enter = no, or type why not: y');
    expect(stdout).toMatch(/The README has a usage section now\.$/);
    expect(await readFile(join(folder, 'README.md'), 'utf8')).toBe(UPDATED);

    const [first, second] = server.requests;
    expect(first.body.model).toBe('scripted');
    expect(first.body.tools.every((tool: { function: { strict: boolean } }) => tool.function.strict)).toBe(true);
    expect(first.body.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringMatching(/^<context>\n/) });
    // The context message of the first call is not kept in the conversation.
    expect(second.body.messages.filter((message: { content?: unknown }) => String(message.content).startsWith('<context>'))).toHaveLength(1);
    expect(second.body.messages.at(-1).content).toContain('Add a usage section');
  });

  it('leaves the file alone when the terminal says no, and the model reads why', async () => {
    const { stdout } = await runExample('not today');
    expect(await readFile(join(folder, 'README.md'), 'utf8')).toBe(ORIGINAL);
    expect(stdout).toContain('I left the README as it was: Error: Action denied by the user: write_file was not run. Do not retry the same call; ask or change approach. The user said: not today');
  });

  it('says how to run it without an API key', async () => {
    const result = await execa(process.execPath, ['--import', 'tsx', script, folder], { env: { PATH: process.env.PATH }, extendEnv: false, reject: false });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('Usage: OPENAI_API_KEY=… npx tsx examples/openai-chat/index.ts FOLDER "request"');
  });
});
