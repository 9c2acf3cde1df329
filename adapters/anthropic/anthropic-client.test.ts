import Anthropic from '@anthropic-ai/sdk';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFileTools, createSession, createShellTools, createDateTimeTools, defineTool, Workspace, type ApprovalRequest, type ToolCollection } from '../../src/index.js';
import { toAnthropic, type AnthropicToolbelt } from './index.js';
import { messageReply, startScriptedServer, type ScriptedServer } from './test-support/scripted-server.js';

let server: ScriptedServer | undefined;
let base: string;
let root: string;
let workspace: Workspace;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-anthropic-')));
  root = path.join(base, 'root');
  await fs.mkdir(root);
  await fs.writeFile(path.join(root, 'notes.txt'), 'alpha\nbeta\n');
  workspace = new Workspace(root);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await fs.rm(base, { recursive: true, force: true });
});

/** The loop the README shows: call, run the tool uses, send the results (context last), until Claude answers in text. */
async function converse(belt: AnthropicToolbelt, steps: number, answer?: (pending: Awaited<ReturnType<AnthropicToolbelt['handleToolUses']>>) => Promise<Awaited<ReturnType<AnthropicToolbelt['handleToolUses']>>>) {
  const client = new Anthropic({ apiKey: 'test-key', baseURL: server!.baseURL, maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Go.' }];
  for (let step = 0; step < steps; step++) {
    const reply = await client.messages.create({ model: 'scripted', max_tokens: 1024, system: belt.instructions, messages, tools: belt.tools });
    messages.push({ role: 'assistant', content: reply.content });
    if (reply.stop_reason !== 'tool_use') break;
    let handled = await belt.handleToolUses(reply.content);
    if (handled.pending.length > 0 && answer !== undefined) handled = await answer(handled);
    const context = await belt.contextBlock();
    messages.push({ role: 'user', content: context === null ? handled.content : [...handled.content, context] });
  }
  return messages;
}

const lastUserContent = () => server!.requests.at(-1)!.body.messages.at(-1).content as any[];

describe('toAnthropic with the real @anthropic-ai/sdk client', () => {
  it('sends our tools as custom tools and answers tool_use blocks with tool_result blocks in call order, errors flagged, context last', async () => {
    server = await startScriptedServer([
      messageReply({ text: 'Reading.', calls: [['read_file', { path: 'notes.txt' }], ['read_file', { path: '../outside.txt' }], ['read_fiel', {}]] }),
      messageReply({ text: 'Done.' }),
    ]);
    const dates = createDateTimeTools();
    const belt = toAnthropic([createFileTools({ workspace }), dates], { session: createSession() });
    await converse(belt, 3);

    const firstBody = server.requests[0]!.body;
    const readFile = firstBody.tools.find((tool: any) => tool.name === 'read_file');
    expect(readFile).toMatchObject({ name: 'read_file', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } });
    expect(readFile.input_schema.$schema).toBeUndefined();
    expect(firstBody.system).toBe(belt.instructions);

    const content = lastUserContent();
    expect(content.map((block) => [block.type, block.tool_use_id, block.is_error ?? false])).toEqual([
      ['tool_result', 'toolu_1', false],
      ['tool_result', 'toolu_2', true],
      ['tool_result', 'toolu_3', true],
      ['text', undefined, false],
    ]);
    expect(content[0].content).toBe('notes.txt: lines 1-2 of 2 (end of file).\n1: alpha\n2: beta');
    expect(content[1].content).toContain('is outside the workspace');
    expect(content[2].content).toContain('There is no tool named `read_fiel`');
    expect(content[3].text).toMatch(/^<context>\n[\s\S]*\n<\/context>$/);
  });

  it("hands each tool_use's input to the core as sent: an alias mapped, an unknown key refused, JSON text from a proxy read (issue 26)", async () => {
    const belt = toAnthropic([createFileTools({ workspace })], { session: createSession() });
    const use = (id: string, input: unknown) => ({ type: 'tool_use' as const, id, name: 'read_file', input });
    const { content } = await belt.handleToolUses([
      use('alias', { file_path: 'notes.txt', end_line: '1' }),
      use('extra', { path: 'notes.txt', encoding: 'utf-8' }),
      use('text', '{"path": "notes.txt"}'),
      use('twice', JSON.stringify(JSON.stringify({ path: 'notes.txt', start_line: 2 }))),
    ] as never);
    expect(content.map((block: any) => [block.tool_use_id, block.is_error ?? false, block.content])).toEqual([
      ['alias', false, 'notes.txt: line 1 of 2. More follows: continue with start_line=2.\n1: alpha\n\n(Read `file_path` as `path`: send the fields by these names next time.)'],
      ['extra', true, 'You sent `encoding`, which is not a field of read_file. Nothing was run. read_file takes `path`, `start_line` (optional), `end_line` (optional). Call read_file again with those fields.'],
      ['text', false, 'notes.txt: lines 1-2 of 2 (end of file).\n1: alpha\n2: beta'],
      ['twice', false, 'notes.txt: line 2 of 2 (end of file).\n2: beta'],
    ]);
  });

  it('returns images as image blocks inside the tool_result', async () => {
    const pixel = Buffer.from('iVBORw0KGgo=', 'base64').toString('base64');
    const snapshot: ToolCollection = {
      name: 'camera',
      tools: [defineTool({ name: 'snapshot', description: 'Takes a picture.', kind: 'read', input: z.object({}), execute: () => ({ text: 'One picture.', images: [{ data: pixel, mediaType: 'image/png' }] }) })],
    };
    server = await startScriptedServer([messageReply({ calls: [['snapshot', {}]] }), messageReply({ text: 'Done.' })]);
    await converse(toAnthropic([snapshot]), 2);
    expect(lastUserContent()[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [{ type: 'text', text: 'One picture.' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pixel } }],
    });
  });

  it('with native: true, sends the text editor and bash, and runs str_replace_based_edit_tool calls under the jail and read-before-write', async () => {
    const files = createFileTools({ workspace, keepBackups: true });
    const shell = createShellTools({ workspace });
    server = await startScriptedServer([
      messageReply({ calls: [['str_replace_based_edit_tool', { command: 'str_replace', path: 'notes.txt', old_str: 'beta', new_str: 'gamma' }]] }),
      messageReply({ calls: [['str_replace_based_edit_tool', { command: 'view', path: 'notes.txt' }], ['str_replace_based_edit_tool', { command: 'str_replace', path: 'notes.txt', old_str: 'beta', new_str: 'gamma' }]] }),
      messageReply({ calls: [['str_replace_based_edit_tool', { command: 'create', path: '../escape.txt', file_text: 'x' }]] }),
      messageReply({ text: 'Done.' }),
    ]);
    const belt = toAnthropic([files, shell], { native: { maxCharacters: 5_000 }, mode: 'auto' });
    await converse(belt, 4);

    const tools = server.requests[0]!.body.tools as any[];
    expect(tools.filter((tool) => tool.type !== undefined)).toEqual([
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 5_000 },
      { type: 'bash_20250124', name: 'bash' },
    ]);
    expect(tools.map((tool) => tool.name)).not.toContain('read_file');
    expect(tools.map((tool) => tool.name)).not.toContain('run_shell');
    expect(tools.map((tool) => tool.name)).toContain('find_files');

    const [first, second, third] = [1, 2, 3].map((index) => server!.requests[index]!.body.messages.at(-1).content as any[]);
    expect(first![0]).toMatchObject({ tool_use_id: 'toolu_1', is_error: true, content: expect.stringContaining('Read it with the view command first') });
    expect(second!.map((block) => block.is_error ?? false)).toEqual([false, false]);
    expect(second![1].content).toContain('Edited `notes.txt`: 1 replacement.');
    expect(third![0]).toMatchObject({ is_error: true, content: expect.stringContaining('is outside the workspace') });
    expect(await fs.readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('alpha\ngamma\n');
    await expect(fs.stat(path.join(base, 'escape.txt'))).rejects.toThrow();
  });

  it('leaves a bash call that needs approval pending, then runs it once resolvePending approves', async () => {
    const shell = createShellTools({ workspace });
    server = await startScriptedServer([messageReply({ calls: [['bash', { command: 'echo from-bash' }]] }), messageReply({ text: 'Done.' })]);
    const belt = toAnthropic([shell], { native: true });
    const asked: ApprovalRequest[] = [];
    await converse(belt, 2, async (handled) => {
      expect(handled.content).toEqual([]);
      expect(handled.pending).toMatchObject([{ type: 'approval', callId: 'toolu_1', toolName: 'bash', request: { description: 'Run: echo from-bash' } }]);
      asked.push(...handled.pending.flatMap((call) => (call.type === 'approval' ? [call.request] : [])));
      return belt.resolvePending(handled, { toolu_1: 'approve' });
    });
    expect(asked).toHaveLength(1);
    const [result] = lastUserContent();
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });
    expect(result.content).toContain('from-bash');
  });

  it('checks its options where they are given', () => {
    expect(() => toAnthropic([], { native: 'yes' as never })).toThrow('Expected the `native` option to be true, false or `{ maxCharacters }`, got `yes` (string).');
    expect(() => toAnthropic([], { native: true })).toThrow('`native: true` offers the files and shell collections');
    expect(() => toAnthropic([createShellTools({ workspace })], { native: true, background: ['run_shell'] })).toThrow('leave `run_shell` out of `background`');
    expect(() => toAnthropic([createFileTools({ workspace })], { needsApproval: { edit_fil: true } })).toThrow('Expected `needsApproval` to name tools of the collections, got `edit_fil`');
  });
});
