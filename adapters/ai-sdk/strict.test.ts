import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount, wrapLanguageModel } from 'ai';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileTools, createSession, Workspace } from '../../src/index.js';
import { toAiSdk } from './index.js';

let base: string;
let workspace: Workspace;
beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-ai-sdk-strict-')));
  await fs.writeFile(path.join(base, 'notes.txt'), 'alpha\nbeta\ngamma\n');
  workspace = new Workspace(base);
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

function scriptedFetch(replies: readonly unknown[]) {
  const bodies: any[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body ?? '{}')));
    const reply = replies[bodies.length - 1];
    return new Response(JSON.stringify(reply ?? { error: { message: 'no more replies' } }), { status: reply === undefined ? 500 : 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch: fetch as typeof globalThis.fetch, bodies };
}

const responsesReply = (output: unknown[]) => ({
  id: 'resp_1', object: 'response', created_at: 1_700_000_000, model: 'gpt-5.1', status: 'completed', error: null, incomplete_details: null,
  output: output.length > 0 ? output : [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }],
  usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
});

describe('toAiSdk strict schemas', () => {
  it('sends strict: true with strict-mode schemas to an OpenAI model, and drops the nulls it sends for left-out fields', async () => {
    const { fetch, bodies } = scriptedFetch([
      responsesReply([{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'read_file', status: 'completed', arguments: JSON.stringify({ path: 'notes.txt', start_line: 2, end_line: null }) }]),
      responsesReply([]),
    ]);
    const belt = toAiSdk([createFileTools({ workspace })], { session: createSession() });
    const model = wrapLanguageModel({ model: createOpenAI({ apiKey: 'test-key', fetch }).responses('gpt-5.1'), middleware: belt.middleware });
    await generateText({ model, tools: belt.tools, prompt: 'Read.', stopWhen: isStepCount(3) });

    const readFile = (bodies[0].tools as any[]).find((tool) => tool.name === 'read_file');
    expect(readFile.strict).toBe(true);
    expect(readFile.parameters).toMatchObject({ additionalProperties: false, required: ['path', 'start_line', 'end_line'] });
    expect(readFile.parameters.properties.end_line.anyOf).toEqual(expect.arrayContaining([{ type: 'null' }]));
    const output = (bodies[1].input as any[]).find((item) => item.type === 'function_call_output');
    expect(output.output).toBe('notes.txt: lines 2-3 of 3 (end of file).\n2: beta\n3: gamma');
  });

  it("leaves other providers' tools as they are under 'auto', and OpenAI's with strict: false", async () => {
    const claude = scriptedFetch([{ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } }]);
    const belt = toAiSdk([createFileTools({ workspace })], { session: createSession() });
    await generateText({ model: wrapLanguageModel({ model: createAnthropic({ apiKey: 'test-key', fetch: claude.fetch })('claude-sonnet-4-5'), middleware: belt.middleware }), tools: belt.tools, prompt: 'Hi.' });
    expect((claude.bodies[0].tools as any[]).find((tool) => tool.name === 'read_file').strict).toBeUndefined();

    const gpt = scriptedFetch([responsesReply([])]);
    const off = toAiSdk([createFileTools({ workspace })], { session: createSession(), strict: false });
    await generateText({ model: wrapLanguageModel({ model: createOpenAI({ apiKey: 'test-key', fetch: gpt.fetch }).responses('gpt-5.1'), middleware: off.middleware }), tools: off.tools, prompt: 'Hi.' });
    expect((gpt.bodies[0].tools as any[]).find((tool) => tool.name === 'read_file').strict).toBe(false);
    expect(() => toAiSdk([], { session: createSession(), strict: 'yes' as never })).toThrow("Expected the `strict` option to be true, false or 'auto', got `yes` (string).");
  });
});
