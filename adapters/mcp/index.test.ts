import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFileSessionStore, createSession, defineTool, denialText, ToolError, type ToolCollection } from '../../src/index.js';
import { createMcpServer, type McpServerOptions } from './index.js';

const written: string[] = [];
const collection: ToolCollection = {
  name: 'test',
  instructions: 'Use the test tools.',
  tools: [
    defineTool({ name: 'look', description: 'Looks.', kind: 'read', input: z.object({ at: z.string().describe('Where') }), execute: ({ at }) => `saw ${at}` }),
    defineTool({
      name: 'save', description: 'Saves.', kind: 'edit', needsApproval: true,
      input: z.object({ text: z.string().describe('What') }),
      execute: ({ text }) => (written.push(text), `saved ${text}`),
    }),
    defineTool({ name: 'remove', description: 'Removes.', kind: 'delete', input: z.object({}), execute: () => 'gone' }),
    defineTool({ name: 'run', description: 'Runs.', kind: 'execute', input: z.object({}), execute: () => { throw new ToolError('Command failed: exit 1.'); } }),
    defineTool({ name: 'gh_list_issues', description: 'Issues.', kind: 'read', input: z.object({}), execute: () => 'none' }),
    defineTool({ name: 'plan_tasks', description: 'Plans.', kind: 'think', input: z.object({}), execute: () => 'planned' }),
    defineTool({
      name: 'picture', description: 'Draws.', kind: 'read', input: z.object({}),
      execute: () => ({ text: 'A picture.', images: [{ data: 'iVBORw0KGgo=', mediaType: 'image/png' }] }),
    }),
    defineTool({
      name: 'ask_user_question', description: 'Asks.', kind: 'other',
      input: z.object({
        questions: z.array(z.object({
          question: z.string(), header: z.string(),
          options: z.array(z.object({ label: z.string(), description: z.string().optional() })),
          multi_select: z.boolean().optional(),
        })),
      }),
      execute: () => ({ text: 'No user interface.', isError: true }),
      answeredByClient: {
        toResult: (input, answer) => {
          const answers = (answer as { answers: Array<{ selected: string[] }> }).answers;
          return input.questions.map((question, index) => `${question.question} ${answers[index].selected.join(' + ')}`).join('\n');
        },
      },
    }),
  ],
};

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.map((client) => client.close()));
  clients.length = 0;
  written.length = 0;
});

async function connect(
  options: McpServerOptions = {},
  elicit?: (request: { params: any }) => ElicitResult | Promise<ElicitResult>,
  protocolVersion?: string,
  collections: ToolCollection[] = [collection],
) {
  const server = createMcpServer(collections, { name: 'test-server', version: '1.2.3', ...options });
  const client = new Client({ name: 'test-client', version: '1.0.0' }, elicit ? { capabilities: { elicitation: {} } } : {});
  const elicited: any[] = [];
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, (request) => (elicited.push(request.params), elicit(request)));
  }
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  if (protocolVersion !== undefined) {
    // The SDK's client always offers the latest version; an older client is imitated by
    // rewriting its offer, which the server then accepts.
    const send = clientTransport.send.bind(clientTransport);
    clientTransport.send = (message, options) => {
      if ('method' in message && message.method === 'initialize') message = { ...message, params: { ...message.params, protocolVersion } };
      return send(message, options);
    };
  }
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  clients.push(client);
  return { client, elicited };
}

const text = (result: any) => result.content.map((part: { text?: string }) => part.text ?? '').join('');

describe('createMcpServer', () => {
  it('lists every tool with its JSON Schema and hints from its kind, and the instructions', async () => {
    const { client } = await connect();
    expect(client.getServerVersion()).toEqual({ name: 'test-server', version: '1.2.3' });
    expect(client.getInstructions()).toBe('Use the test tools.');
    // Without a version of its own, the server names the version of agent-toolbelt it runs.
    const { client: unnamed } = await connect({ name: undefined, version: undefined });
    const own = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(unnamed.getServerVersion()).toEqual({ name: 'agent-toolbelt', version: own.version });
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName)).toEqual(['look', 'save', 'remove', 'run', 'gh_list_issues', 'plan_tasks', 'picture']);
    expect(byName.look.inputSchema).toEqual({
      type: 'object', properties: { at: { type: 'string', description: 'Where' } }, required: ['at'],
    });
    expect(byName.look.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(byName.save.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    expect(byName.remove.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
    expect(byName.run.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
    expect(byName.plan_tasks.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
  });

  it('lists the tools in the order of the collections, the same on every server and every call', async () => {
    const first = await connect();
    const second = await connect({}, () => ({ action: 'cancel' }));
    const names = (await first.client.listTools()).tools.map((tool) => tool.name);
    expect((await first.client.listTools()).tools.map((tool) => tool.name)).toEqual(names);
    expect((await second.client.listTools()).tools.map((tool) => tool.name)).toEqual([...names, 'ask_user_question']);
  });

  it('sends schemas without a $schema, in draft-07 form to clients of protocol versions before 2025-11-25', async () => {
    const tuple: ToolCollection = {
      name: 'tuple',
      tools: [defineTool({ name: 'span', description: 'Spans.', kind: 'read', input: z.object({ range: z.tuple([z.number(), z.number()]) }), execute: () => 'ok' })],
    };
    const current = await connect({}, undefined, undefined, [tuple]);
    const legacy = await connect({}, undefined, '2025-06-18', [tuple]);
    const [currentTool] = (await current.client.listTools()).tools;
    const [legacyTool] = (await legacy.client.listTools()).tools;
    expect(currentTool.inputSchema).not.toHaveProperty('$schema');
    expect(currentTool.inputSchema.properties?.range).toMatchObject({ prefixItems: [{ type: 'number' }, { type: 'number' }] });
    expect(legacyTool.inputSchema).not.toHaveProperty('$schema');
    expect(legacyTool.inputSchema.properties?.range).toMatchObject({ items: [{ type: 'number' }, { type: 'number' }] });
  });

  it('sends structuredContent and an outputSchema for a tool that declares its output', async () => {
    const shaped: ToolCollection = {
      name: 'shaped',
      tools: [
        defineTool({
          name: 'count', description: 'Counts.', kind: 'read', input: z.object({ bad: z.boolean().optional() }),
          output: z.object({ count: z.number().describe('How many'), note: z.string().optional() }),
          execute: ({ bad }) => (bad ? { text: 'counted', data: { count: 'three' } } : { text: 'counted 3', data: { count: 3, extra: true } }),
        }),
        defineTool({
          name: 'fail', description: 'Fails.', kind: 'read', input: z.object({}), output: z.object({ count: z.number() }),
          execute: () => { throw new ToolError('Nothing to count.'); },
        }),
      ],
    };
    const { client } = await connect({}, undefined, undefined, [shaped]);
    const { tools } = await client.listTools();
    expect(tools[0].outputSchema).toEqual({
      type: 'object', properties: { count: { type: 'number', description: 'How many' }, note: { type: 'string' } }, required: ['count'], additionalProperties: false,
    });
    expect(await client.callTool({ name: 'count', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'counted 3' }], structuredContent: { count: 3 } });
    expect(await client.callTool({ name: 'fail', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'Nothing to count.' }], isError: true });
    const wrong = await client.callTool({ name: 'count', arguments: { bad: true } });
    expect(wrong).toMatchObject({ isError: true, content: [{ type: 'text', text: 'counted' }, { type: 'text', text: expect.stringContaining('count ran, but its structured result does not match its output schema (count: ') }] });
    expect(wrong).not.toHaveProperty('structuredContent');
  });

  it('answers a call of a tool it does not offer with an error result that lists the tools', async () => {
    const { client } = await connect();
    expect(await client.callTool({ name: 'ask_user_question', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'There is no tool `ask_user_question`. The tools are look, save, remove, run, gh_list_issues, plan_tasks, picture.' }],
      isError: true,
    });
  });

  it('returns text, images and isError', async () => {
    const { client } = await connect();
    expect(await client.callTool({ name: 'look', arguments: { at: 'x' } })).toEqual({ content: [{ type: 'text', text: 'saw x' }] });
    expect(await client.callTool({ name: 'picture', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'A picture.' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
    });
    expect(await client.callTool({ name: 'run', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'Command failed: exit 1.' }], isError: true });
    const bad = await client.callTool({ name: 'look', arguments: { at: 3 } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toBe('Invalid arguments for look: `at`: Invalid input: expected string, received number. Fix the arguments and call look again.');
  });

  it("hands the client's arguments to the core as sent: the SDK checks no schema first (issue 26)", async () => {
    const runs: unknown[] = [];
    const repeat = defineTool({
      name: 'repeat', description: 'Repeats.', kind: 'read',
      input: z.object({ text: z.string().describe('What'), times: z.number().int().optional().describe('How often') }),
      aliases: { message: 'text' },
      execute: ({ text: said, times = 1 }) => (runs.push({ said, times }), said.repeat(times)),
    });
    const { client } = await connect({}, undefined, undefined, [{ name: 'repeat', tools: [repeat] }]);

    expect(text(await client.callTool({ name: 'repeat', arguments: { text: 'ab', times: '2' } }))).toBe('abab');
    expect(text(await client.callTool({ name: 'repeat', arguments: { message: 'hi', times: null } }))).toBe('hi\n\n(Read `message` as `text`: send the fields by these names next time.)');
    const refused = await client.callTool({ name: 'repeat', arguments: { text: 'hi', extra: 1 } });
    expect(refused).toEqual({
      content: [{ type: 'text', text: 'You sent `extra`, which is not a field of repeat. Nothing was run. repeat takes `text`, `times` (optional). Call repeat again with those fields.' }],
      isError: true,
    });
    expect(runs).toEqual([{ said: 'ab', times: 2 }, { said: 'hi', times: 1 }]);
  });

  it('refuses calls needing approval when the client cannot ask, saying how to allow them', async () => {
    const { client } = await connect({ approvalHint: 'Restart with --mode auto.' });
    const result = await client.callTool({ name: 'save', arguments: { text: 'a' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: "save needs the user's approval, and this MCP client cannot ask for it (it does not support elicitation), so it was not run. Tell the user what you wanted to do. Restart with --mode auto." }],
      isError: true,
    });
    expect(written).toEqual([]);
  });

  it('asks an approvalHint function what would allow the refused call', async () => {
    const seen: unknown[] = [];
    const { client } = await connect({ approvalHint: ({ tool, input }) => (seen.push([tool.name, input]), `Allow ${tool.kind} tools.`) });
    expect(text(await client.callTool({ name: 'save', arguments: { text: 'a' } }))).toMatch(/so it was not run\. Tell the user what you wanted to do\. Allow edit tools\.$/);
    expect(seen).toEqual([['save', { text: 'a' }]]);
  });

  it('follows a refusal by plan mode with what the hint function says would allow the call', async () => {
    const reasons: string[] = [];
    const { client } = await connect({ mode: 'plan', approvalHint: ({ reason }) => (reasons.push(reason), 'Restart in another mode.') });
    expect(text(await client.callTool({ name: 'remove', arguments: {} }))).toBe(
      'remove is not available in plan mode: delete tools are switched off until the user leaves plan mode. Describe the change you would make instead. Restart in another mode.',
    );
    expect(text(await client.callTool({ name: 'look', arguments: { at: 'x' } }))).toBe('saw x');
    expect(text(await client.callTool({ name: 'run', arguments: {} }))).toMatch(/^run is not available in plan mode: .* Restart in another mode\.$/);
    expect(reasons).toEqual(['mode', 'mode']);
  });

  it('asks before every change with askForChanges, and only with mode ask', async () => {
    const { client, elicited } = await connect({ askForChanges: true }, () => ({ action: 'accept', content: { decision: 'approve' } }));
    expect(text(await client.callTool({ name: 'remove', arguments: {} }))).toBe('gone');
    expect(text(await client.callTool({ name: 'look', arguments: { at: 'x' } }))).toBe('saw x');
    expect(text(await client.callTool({ name: 'plan_tasks', arguments: {} }))).toBe('planned');
    expect(elicited.map((params) => params.message)).toEqual(['The agent wants to run remove:\nremove {}']);
    const refused = await connect({ askForChanges: true, needsApproval: { run: false } });
    expect(text(await refused.client.callTool({ name: 'remove', arguments: {} }))).toMatch(/^remove needs the user's approval/);
    expect(text(await refused.client.callTool({ name: 'run', arguments: {} }))).toBe('Command failed: exit 1.');
    expect(() => createMcpServer([collection], { askForChanges: true, mode: 'accept-edits' })).toThrow(
      'The `askForChanges` option asks before every change, which mode `accept-edits` decides otherwise; use it with mode `ask` or drop it.',
    );
  });

  it('uses the host policy without elicitation: a mode or onApproval', async () => {
    const auto = await connect({ mode: 'accept-edits' });
    expect(text(await auto.client.callTool({ name: 'save', arguments: { text: 'a' } }))).toBe('saved a');
    const host = await connect({ onApproval: () => ({ type: 'deny', reason: 'no' }) });
    expect(text(await host.client.callTool({ name: 'save', arguments: { text: 'b' } }))).toBe(denialText('save', 'no'));
    expect(written).toEqual(['a']);
  });

  it('asks through elicitation when the client supports it: approve, always, deny', async () => {
    const answers: ElicitResult[] = [
      { action: 'accept', content: { decision: 'approve' } },
      { action: 'accept', content: { decision: 'deny', reason: 'not that' } },
      { action: 'decline' },
      { action: 'accept', content: { decision: 'always' } },
    ];
    const session = createSession();
    const { client, elicited } = await connect({ session }, () => answers.shift()!);
    expect(text(await client.callTool({ name: 'save', arguments: { text: 'one' } }))).toBe('saved one');
    expect(elicited[0]).toEqual({
      mode: 'form',
      message: 'The agent wants to run save:\nsave {"text":"one"}',
      requestedSchema: {
        type: 'object',
        properties: {
          decision: {
            type: 'string', title: 'Decision',
            oneOf: [{ const: 'approve', title: 'Allow once' }, { const: 'always', title: 'Always allow save calls like this' }, { const: 'deny', title: 'Deny' }],
          },
          reason: { type: 'string', title: 'Reason', description: 'Optional; the agent reads it when you deny.' },
        },
        required: ['decision'],
      },
    });
    expect(text(await client.callTool({ name: 'save', arguments: { text: 'two' } }))).toBe(denialText('save', 'not that'));
    expect(text(await client.callTool({ name: 'save', arguments: { text: 'three' } }))).toBe(denialText('save'));
    expect(text(await client.callTool({ name: 'save', arguments: { text: 'four' } }))).toBe('saved four');
    expect(text(await client.callTool({ name: 'save', arguments: { text: 'five' } }))).toBe('saved five');
    expect(elicited).toHaveLength(4);
    expect(written).toEqual(['one', 'four', 'five']);
    expect(session.approvals).toEqual(['save']);
  });

  const questions = [
    { question: 'Tabs or spaces?', header: 'Indent', options: [{ label: 'Tabs', description: 'One tab per level' }, { label: 'Spaces' }] },
    { question: 'Which checks?', header: 'Checks', options: [{ label: 'Lint' }, { label: 'Test', description: 'The unit tests' }], multi_select: true },
  ];

  it('offers ask_user_question only to clients with elicitation, and shows its questions as a form with titled options', async () => {
    const { client, elicited } = await connect({}, () => ({ action: 'accept', content: { q1: 'Spaces', q2: ['Lint', 'Test'] } }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('ask_user_question');
    const result = await client.callTool({ name: 'ask_user_question', arguments: { questions } });
    expect(text(result)).toBe('Tabs or spaces? Spaces\nWhich checks? Lint + Test');
    expect(elicited[0].requestedSchema).toEqual({
      type: 'object',
      properties: {
        q1: { type: 'string', title: 'Indent', description: 'Tabs or spaces?', oneOf: [{ const: 'Tabs', title: 'Tabs: One tab per level' }, { const: 'Spaces', title: 'Spaces' }] },
        q2: { type: 'array', title: 'Checks', description: 'Which checks?', items: { anyOf: [{ const: 'Lint', title: 'Lint' }, { const: 'Test', title: 'Test: The unit tests' }] } },
      },
      required: ['q1', 'q2'],
    });
  });

  it('falls back to enumNames and one checkbox per option for clients of a protocol version before 2025-11-25', async () => {
    const answers: ElicitResult[] = [
      { action: 'accept', content: { decision: 'approve' } },
      { action: 'accept', content: { q1: 'Tabs', q2_1: false, q2_2: true } },
    ];
    const { client, elicited } = await connect({}, () => answers.shift()!, '2025-06-18');
    expect(text(await client.callTool({ name: 'save', arguments: { text: 'old' } }))).toBe('saved old');
    expect(elicited[0].requestedSchema.properties.decision).toEqual({
      type: 'string', title: 'Decision', enum: ['approve', 'always', 'deny'], enumNames: ['Allow once', 'Always allow save calls like this', 'Deny'],
    });
    expect(text(await client.callTool({ name: 'ask_user_question', arguments: { questions } }))).toBe('Tabs or spaces? Tabs\nWhich checks? Test');
    expect(elicited[1].requestedSchema).toEqual({
      type: 'object',
      properties: {
        q1: { type: 'string', title: 'Indent', description: 'Tabs or spaces?', enum: ['Tabs', 'Spaces'], enumNames: ['Tabs: One tab per level', 'Spaces'] },
        q2_1: { type: 'boolean', title: 'Checks: Lint', description: 'Which checks?', default: false },
        q2_2: { type: 'boolean', title: 'Checks: Test: The unit tests', description: 'Which checks?', default: false },
      },
      required: ['q1'],
    });
  });

  it('treats a form left unanswered past elicitationTimeoutMs as a denial, or a dismissed question', async () => {
    const { client } = await connect({ elicitationTimeoutMs: 100 }, () => new Promise<ElicitResult>(() => {}));
    expect(text(await client.callTool({ name: 'save', arguments: { text: 'late' } }))).toBe(denialText('save'));
    const question = await client.callTool({
      name: 'ask_user_question',
      arguments: { questions: [{ question: 'Now?', header: 'When', options: [{ label: 'Yes' }, { label: 'No' }] }] },
    });
    expect(question).toEqual({
      content: [{ type: 'text', text: 'The user dismissed the question or did not answer in time. Go on with your best judgement, or ask again in your reply.' }],
      isError: true,
    });
    expect(written).toEqual([]);
  });

  it('tells the model about a finished background job in the next tool result, once', async () => {
    const slow: ToolCollection = {
      name: 'slow',
      tools: [defineTool({ name: 'build', description: 'Builds.', kind: 'execute', canRunInBackground: true, input: z.object({}),
        execute: async () => (await new Promise((resolve) => setTimeout(resolve, 20)), 'built') })],
    };
    const server = createMcpServer([slow, collection], { background: ['build'], mode: 'auto' });
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    clients.push(client);

    expect(text(await client.callTool({ name: 'build', arguments: { run_in_background: true } }))).toMatch(/^Started job 1 \(build \{\}\) in the background\./);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const next = await client.callTool({ name: 'look', arguments: { at: 'the sky' } });
    expect(next.content).toEqual([
      { type: 'text', text: 'saw the sky' },
      { type: 'text', text: expect.stringMatching(/^Background jobs that finished:\njob 1 \(build \{\}\) finished after \d+ ms; read it with job_output\.$/) },
    ]);
    expect((await client.callTool({ name: 'look', arguments: { at: 'it again' } })).content).toEqual([{ type: 'text', text: 'saw it again' }]);
  });

  it('stops the background jobs of the session it made itself when the connection closes', async () => {
    let stopped = false;
    const watcher: ToolCollection = {
      name: 'watcher',
      tools: [defineTool({
        name: 'watch', description: 'Watches.', kind: 'execute', canRunInBackground: true, input: z.object({}),
        execute: (_input, { signal }) => new Promise<string>((resolve) => signal.addEventListener('abort', () => ((stopped = true), resolve('stopped')))),
      })],
    };
    const server = createMcpServer([watcher], { background: ['watch'], mode: 'auto' });
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    expect(text(await client.callTool({ name: 'watch', arguments: { run_in_background: true } }))).toMatch(/^Started job 1 /);

    await client.close();
    await expect.poll(() => stopped).toBe(true);
  });

  it('validates its options, naming the option', () => {
    expect(() => createMcpServer([collection], { elicitationTimeoutMs: -1 })).toThrow('Expected the `elicitationTimeoutMs` option to be a positive integer, got `-1` (number).');
    expect(() => createMcpServer([collection], { mode: 'fast' as 'auto' })).toThrow("Expected the `mode` option to be one of 'ask', 'accept-edits', 'plan', 'auto', got `fast`.");
    expect(() => createMcpServer([collection], { name: '' })).toThrow('Expected the `name` option to be a non-empty string, got `` (string).');
    expect(() => createMcpServer([collection], { session: {} as never })).toThrow('Expected the `session` option to be a Session');
    expect(() => createMcpServer([collection], { background: 'run_shell' as never })).toThrow(
      'Expected the `background` option to be an array of tool names, got `"run_shell"`.',
    );
    expect(() => createMcpServer([collection], { needsApproval: { save: 'yes' as never } })).toThrow(
      'Expected `needsApproval.save` to be true, false or a function of the input, got `yes` (string).',
    );
    expect(() => createMcpServer([collection], { needsApproval: { saves: false } })).toThrow(
      /^Expected `needsApproval` to name tools of the collections, got `saves`; the tools are look, save, /,
    );
    const store = createFileSessionStore({ dir: path.join(os.tmpdir(), 'toolbelt-mcp-unused-store') });
    expect(() => createMcpServer([collection], { sessionStore: store, session: createSession() })).toThrow(
      'The `session` and `sessionStore` options both say where the session lives; give one of them.',
    );
    expect(() => createMcpServer([collection], { sessionStore: {} as never })).toThrow('Expected the `sessionStore` option to be a session store');
    expect(() => createMcpServer([collection], { requestStateKeys: ['too short'] })).toThrow(
      'Expected the `requestStateKeys` option to be a non-empty array of keys of at least 32 bytes each, newest first (`openssl rand -hex 32`).',
    );
  });
});
