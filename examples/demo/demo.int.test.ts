import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUGGY_MATH } from './sample-project.js';

const repository = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

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
  const folder = /sample project made for this run: (\S+)/.exec(output)?.[1];
  if (folder === undefined) throw new Error(`The demo did not print its sample project:\n${output}`);
  return folder;
}

/** Each of `expected` appears in `output`, in this order. */
function expectInOrder(output: string, expected: string[]): void {
  let position = 0;
  for (const text of expected) {
    const found = output.indexOf(text, position);
    expect(found, `"${text}" after position ${position} in:\n${output}`).toBeGreaterThanOrEqual(0);
    position = found + text.length;
  }
}

/** Text written for the model, which the person should never be shown. */
function expectNoModelText(output: string): void {
  for (const text of ['Action denied by the user', 'Do not retry', 'read them again', 'The user undid', 'job_output {', 'stop it with job_stop', '{"']) {
    expect(output, `the person was shown "${text}"`).not.toContain(text);
  }
}

const PROMPT = 'Allow? y = yes, a = always, n or Enter = no, or type why not: ';
const START = [
  'agent-toolbelt demo, offline: a scripted model plays the agent',
  'you> The test for add() fails. Find the bug, fix it, and run the tests.',
  '🤖 Let me find add().',
  '→ Search the files for "function add"',
  '← 1 file match',
  '→ Read src/math.js',
  '3:   return a - b;',
  '🤖 add() subtracts. Here is my plan.',
  '→ Plan 2 tasks: Fix add() in src/math.js, Run the tests',
  '│ ☐ 2. Run the tests',
  // The call, then the question about it, in this order.
  '→ Edit src/math.js',
  '⚠ Edit src/math.js:\n    -return a - b;\n    +return a + b;',
  PROMPT,
];

describe('npm run demo (offline): what the person sees', () => {
  it('approve, approve, undo: the narration and each call come before the question about it, the tests pass, undo restores the file', async () => {
    const { output, code } = await runDemo(['y', 'y', 'y']);

    expect(code, output).toBe(0);
    expectInOrder(output, [
      ...START,
      'y\n  ← Edited `src/math.js`: 1 replacement.',
      '│ ☑ 1. Fix add() in src/math.js',
      '🤖 Running the tests in the background.',
      '→ Run: node --test',
      '⚠ Run: node --test (in the background: it keeps running after this turn)',
      PROMPT,
      '← Started job 1 (node --test) in the background.\n',
      '→ Check on job 1',
      'Job 1 (node --test): exited 0',
      '│ ☑ 2. Run the tests',
      '🤖 Fixed add() in src/math.js (it subtracted); the tests pass.',
      "Undo the agent's changes to src/math.js? y = yes, n or Enter = no: y",
      'Undone:\n  ↺ src/math.js is back as it was',
      'src/math.js now reads:\n/** Adds two numbers. */\nexport function add(a, b) {\n  return a - b;\n}',
      'The sample project was removed',
    ]);
    expectNoModelText(output);
    expect(existsSync(sampleProject(output)), 'the temp folder is left behind').toBe(false);
  }, 120_000);

  it('deny with Enter: nothing changes, the agent says so in its own words, and no undo is offered', async () => {
    const { output, code } = await runDemo([''], { args: ['--keep'] });

    expect(code, output).toBe(0);
    expectInOrder(output, [
      ...START,
      '\n  ✗ Not run: you said no.',
      '🤖 OK, I left src/math.js as it was. The bug is on line 3: add() returns a - b instead of a + b.',
      'The sample project stays at',
    ]);
    expect(output).not.toContain('→ Run');
    expect(output).not.toContain('Undo');
    expectNoModelText(output);
    const folder = sampleProject(output);
    expect(await readFile(path.join(folder, 'src/math.js'), 'utf8')).toBe(BUGGY_MATH);
    await rm(folder, { recursive: true, force: true });
  }, 120_000);

  it('approve the edit, deny the tests with a reason, no undo: the reason reaches the agent, the fix stays', async () => {
    const { output, code } = await runDemo(['y', 'not now, the CI is busy', 'n'], { args: ['--keep'] });

    expect(code, output).toBe(0);
    expectInOrder(output, [
      ...START,
      '← Edited `src/math.js`',
      '⚠ Run: node --test',
      `${PROMPT}not now, the CI is busy\n  ✗ Not run: you said no.`,
      '🤖 I fixed add() in src/math.js but did not run the tests. You said: "not now, the CI is busy". Run `node --test` to check.',
      "Undo the agent's changes to src/math.js? y = yes, n or Enter = no: n",
      'The sample project stays at',
    ]);
    expect(output).not.toContain('Undone');
    expectNoModelText(output);
    const folder = sampleProject(output);
    expect(await readFile(path.join(folder, 'src/math.js'), 'utf8')).toBe(BUGGY_MATH.replace('a - b', 'a + b'));
    await rm(folder, { recursive: true, force: true });
  }, 120_000);

  it('always: each answer is confirmed to the person, the run goes on, Enter keeps the changes', async () => {
    const { output, code } = await runDemo(['a', 'a', '']);

    expect(code, output).toBe(0);
    const allowed = '✓ Allowed: the agent will not ask again for calls like this one in this session.';
    expectInOrder(output, [...START, `a\n  ${allowed}`, '← Edited `src/math.js`', '⚠ Run: node --test', `a\n  ${allowed}`, 'the tests pass.', "Undo the agent's changes to src/math.js?"]);
    expect(output).not.toContain('Undone');
    expectNoModelText(output);
  }, 120_000);

  it('takes piped answers without end (`yes y | npm run demo`) and exits when done', async () => {
    const script = `yes y | ${JSON.stringify(process.execPath)} --import tsx examples/demo/index.ts`;
    const env: Record<string, string | undefined> = { ...process.env };
    delete env.OPENAI_API_KEY;
    delete env.OPENAI_BASE_URL;
    const { stdout } = await run('bash', ['-c', script], { cwd: repository, env, timeout: 110_000, maxBuffer: 10_000_000 });
    expectInOrder(stdout, ['the tests pass.', 'Undone:', 'The sample project was removed']);
    expect(stdout).not.toContain('RangeError');
  }, 120_000);
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
      expect(output).toContain('→ List the project folder');
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
  }, 120_000);
});
