import { anthropic as anthropicProvider, createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI, openai as openaiProvider } from '@ai-sdk/openai';
import { generateText, isStepCount } from 'ai';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileTools, createSession, createShellTools, Workspace, type ApprovalRequest } from '../../src/index.js';
import { toAiSdk } from './index.js';

let base: string;
let root: string;
let workspace: Workspace;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-ai-sdk-native-')));
  root = path.join(base, 'root');
  await fs.mkdir(root);
  await fs.writeFile(path.join(root, 'notes.txt'), 'alpha\nbeta\n');
  workspace = new Workspace(root);
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

/** A `fetch` that records each request body and answers with the next scripted JSON body. */
function scriptedFetch(replies: readonly unknown[]) {
  const bodies: any[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body ?? '{}')));
    const reply = replies[bodies.length - 1];
    if (reply === undefined) return new Response(JSON.stringify({ error: { message: 'The script has no more replies.' } }), { status: 500 });
    return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch: fetch as typeof globalThis.fetch, bodies };
}

const claudeReply = (content: unknown[]) => ({
  id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content,
  stop_reason: content.some((block: any) => block.type === 'tool_use') ? 'tool_use' : 'end_turn', stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});
const toolUse = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });

const responsesReply = (output: unknown[]) => ({
  id: 'resp_1', object: 'response', created_at: 1_700_000_000, model: 'gpt-5.1', status: 'completed', error: null, incomplete_details: null,
  output: output.length > 0 ? output : [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }],
  usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
});

describe('toAiSdk native: Claude\'s text editor and bash through the real @ai-sdk/anthropic', () => {
  it('sends the provider\'s tool types, runs the calls in the core (a jail refusal, a real edit) and sends the results as tool_result blocks', async () => {
    const { fetch, bodies } = scriptedFetch([
      claudeReply([toolUse('toolu_1', 'str_replace_based_edit_tool', { command: 'view', path: 'notes.txt' }), toolUse('toolu_2', 'str_replace_based_edit_tool', { command: 'create', path: '../escape.txt', file_text: 'x' })]),
      claudeReply([toolUse('toolu_3', 'str_replace_based_edit_tool', { command: 'str_replace', path: 'notes.txt', old_str: 'beta', new_str: 'gamma' })]),
      claudeReply([{ type: 'text', text: 'Done.' }]),
    ]);
    const belt = toAiSdk([createFileTools({ workspace }), createShellTools({ workspace })], { session: createSession(), native: { anthropic: anthropicProvider.tools }, mode: 'auto' });
    expect(Object.keys(belt.tools).sort()).toEqual(['bash', 'delete_file', 'find_files', 'list_directory', 'move_file', 'search_files', 'str_replace_based_edit_tool']);

    await generateText({ model: createAnthropic({ apiKey: 'test-key', fetch })('claude-sonnet-4-5'), tools: belt.tools, prompt: 'Fix the notes.', stopWhen: isStepCount(5) });

    const sentTools = bodies[0].tools as any[];
    expect(sentTools).toEqual(expect.arrayContaining([
      expect.objectContaining({ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' }),
      expect.objectContaining({ type: 'bash_20250124', name: 'bash' }),
    ]));
    expect(sentTools.map((tool) => tool.name)).not.toContain('read_file');

    const results = (bodies[1].messages.at(-1).content as any[]).filter((block) => block.type === 'tool_result');
    expect(results.map((block) => [block.tool_use_id, block.is_error ?? false])).toEqual([['toolu_1', false], ['toolu_2', true]]);
    expect(JSON.stringify(results[0].content)).toContain('1: alpha');
    expect(JSON.stringify(results[1].content)).toContain('is outside the workspace');
    const edit = (bodies[2].messages.at(-1).content as any[]).find((block) => block.type === 'tool_result');
    expect(JSON.stringify(edit.content)).toContain('Edited `notes.txt`: 1 replacement.');
    expect(await fs.readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('alpha\ngamma\n');
    await expect(fs.stat(path.join(base, 'escape.txt'))).rejects.toThrow();
  });

  it('asks through the SDK\'s approval flow for bash, and through onApproval when given', async () => {
    const first = scriptedFetch([claudeReply([toolUse('toolu_1', 'bash', { command: 'echo from-bash' })])]);
    const flow = toAiSdk([createShellTools({ workspace })], { session: createSession(), native: { anthropic: anthropicProvider.tools } });
    const asked = await generateText({ model: createAnthropic({ apiKey: 'test-key', fetch: first.fetch })('claude-sonnet-4-5'), tools: flow.tools, prompt: 'Run it.', stopWhen: isStepCount(3) });
    expect(asked.content.filter((part) => part.type === 'tool-approval-request')).toHaveLength(1);

    const requests: ApprovalRequest[] = [];
    const second = scriptedFetch([claudeReply([toolUse('toolu_1', 'bash', { command: 'echo from-bash' })]), claudeReply([{ type: 'text', text: 'Done.' }])]);
    const callback = toAiSdk([createShellTools({ workspace })], { session: createSession(), native: { anthropic: anthropicProvider.tools }, onApproval: (request) => (requests.push(request), 'approve') });
    await generateText({ model: createAnthropic({ apiKey: 'test-key', fetch: second.fetch })('claude-sonnet-4-5'), tools: callback.tools, prompt: 'Run it.', stopWhen: isStepCount(3) });
    expect(requests.map((request) => [request.toolName, request.description])).toEqual([['bash', 'Run: echo from-bash']]);
    expect(JSON.stringify(second.bodies[1].messages.at(-1).content)).toContain('from-bash');
  });
});

describe('toAiSdk native: apply_patch and shell through the real @ai-sdk/openai', () => {
  it('sends the provider\'s tool types, runs the calls in the core and sends apply_patch_call_output and shell_call_output items', async () => {
    const { fetch, bodies } = scriptedFetch([
      responsesReply([
        { type: 'function_call', id: 'fc_1', call_id: 'call_read', name: 'read_file', arguments: JSON.stringify({ path: 'notes.txt' }), status: 'completed' },
      ]),
      responsesReply([
        { type: 'apply_patch_call', id: 'apc_1', call_id: 'call_patch', status: 'completed', operation: { type: 'update_file', path: 'notes.txt', diff: '@@\n alpha\n-beta\n+gamma\n' } },
        { type: 'apply_patch_call', id: 'apc_2', call_id: 'call_escape', status: 'completed', operation: { type: 'create_file', path: '../escape.txt', diff: '+x\n' } },
        { type: 'shell_call', id: 'sh_1', call_id: 'call_shell', status: 'completed', action: { commands: ['echo hi'], timeout_ms: 5_000, max_output_length: 100 } },
      ]),
      responsesReply([]),
    ]);
    const requests: ApprovalRequest[] = [];
    const belt = toAiSdk([createFileTools({ workspace }), createShellTools({ workspace })], {
      session: createSession(),
      native: { openai: openaiProvider.tools },
      onApproval: (request) => (requests.push(request), 'approve'),
    });

    await generateText({ model: createOpenAI({ apiKey: 'test-key', fetch }).responses('gpt-5.1'), tools: belt.tools, prompt: 'Fix the notes.', stopWhen: isStepCount(5) });

    expect((bodies[0].tools as any[]).filter((tool) => tool.type !== 'function')).toEqual([{ type: 'apply_patch' }, { type: 'shell' }]);
    const outputs = (bodies[2].input as any[]).filter((item) => item.type === 'apply_patch_call_output' || item.type === 'shell_call_output');
    expect(outputs).toEqual([
      expect.objectContaining({ type: 'apply_patch_call_output', call_id: 'call_patch', status: 'completed' }),
      expect.objectContaining({ type: 'apply_patch_call_output', call_id: 'call_escape', status: 'failed', output: expect.stringContaining('is outside the workspace') }),
      { type: 'shell_call_output', call_id: 'call_shell', max_output_length: 100, output: [{ stdout: 'hi', stderr: '', outcome: { type: 'exit', exit_code: 0 } }] },
    ]);
    expect(requests.map((request) => request.toolName)).toEqual(['shell']);
    expect(await fs.readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('alpha\ngamma\n');
    await expect(fs.stat(path.join(base, 'escape.txt'))).rejects.toThrow();
  });

  it("passes the text editor's maxCharacters to the provider, which sends it as max_characters", async () => {
    const { fetch, bodies } = scriptedFetch([claudeReply([{ type: 'text', text: 'Done.' }])]);
    const belt = toAiSdk([createFileTools({ workspace })], { session: createSession(), native: { anthropic: anthropicProvider.tools, maxCharacters: 4_000 } });
    await generateText({ model: createAnthropic({ apiKey: 'test-key', fetch })('claude-sonnet-4-5'), tools: belt.tools, prompt: 'Hi.' });
    expect((bodies[0].tools as any[]).find((tool) => tool.name === 'str_replace_based_edit_tool')).toMatchObject({ type: 'text_editor_20250728', max_characters: 4_000 });
  });

  it('refuses a native option that names no provider, or both', () => {
    const files = createFileTools({ workspace });
    expect(() => toAiSdk([files], { session: createSession(), native: {} as never })).toThrow('Expected the `native` option to name one provider\'s tool factories');
    expect(() => toAiSdk([files], { session: createSession(), native: { openai: {} as never } })).toThrow('Expected `native.openai` to be `openai.tools` from @ai-sdk/openai, which has `applyPatch`');
    expect(() => toAiSdk([files], { session: createSession(), native: { openai: {} as never }, background: ['run_shell'] })).toThrow('leave `run_shell` out of `background`, or leave `native` out');
    expect(() => toAiSdk([files], { session: createSession(), native: { openai: {} as never }, background: { tools: ['run_shell'] } })).toThrow('leave `run_shell` out of `background`');
  });
});
