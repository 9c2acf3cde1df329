import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUGGY_MATH } from './sample-project.js';

const repository = path.resolve(import.meta.dirname, '../..');

/** Runs `npm run demo`'s command, answering its prompts with `answers`, one per line; offline unless `env` says otherwise. */
async function runDemo(answers: string[], options: { env?: Record<string, string>; args?: string[] } = {}): Promise<{ output: string; code: number | null }> {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  Object.assign(env, options.env);
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/demo/index.ts', ...(options.args ?? [])], { cwd: repository, env, stdio: ['pipe', 'pipe', 'pipe'] });
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

describe('npm run demo with OPENAI_BASE_URL (an OpenAI-compatible server)', () => {
  it('works on the given folder with the server as its model, sending the tools and the context message last', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'toolbelt-demo-live-'));
    await writeFile(path.join(folder, 'hello.txt'), 'hi\n');
    const requests: any[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const sent = JSON.parse(body);
        requests.push({ url: request.url, body: sent });
        const answered = sent.messages.some((message: any) => message.role === 'tool');
        const message = answered
          ? { role: 'assistant', content: 'This folder holds hello.txt.' }
          : { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'list_directory', arguments: '{}' } }] };
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({
            id: `chatcmpl-${requests.length}`,
            object: 'chat.completion',
            created: 0,
            model: sent.model,
            choices: [{ index: 0, message, finish_reason: answered ? 'stop' : 'tool_calls' }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    try {
      const { output, code } = await runDemo(['What is in this folder?', '/exit'], {
        env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_MODEL: 'local-model' },
        args: [folder],
      });

      expect(code, output).toBe(0);
      expect(output).toContain(`agent-toolbelt demo with local-model in ${folder}.`);
      expect(output).toContain('→ list_directory {}');
      expect(output).toContain('hello.txt');
      expect(output).toContain('🤖 This folder holds hello.txt.');
      expect(requests).toHaveLength(2);
      expect(requests[0].url).toBe('/v1/chat/completions');
      expect(requests[0].body.model).toBe('local-model');
      const toolNames = requests[0].body.tools.map((tool: any) => tool.function.name);
      expect(toolNames).toEqual(expect.arrayContaining(['read_file', 'edit_file', 'run_shell', 'job_output', 'task_add', 'get_date_time_after']));
      const messages = requests[1].body.messages;
      expect(messages[0].role).toBe('system');
      expect(messages.at(-2).role).toBe('tool');
      expect(messages.at(-1).role).toBe('user');
      expect(JSON.stringify(messages.at(-1).content)).toContain('Current date and time:');
    } finally {
      server.close();
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
