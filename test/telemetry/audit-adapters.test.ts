import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ToolExecutionOptions } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { toAiSdk } from '../../adapters/ai-sdk/index.js';
import { toAnthropic } from '../../adapters/anthropic/index.js';
import { toLangChain } from '../../adapters/langchain/index.js';
import { createMcpServer } from '../../adapters/mcp/index.js';
import { toOpenAI } from '../../adapters/openai/index.js';
import { createSession, type AuditRecord, type ToolCollection } from '../../src/index.js';
import { createProject, removeProjects } from '../conformance/project.js';

/**
 * Every adapter hands `onAudit` and `subject` to each call: one create_file through each, the
 * way its framework calls a tool, and the record that comes out.
 */
afterAll(removeProjects);

type Run = (files: ToolCollection, options: { onAudit: (record: AuditRecord) => void; subject: string }) => Promise<unknown>;
const input = { path: 'new.txt', content: 'hello\n' };

const adapters: Array<[string, Run]> = [
  [
    'AI SDK',
    async (files, options) => {
      const belt = toAiSdk([files], { session: createSession(), ...options });
      const execute = belt.tools.create_file!.execute as (input: unknown, options: ToolExecutionOptions<any>) => Promise<unknown>;
      return execute(input, { toolCallId: 'ai-1', messages: [], abortSignal: new AbortController().signal } as never);
    },
  ],
  [
    'LangChain',
    async (files, options) => {
      const belt = toLangChain([files], options);
      return belt.tools.find((tool) => tool.name === 'create_file')!.invoke({ name: 'create_file', args: input, id: 'lc-1', type: 'tool_call' });
    },
  ],
  [
    'OpenAI',
    async (files, options) => {
      const belt = toOpenAI([files], { api: 'chat', ...options });
      return belt.handleToolCalls([{ id: 'oa-1', type: 'function', function: { name: 'create_file', arguments: JSON.stringify(input) } }]);
    },
  ],
  [
    'Anthropic',
    async (files, options) => {
      const belt = toAnthropic([files], options);
      return belt.handleToolUses([{ type: 'tool_use', id: 'an-1', name: 'create_file', input }]);
    },
  ],
  [
    'MCP',
    async (files, options) => {
      const server = createMcpServer([files], options);
      const client = new Client({ name: 'audit', version: '1.0.0' });
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await server.connect(serverTransport);
      await client.connect(clientTransport);
      try {
        return await client.callTool({ name: 'create_file', arguments: input });
      } finally {
        await client.close();
      }
    },
  ],
];

describe.each(adapters)('%s', (_name, run) => {
  it('hands onAudit and subject to the call', async () => {
    const project = await createProject();
    const records: AuditRecord[] = [];
    await run(project.files, { onAudit: (record) => void records.push(record), subject: 'user-7' });
    expect(await project.read('new.txt')).toBe('hello\n');
    expect(records.map(({ tool, subject, outcome, paths }) => ({ tool, subject, outcome, paths }))).toEqual([{ tool: 'create_file', subject: 'user-7', outcome: 'ok', paths: ['new.txt'] }]);
  });
});
