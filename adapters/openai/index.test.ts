import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAskUserTools, createSession, defineTool, denialText, restoreSession, ToolError, type ApprovalRequest, type ToolCollection } from '../../src/index.js';
import { toOpenAI, type ChatToolCall, type HandledToolCalls } from './index.js';

const log: string[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const readNote = defineTool({
  name: 'read_note', description: 'Reads a note.', kind: 'read',
  input: z.object({ name: z.string().describe('Note name') }),
  execute: async ({ name }) => {
    log.push(`start ${name}`);
    await sleep(40);
    log.push(`end ${name}`);
    return `note ${name}`;
  },
});
const writeNote = defineTool({
  name: 'write_note', description: 'Writes a note.', kind: 'edit', needsApproval: true,
  input: z.object({ name: z.string().describe('Note name'), text: z.string().describe('Content') }),
  execute: async ({ name, text }) => {
    log.push(`write ${name}`);
    await sleep(10);
    return `wrote ${name}: ${text}`;
  },
});
const search = defineTool({
  name: 'search', description: 'Searches.', kind: 'search',
  input: z.object({
    query: z.string().describe('What to find'),
    limit: z.number().int().positive().default(10).describe('Most results'),
    ignore_case: z.boolean().optional().describe('Ignore case'),
  }),
  execute: (input) => JSON.stringify(input),
});
const explode = defineTool({
  name: 'explode', description: 'Fails.', kind: 'other', input: z.object({ expected: z.boolean().describe('Expected failure') }),
  execute: ({ expected }) => {
    if (expected) throw new ToolError('The fuse is wet. Dry it and try again.');
    throw new Error('boom');
  },
});
const snapshot = defineTool({
  name: 'snapshot', description: 'Returns an image.', kind: 'read', input: z.object({}),
  execute: () => ({ text: 'One image.', images: [{ data: 'iVBORw0KGgo=', mediaType: 'image/png' }] }),
});
const ask = defineTool({
  name: 'ask_user_question', description: 'Asks the user.', kind: 'other',
  input: z.object({ question: z.string().describe('The question') }),
  execute: () => ({ text: 'No user interface can answer this.', isError: true }),
  answeredByClient: {
    toResult: (input, answer) => {
      const selected = (answer as { answers?: Array<{ selected?: string[] }> }).answers?.[0]?.selected;
      if (!Array.isArray(selected)) throw new ToolError('The answer had no selection.');
      return `The user answered "${input.question}" with: ${selected.join(', ')}`;
    },
  },
});

const notes: ToolCollection = {
  name: 'notes', tools: [readNote, writeNote, search, explode, snapshot, ask],
  instructions: 'Use notes.', context: (session) => session.state('ctx', () => ({ text: undefined as string | undefined })).text,
};

const call = (id: string, name: string, args: unknown): ChatToolCall => ({
  id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});

describe('toOpenAI specs', () => {
  it('builds Chat Completions specs with strict sent explicitly', () => {
    const belt = toOpenAI([notes], { api: 'chat' });
    expect(belt.tools.map((tool) => tool.function.name)).toEqual(['read_note', 'write_note', 'search', 'explode', 'snapshot', 'ask_user_question']);
    expect(belt.tools[2]).toEqual({
      type: 'function',
      function: {
        name: 'search', description: 'Searches.', strict: true,
        parameters: {
          type: 'object', additionalProperties: false, required: ['query', 'limit', 'ignore_case'],
          properties: {
            query: { type: 'string', description: 'What to find' },
            limit: { anyOf: [{ type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 }, { type: 'null' }], description: 'Most results. Optional: send null for the default, 10.' },
            ignore_case: { anyOf: [{ type: 'boolean' }, { type: 'null' }], description: 'Ignore case. Optional: send null to leave it out.' },
          },
        },
      },
    });
    expect(belt.instructions).toBe('Use notes.');
  });

  it('builds Responses specs, and loose ones with strict: false when asked', () => {
    const belt = toOpenAI([notes], { api: 'responses', strict: false });
    expect(belt.tools[0]).toEqual({
      type: 'function', name: 'read_note', description: 'Reads a note.', strict: false,
      parameters: { type: 'object', properties: { name: { type: 'string', description: 'Note name' } }, required: ['name'] },
    });
  });

  it('validates options and names, naming the option and the value', () => {
    expect(() => toOpenAI([notes], { api: 'completions' as 'chat' })).toThrow("Expected the `api` option to be 'chat' or 'responses', got `completions`.");
    expect(() => toOpenAI([notes], { api: 'chat', strict: 'yes' as unknown as boolean })).toThrow('Expected the `strict` option to be a boolean, got `yes` (string).');
    expect(() => toOpenAI([notes], { api: 'chat', mode: 'yolo' as 'auto' })).toThrow("Expected the `mode` option to be one of 'ask', 'accept-edits', 'plan', 'auto', got `yolo`.");
    expect(() => toOpenAI([notes], { api: 'chat', session: {} as never })).toThrow('Expected the `session` option to be a Session');
    expect(() => toOpenAI([notes], { api: 'chat', needsApproval: { write_note: 'no' as never } })).toThrow(
      'Expected `needsApproval.write_note` to be true, false or a function of the input, got `no` (string).',
    );
    expect(() => toOpenAI([notes], { api: 'chat', needsApproval: { edit_note: true } })).toThrow(
      /^Expected `needsApproval` to name tools of the collections, got `edit_note`; the tools are read_note, /,
    );
    expect(() => toOpenAI([notes], { api: 'chat', background: 'run_shell' as never })).toThrow(
      'Expected the `background` option to be an array of tool names, got `"run_shell"`.',
    );
    const dotted = { ...readNote, name: 'read.note' };
    expect(() => toOpenAI([{ name: 'bad', tools: [dotted] }], { api: 'chat' })).toThrow('Expected the tool name `read.note` to match /^[a-zA-Z0-9_-]{1,64}$/ for OpenAI function calling.');
  });
});

describe('handleToolCalls (chat)', () => {
  it('answers every call in order with its id, turning every kind of bad call into a readable error', async () => {
    const belt = toOpenAI([notes], { api: 'chat' });
    const { messages, pending } = await belt.handleToolCalls([
      call('c1', 'search', { query: 'a', limit: null, ignore_case: null }),
      call('c2', 'search', '{"query": "b",'),
      call('c3', 'nope', {}),
      call('c4', 'search', { limit: 'many' }),
      call('c5', 'explode', { expected: false }),
      call('c6', 'explode', { expected: true }),
      call('c7', 'search', { query: 'c', extra: 1, limit: 3 }),
      call('c8', 'search', '[1]'),
      { id: 'c9', type: 'custom' },
    ]);
    expect(pending).toEqual([]);
    expect(messages.map((message) => message.role === 'tool' && message.tool_call_id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9']);
    const texts = messages.map((message) => message.content);
    expect(texts[0]).toBe('{"query":"a","limit":10}');
    expect(texts[1]).toMatch(/^Error: The arguments for search are not valid JSON \(.+\)\. Call search again with a JSON object that matches its parameters\.$/);
    expect(texts[2]).toBe('Error: There is no tool named `nope`. Available tools: read_note, write_note, search, explode, snapshot, ask_user_question. Call one of them instead.');
    expect(texts[3]).toBe('Error: Invalid arguments for search: `query`: Invalid input: expected string, received undefined; `limit`: Invalid input: expected number, received string. Fix the arguments and call search again.');
    expect(texts[4]).toBe('Error: explode failed with an unexpected error: boom. This is not a problem with your input; try another approach or tell the user.');
    expect(texts[5]).toBe('Error: The fuse is wet. Dry it and try again.');
    // A key the tool does not take is refused before anything runs, never dropped (issue 26).
    expect(texts[6]).toBe('Error: You sent `extra`, which is not a field of search. Nothing was run. search takes `query`, `limit` (optional), `ignore_case` (optional). Call search again with those fields.');
    expect(texts[7]).toBe('Error: The arguments for search must be a JSON object, got an array. Call search again with a JSON object that matches its parameters.');
    expect(texts[8]).toMatch(/^Error: There is no tool named `\(custom call\)`/);
  });

  it('reads arguments a compatible server sent as an object or null instead of a JSON string, without throwing', async () => {
    const belt = toOpenAI([notes], { api: 'chat' });
    const { messages } = await belt.handleToolCalls([
      { id: 'o', type: 'function', function: { name: 'search', arguments: { query: 'a' } as never } },
      { id: 'n', type: 'function', function: { name: 'search', arguments: null as never } },
    ]);
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'o', content: '{"query":"a","limit":10}' },
      { role: 'tool', tool_call_id: 'n', content: 'Error: Invalid arguments for search: `query`: Invalid input: expected string, received undefined. Fix the arguments and call search again.' },
    ]);
    const responses = toOpenAI([notes], { api: 'responses' });
    const handled = await responses.handleToolCalls([{ type: 'function_call', call_id: 'o', name: 'search', arguments: { query: 'b' } as never }]);
    expect(handled.messages).toEqual([{ type: 'function_call_output', call_id: 'o', output: '{"query":"b","limit":10}' }]);
  });

  it("hands the core the model's arguments: strict mode's nulls dropped, every other key and a second encoding left to the core (issue 26)", async () => {
    const belt = toOpenAI([notes], { api: 'chat' });
    const { messages } = await belt.handleToolCalls([
      call('twice', 'search', JSON.stringify(JSON.stringify({ query: 'a', limit: null }))),
      call('text', 'search', { query: 'b', limit: '3', ignore_case: 'true' }),
      call('extra', 'search', { query: 'c', limit: null, extra: null }),
      call('camel', 'search', { query: 'd', limit: null, ignoreCase: true }),
      call('string', 'search', JSON.stringify('query: e')),
    ]);
    expect(messages.map((message) => message.content)).toEqual([
      '{"query":"a","limit":10}',
      '{"query":"b","limit":3,"ignore_case":true}',
      'Error: You sent `extra`, which is not a field of search. Nothing was run. search takes `query`, `limit` (optional), `ignore_case` (optional). Call search again with those fields.',
      '{"query":"d","limit":10,"ignore_case":true}\n\n(Read `ignoreCase` as `ignore_case`: send the fields by these names next time.)',
      'Error: The arguments for search must be a JSON object, got a string. Call search again with a JSON object that matches its parameters.',
    ]);
  });

  it('returns no messages for no calls', async () => {
    const belt = toOpenAI([notes], { api: 'chat' });
    expect(await belt.handleToolCalls(undefined)).toEqual({ messages: [], pending: [], outcomes: [] });
  });

  it('runs reads concurrently and writes alone, in the order the model gave', async () => {
    log.length = 0;
    const belt = toOpenAI([notes], { api: 'chat', mode: 'auto' });
    await belt.handleToolCalls([
      call('1', 'read_note', { name: 'a' }),
      call('2', 'read_note', { name: 'b' }),
      call('3', 'write_note', { name: 'a', text: 'x' }),
      call('4', 'read_note', { name: 'c' }),
    ]);
    expect(log).toEqual(['start a', 'start b', 'end a', 'end b', 'write a', 'start c', 'end c']);
  });

  it('sends images after the tool messages in one user message', async () => {
    const belt = toOpenAI([notes], { api: 'chat' });
    const { messages } = await belt.handleToolCalls([call('i1', 'snapshot', {})]);
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'i1', content: 'One image.\n(1 image from this call follow in the next message.)' },
      { role: 'user', content: [
        { type: 'text', text: 'Images returned by snapshot (call i1):' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ] },
    ]);
  });
});

describe('approval', () => {
  it('asks onApproval and tells the model about a denial', async () => {
    const requests: ApprovalRequest[] = [];
    const belt = toOpenAI([notes], { api: 'chat', onApproval: (request) => (requests.push(request), { type: 'deny', reason: 'not now' }) });
    const { messages } = await belt.handleToolCalls([call('w1', 'write_note', { name: 'a', text: 'x' })]);
    expect(requests).toEqual([expect.objectContaining({ toolName: 'write_note', toolCallId: 'w1', input: { name: 'a', text: 'x' } })]);
    expect(messages).toEqual([{ role: 'tool', tool_call_id: 'w1', content: `Error: ${denialText('write_note', 'not now')}` }]);
  });

  it('returns calls needing approval as pending, runs the rest, and resolves them later from stored JSON', async () => {
    log.length = 0;
    const session = createSession();
    const first = toOpenAI([notes], { api: 'chat', session });
    const handled = await first.handleToolCalls([
      call('r1', 'search', { query: 'q', limit: null, ignore_case: null }),
      call('w1', 'write_note', { name: 'a', text: 'x' }),
      call('w2', 'write_note', { name: 'b', text: 'y' }),
    ]);
    expect(log).toEqual([]);
    expect(handled.messages).toEqual([{ role: 'tool', tool_call_id: 'r1', content: '{"query":"q","limit":10}' }]);
    expect(handled.pending).toEqual([
      { type: 'approval', callId: 'w1', toolName: 'write_note', input: { name: 'a', text: 'x' }, request: expect.objectContaining({ toolName: 'write_note', toolCallId: 'w1', kind: 'edit' }) },
      { type: 'approval', callId: 'w2', toolName: 'write_note', input: { name: 'b', text: 'y' }, request: expect.objectContaining({ toolCallId: 'w2' }) },
    ]);

    // A stateless host stores the result and the session, then answers in the next request.
    const stored = JSON.parse(JSON.stringify(handled)) as HandledToolCalls<never>;
    const second = toOpenAI([notes], { api: 'chat', session: restoreSession(JSON.stringify(session)) });
    const partly = await second.resolvePending(stored, { w2: 'deny' });
    expect(partly.pending.map((pending) => pending.callId)).toEqual(['w1']);
    const done = await second.resolvePending(partly, { w1: 'always' });
    expect(done.pending).toEqual([]);
    expect(done.messages).toEqual([
      { role: 'tool', tool_call_id: 'r1', content: '{"query":"q","limit":10}' },
      { role: 'tool', tool_call_id: 'w1', content: 'wrote a: x' },
      { role: 'tool', tool_call_id: 'w2', content: `Error: ${denialText('write_note')}` },
    ]);
    expect(log).toEqual(['write a']);
    expect(second.session.approvals).toEqual(['write_note']);
  });

  it('runs an edited call with the new arguments', async () => {
    const belt = toOpenAI([notes], { api: 'chat' });
    const handled = await belt.handleToolCalls([call('w1', 'write_note', { name: 'a', text: 'x' })]);
    const done = await belt.resolvePending(handled, { w1: { type: 'edit', input: { name: 'a', text: 'edited' } } });
    expect(done.messages).toEqual([{ role: 'tool', tool_call_id: 'w1', content: 'wrote a: edited' }]);
  });

  it('throws for host mistakes: an unknown call id or an answer that is not a decision', async () => {
    const belt = toOpenAI([notes], { api: 'chat' });
    const handled = await belt.handleToolCalls([call('w1', 'write_note', { name: 'a', text: 'x' })]);
    await expect(belt.resolvePending(handled, { nope: 'approve' })).rejects.toThrow('No pending call has the id `nope`. Pending calls: w1.');
    await expect(belt.resolvePending(handled, { w1: 'yes' })).rejects.toThrow(
      "Expected the answer for call `w1` to be an approval decision ('approve', 'always', 'deny', { type: 'deny', reason } or { type: 'edit', input }), got \"yes\".",
    );
  });

  it('hands client-answered tools to the host and turns the answer into the result', async () => {
    const belt = toOpenAI([notes], { api: 'responses', onApproval: () => 'approve' });
    const handled = await belt.handleToolCalls([{ type: 'function_call', call_id: 'q1', name: 'ask_user_question', arguments: '{"question":"Tabs?"}' }]);
    expect(handled.pending).toEqual([{ type: 'client', callId: 'q1', toolName: 'ask_user_question', input: { question: 'Tabs?' } }]);
    expect(handled.messages).toEqual([]);
    const done = await belt.resolvePending(handled, { q1: { answers: [{ selected: ['Spaces'] }] } });
    expect(done.messages).toEqual([{ type: 'function_call_output', call_id: 'q1', output: 'The user answered "Tabs?" with: Spaces' }]);
    const bad = await belt.resolvePending(handled, { q1: {} });
    expect(bad.messages).toEqual([{ type: 'function_call_output', call_id: 'q1', output: 'Error: The answer had no selection.' }]);
  });
});

describe('cancellation', () => {
  it('passes the signal to running tools, which stop and report it', async () => {
    const wait = defineTool({
      name: 'wait', description: 'Waits.', kind: 'read', input: z.object({}),
      execute: (_input, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => resolve({ text: 'Stopped early.', isError: true }))),
    });
    const belt = toOpenAI([{ name: 'wait', tools: [wait] }], { api: 'chat' });
    const controller = new AbortController();
    const running = belt.handleToolCalls([call('w', 'wait', {})], { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect((await running).messages).toEqual([{ role: 'tool', tool_call_id: 'w', content: 'Error: Stopped early.' }]);
  });
});

describe('the built-in ask_user_question', () => {
  it('comes back pending and turns the client answer into its result', async () => {
    const belt = toOpenAI([createAskUserTools()], { api: 'chat' });
    const questions = [{ question: 'Which database?', header: 'Database', options: [{ label: 'Postgres', description: null }, { label: 'SQLite', description: null }], multi_select: null }];
    const handled = await belt.handleToolCalls([call('q', 'ask_user_question', { questions })]);
    expect(handled.pending).toEqual([{ type: 'client', callId: 'q', toolName: 'ask_user_question', input: expect.objectContaining({ questions: [expect.objectContaining({ question: 'Which database?' })] }) }]);
    const done = await belt.resolvePending(handled, { q: { answers: [{ selected: ['SQLite'] }] } });
    expect(done.outcomes[0].result).toMatchObject({ isError: false, text: expect.stringContaining('SQLite') });
    expect(done.messages).toEqual([{ role: 'tool', tool_call_id: 'q', content: done.outcomes[0].result!.text }]);
  });
});

describe('handleToolCalls (responses)', () => {
  it('answers function_call items with function_call_output items, skipping other output items, images as input_image', async () => {
    const belt = toOpenAI([notes], { api: 'responses' });
    const handled = await belt.handleToolCalls([
      { type: 'reasoning' },
      { type: 'function_call', call_id: 'a', name: 'search', arguments: '{"query":"x","limit":null,"ignore_case":true}' },
      { type: 'message' },
      { type: 'function_call', call_id: 'b', name: 'snapshot', arguments: '{}' },
      { type: 'function_call', call_id: 'c', name: 'write_note', arguments: '{"name":"n","text":"t"}' },
    ]);
    expect(handled.pending.map((pending) => pending.callId)).toEqual(['c']);
    expect(handled.messages).toEqual([
      { type: 'function_call_output', call_id: 'a', output: '{"query":"x","limit":10,"ignore_case":true}' },
      { type: 'function_call_output', call_id: 'b', output: [
        { type: 'input_text', text: 'One image.' },
        { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
      ] },
    ]);
  });
});

describe('contextMessage', () => {
  it('is null without context and one message with it, in the chosen role', async () => {
    const session = createSession();
    const belt = toOpenAI([notes], { api: 'chat', session, contextRole: 'developer' });
    expect(await belt.contextMessage()).toBeNull();
    session.state('ctx', () => ({ text: undefined as string | undefined })).text = 'Today is Monday.';
    expect(await belt.contextMessage()).toEqual({ role: 'developer', content: '<context>\nToday is Monday.\n</context>' });
  });
});

describe('warnings', () => {
  it('warns on the console when a tool falls back to strict: false', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const env = defineTool({ name: 'env', description: 'Env.', kind: 'other', input: z.object({ vars: z.record(z.string(), z.string()) }), execute: () => 'ok' });
    const belt = toOpenAI([{ name: 'env', tools: [env] }], { api: 'responses' });
    expect(belt.tools[0].strict).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
