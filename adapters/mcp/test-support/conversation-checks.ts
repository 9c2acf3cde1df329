import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, type ElicitResult } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';

// Test support: the checks a conversation makes against servers behind a balancer, for a
// 2026-07-28 client (the v2 SDK) and a 2025-era one (the v1 SDK).

const CONVERSATION = 'agent-toolbelt/conversation';

export const text = (result: any): string => result.content.map((part: { text?: string }) => part.text ?? '').join('');

/** A 2026-07-28 client whose requests name their conversation, answering forms from a queue. */
export async function modernClient(url: URL, conversation: string) {
  const answers: ElicitResult[] = [];
  const forms: string[] = [];
  const client = new Client({ name: 'instances-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', async (request) => (forms.push((request.params as { message: string }).message), answers.shift() ?? { action: 'cancel' }));
  await client.connect(new StreamableHTTPClientTransport(url));
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args, _meta: { [CONVERSATION]: conversation } });
  return { client, call, answers, forms };
}

/** A 2025-era client (the v1 SDK): its conversation is its MCP session. */
export async function legacyClient(url: URL) {
  const client = new LegacyClient({ name: 'instances-legacy', version: '1.0.0' });
  await client.connect(new LegacyHttpTransport(url));
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
  return { client, call };
}

export type Call = (name: string, args: Record<string, unknown>) => Promise<any>;

/** Reads on one instance and edits on the next, then keeps a task across instances. */
export async function readEditAndTasks(call: Call, root: string, conversation: string): Promise<void> {
  const file = `notes/${conversation}.txt`;
  expect(text(await call('read_file', { path: file }))).toContain(`draft of ${conversation}`);
  const edited = await call('edit_file', { path: file, old_string: 'draft', new_string: 'final' });
  expect(edited.isError, text(edited)).toBeFalsy();
  expect(await readFile(path.join(root, file), 'utf8')).toBe(`final of ${conversation}\n`);
  expect((await call('task_add', { tasks: [{ subject: `ship ${conversation}` }] })).isError).toBeFalsy();
  expect(text(await call('task_get', {}))).toContain(`ship ${conversation}`);
}

/** An "always" answered on one instance lets the next such call run unasked on another. */
export async function alwaysAcrossInstances(modern: Awaited<ReturnType<typeof modernClient>>, conversation: string): Promise<void> {
  modern.answers.push({ action: 'accept', content: { decision: 'always' } });
  // "Always" is remembered by the command's first words, so the same command runs unasked.
  const command = `echo always-${conversation}`;
  expect(text(await modern.call('run_shell', { command }))).toContain(`always-${conversation}`);
  expect(modern.forms).toHaveLength(1);
  for (let index = 0; index < 3; index += 1) {
    const again = await modern.call('run_shell', { command });
    expect(again.isError, text(again)).toBeFalsy();
  }
  expect(modern.forms).toHaveLength(1);
}

/** 20 clients, each its own conversation, making 200 calls between them: every one answered. */
export async function manyClients(url: URL): Promise<void> {
  const clients = await Promise.all(Array.from({ length: 20 }, (_, index) => modernClient(url, `load-${index}`)));
  try {
    const outcomes = await Promise.all(
      clients.map(async ({ call }, index) => {
        const results = [];
        for (let round = 0; round < 5; round += 1) {
          results.push(await call('task_add', { tasks: [{ subject: `task ${index}.${round}` }] }));
          results.push(await call('task_get', {}));
        }
        return results;
      }),
    );
    const answered = outcomes.flat();
    expect(answered).toHaveLength(200);
    expect(answered.filter((result) => result.isError).map(text)).toEqual([]);
    // Each conversation sees its own tasks, and no other's.
    outcomes.forEach((results, index) => {
      expect(text(results.at(-1))).toContain(`task ${index}.4`);
      expect(text(results.at(-1))).not.toContain(`task ${(index + 1) % 20}.0`);
    });
  } finally {
    await Promise.all(clients.map(({ client }) => client.close()));
  }
}

