import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession } from '../../src/index.js';
import { expectGone, expectTickingProgress, shellScenario, TICKING_COMMAND, TREE_COMMAND, treePid } from '../../test/progress/scenario.js';
import { listenMcpHttp } from './http-listen.js';
import { createMcpServer } from './index.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A real MCP client connected in memory to a server over the shell, recording what the server sends. */
async function connect() {
  const { workspace, shell } = await shellScenario();
  const session = createSession();
  const server = createMcpServer([shell], { mode: 'auto', session });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const sent: JSONRPCMessage[] = [];
  const send = serverTransport.send.bind(serverTransport);
  serverTransport.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  const client = new Client({ name: 'progress-test', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  closers.push(async () => {
    await client.close();
    await session.close();
  });
  return { client, workspace, sent };
}

const progressNotifications = (sent: readonly JSONRPCMessage[]) => sent.filter((message) => 'method' in message && message.method === 'notifications/progress');

describe('MCP: live tool output as progress notifications', () => {
  it('sends notifications/progress with the output when the client gave a progressToken, all before the result', async () => {
    const { client, sent } = await connect();
    const updates: Progress[] = [];
    const result = await client.callTool({ name: 'run_shell', arguments: { command: TICKING_COMMAND } }, undefined, { onprogress: (progress) => updates.push(progress) });
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    // Each message holds the output since the previous one; put together they are the live view.
    let shown = '';
    const views = updates.map((update) => (shown += update.message ?? ''));
    expectTickingProgress(views, text);
    const values = updates.map((update) => update.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    // Every notification went out before the result.
    const resultIndex = sent.findLastIndex((message) => 'result' in message);
    expect(resultIndex).toBeGreaterThan(sent.indexOf(progressNotifications(sent).at(-1)!));
    expect(sent.slice(resultIndex).some((message) => 'method' in message && message.method === 'notifications/progress')).toBe(false);
  }, 20_000);

  it('sends none when the client did not ask', async () => {
    const { client, sent } = await connect();
    const result = await client.callTool({ name: 'run_shell', arguments: { command: TICKING_COMMAND } });
    expect((result.content as Array<{ text: string }>)[0]!.text).toContain('line 10');
    expect(progressNotifications(sent)).toEqual([]);
  }, 20_000);

  it('ends the process tree when the client cancels the call', async () => {
    const { client, workspace } = await connect();
    const controller = new AbortController();
    const calling = client.callTool({ name: 'run_shell', arguments: { command: TREE_COMMAND } }, undefined, { signal: controller.signal, onprogress: () => {} });
    const pid = await treePid(workspace);
    controller.abort();
    await expect(calling).rejects.toThrow();
    await expectGone(pid);
  }, 20_000);

  it("sends them over Streamable HTTP too, on the call's own stream", async () => {
    const { shell } = await shellScenario();
    const server = await listenMcpHttp([shell], { mode: 'auto' });
    const client = new Client({ name: 'progress-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    closers.push(async () => {
      await client.close();
      await server.close();
    });
    const updates: Progress[] = [];
    const result = await client.callTool({ name: 'run_shell', arguments: { command: TICKING_COMMAND } }, undefined, { onprogress: (progress) => updates.push(progress) });
    let shown = '';
    expectTickingProgress(updates.map((update) => (shown += update.message ?? '')), (result.content as Array<{ text: string }>)[0]!.text);
  }, 20_000);
});
