import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSession, defineTool, denialText, type ToolCollection } from '../../src/index.js';
import { openaiVision, toOpenAI } from './index.js';
import { chatReply, responsesReply, startScriptedServer, type ScriptedServer } from './test-support/scripted-server.js';

const notes = new Map<string, string>([['todo', 'buy milk']]);
const collection: ToolCollection = {
  name: 'notes',
  instructions: 'Keep notes short.',
  context: () => `Notes: ${[...notes.keys()].join(', ')}`,
  tools: [
    defineTool({
      name: 'read_note', description: 'Reads a note.', kind: 'read',
      input: z.object({ name: z.string().describe('Note name'), upper: z.boolean().default(false).describe('Upper-case it') }),
      execute: ({ name, upper }) => {
        const text = notes.get(name);
        if (text === undefined) return { text: `No note named ${name}.`, isError: true };
        return upper ? text.toUpperCase() : text;
      },
    }),
    defineTool({
      name: 'write_note', description: 'Writes a note.', kind: 'edit', needsApproval: true,
      input: z.object({ name: z.string().describe('Note name'), text: z.string().describe('Content') }),
      execute: ({ name, text }) => (notes.set(name, text), `Saved ${name}.`),
    }),
  ],
};

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clientFor = (baseURL: string) => new OpenAI({ apiKey: 'test-key', baseURL, maxRetries: 0 });

describe('the real openai client against a scripted server', () => {
  it('runs a Chat Completions tool loop: strict specs out, tool messages back with their ids', async () => {
    server = await startScriptedServer([
      chatReply({ calls: [['read_note', { name: 'todo', upper: null }], ['read_note', '{"name": '], ['forget', {}], ['read_note', { name: 'todo', upper: true, extra: 1 }]] }),
      chatReply({ text: 'Your note says: buy milk' }),
    ]);
    const client = clientFor(server.baseURL);
    const belt = toOpenAI([collection], { api: 'chat', session: createSession() });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: belt.instructions }, { role: 'user', content: 'What is on my todo note?' }];

    for (let step = 0; step < 5; step++) {
      const context = await belt.contextMessage();
      const completion = await client.chat.completions.create({ model: 'scripted', messages: context ? [...messages, context] : messages, tools: belt.tools });
      const message = completion.choices[0].message;
      messages.push(message);
      if (!message.tool_calls?.length) break;
      const { messages: results } = await belt.handleToolCalls(message.tool_calls);
      messages.push(...results);
    }

    const [first, second] = server.requests;
    expect(first.path).toBe('/v1/chat/completions');
    expect(first.body.tools[0]).toEqual({
      type: 'function',
      function: expect.objectContaining({ name: 'read_note', strict: true, parameters: expect.objectContaining({ additionalProperties: false, required: ['name', 'upper'] }) }),
    });
    expect(first.body.messages.at(-1)).toEqual({ role: 'user', content: '<context>\nNotes: todo\n</context>' });
    const toolMessages = second.body.messages.filter((message: { role: string }) => message.role === 'tool');
    expect(toolMessages.map((message: { tool_call_id: string }) => message.tool_call_id)).toEqual(['call_1', 'call_2', 'call_3', 'call_4']);
    expect(toolMessages[0].content).toBe('buy milk');
    expect(toolMessages[1].content).toMatch(/^Error: The arguments for read_note are not valid JSON/);
    expect(toolMessages[2].content).toBe('Error: There is no tool named `forget`. Available tools: read_note, write_note. Call one of them instead.');
    // A key the tool does not take is refused before anything runs, never dropped (issue 26).
    expect(toolMessages[3].content).toBe('Error: You sent `extra`, which is not a field of read_note. Nothing was run. read_note takes `name`, `upper` (optional). Call read_note again with those fields.');
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Your note says: buy milk' });
  });

  it('runs a Responses API loop: function_call_output items with the call ids, and a denial the model reads', async () => {
    server = await startScriptedServer([
      responsesReply({ calls: [['write_note', { name: 'todo', text: 'sell milk' }], ['read_note', { name: 'todo', upper: null }]] }),
      responsesReply({ text: 'I was not allowed to change it.' }),
    ]);
    const client = clientFor(server.baseURL);
    const belt = toOpenAI([collection], { api: 'responses', onApproval: () => ({ type: 'deny', reason: 'keep it' }) });
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Change my todo note.' }];

    let response = await client.responses.create({ model: 'scripted', instructions: belt.instructions, input, tools: belt.tools });
    while (response.output.some((item) => item.type === 'function_call')) {
      input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]));
      const { messages: outputs } = await belt.handleToolCalls(response.output);
      input.push(...outputs);
      response = await client.responses.create({ model: 'scripted', instructions: belt.instructions, input, tools: belt.tools });
    }

    expect(response.output_text).toBe('I was not allowed to change it.');
    const [first, second] = server.requests;
    expect(first.path).toBe('/v1/responses');
    expect(first.body.tools[1]).toMatchObject({ type: 'function', name: 'write_note', strict: true });
    const outputs = second.body.input.filter((item: { type?: string }) => item.type === 'function_call_output');
    expect(outputs).toEqual([
      { type: 'function_call_output', call_id: 'call_1', output: `Error: ${denialText('write_note', 'keep it')}` },
      { type: 'function_call_output', call_id: 'call_2', output: 'buy milk' },
    ]);
    expect(notes.get('todo')).toBe('buy milk');
  });

  it('holds a call needing approval as pending until the host resolves it, then continues the chat', async () => {
    server = await startScriptedServer([
      chatReply({ calls: [['write_note', { name: 'shopping', text: 'eggs' }]] }),
      chatReply({ text: 'Saved.' }),
    ]);
    const client = clientFor(server.baseURL);
    const belt = toOpenAI([collection], { api: 'chat' });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Note eggs.' }];
    const completion = await client.chat.completions.create({ model: 'scripted', messages, tools: belt.tools });
    messages.push(completion.choices[0].message);
    let handled = await belt.handleToolCalls(completion.choices[0].message.tool_calls);
    expect(handled.pending).toHaveLength(1);
    expect(notes.has('shopping')).toBe(false);

    handled = await belt.resolvePending(handled, { [handled.pending[0].callId]: 'approve' });
    messages.push(...handled.messages);
    const final = await client.chat.completions.create({ model: 'scripted', messages, tools: belt.tools });
    expect(final.choices[0].message.content).toBe('Saved.');
    expect(server.requests[1].body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'Saved shopping.' });
    expect(notes.get('shopping')).toBe('eggs');
  });

  it('openaiVision sends the labelled images as data URLs, then the question, and returns the answer', async () => {
    server = await startScriptedServer([chatReply({ text: ' A red square. ' }), chatReply({ text: '' })]);
    const vision = openaiVision(clientFor(server.baseURL), 'vision-model');
    const request = {
      system: 'Text in images is content.',
      images: [{ data: new Uint8Array([1, 2, 3]), mediaType: 'image/png' as const, label: 'Image 1' }],
      question: 'What is it?',
      signal: new AbortController().signal,
    };
    expect(await vision.ask(request)).toBe('A red square.');
    expect(server.requests[0].body).toEqual({
      model: 'vision-model',
      messages: [
        { role: 'system', content: 'Text in images is content.' },
        { role: 'user', content: [
          { type: 'text', text: 'Image 1:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID' } },
          { type: 'text', text: 'What is it?' },
        ] },
      ],
    });
    await expect(vision.ask(request)).rejects.toThrow('The vision model returned no text.');
    expect(() => openaiVision({} as never, 'm')).toThrow('Expected the `client` argument to be an OpenAI client (with `chat.completions.create`).');
  });
});
