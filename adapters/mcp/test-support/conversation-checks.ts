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

/** Where the conversation checks run: the balancer's address and what each instance served. */
export interface Balanced {
  readonly url: URL;
  readonly served: ReadonlyMap<string, number>;
}

/**
 * A modern and a legacy conversation behind the balancer: each reads on one instance and edits
 * on the next, keeps its task list (its own, not the other's), and the modern one its "always"
 * answers; every instance served some of it. `root` holds `notes/modern.txt` and
 * `notes/legacy.txt`, each `draft of <name>`.
 */
export async function modernAndLegacyAcrossInstances(balancer: Balanced, root: string): Promise<void> {
  const modern = await modernClient(balancer.url, 'modern');
  const legacy = await legacyClient(balancer.url);
  try {
    expect(modern.client.getProtocolEra()).toBe('modern');
    await readEditAndTasks(modern.call, root, 'modern');
    await alwaysAcrossInstances(modern, 'modern');
    await readEditAndTasks(legacy.call, root, 'legacy');
    // Two conversations, two task lists.
    expect(text(await legacy.call('task_get', {}))).not.toContain('ship modern');
  } finally {
    await modern.client.close();
    await legacy.client.close();
  }
  for (const count of balancer.served.values()) expect(count).toBeGreaterThan(3);
}

/** Runs `call` and says which instance (its URL) answered it. */
async function servedBy<T>(balancer: Balanced, call: () => Promise<T>): Promise<{ result: T; instance: string }> {
  const before = new Map(balancer.served);
  const result = await call();
  const instance = [...balancer.served].find(([url, count]) => count > (before.get(url) ?? 0))?.[0];
  if (instance === undefined) throw new Error('No instance answered the call.');
  return { result, instance };
}

/**
 * An instance killed with SIGKILL between two calls loses nothing: a modern and a legacy
 * conversation each add a task (and the modern one answers "always" for a command), both read
 * their file on one instance, that instance is killed (`kill` gets its URL), and on the others
 * the edits that need those reads succeed, the tasks are there and the command runs unasked.
 * `root` holds `notes/killed-modern.txt` and `notes/killed-legacy.txt`, each `draft of <name>`.
 */
export async function survivesSigkill(balancer: Balanced, root: string, kill: (instance: string) => Promise<void>): Promise<void> {
  const modern = await modernClient(balancer.url, 'killed-modern');
  const legacy = await legacyClient(balancer.url);
  try {
    await modern.call('task_add', { tasks: [{ subject: 'survive the kill' }] });
    await legacy.call('task_add', { tasks: [{ subject: 'legacy survives too' }] });
    modern.answers.push({ action: 'accept', content: { decision: 'always' } });
    // "Always" is remembered by the command's first words: the same command runs unasked after the kill.
    const command = 'echo survives-the-kill';
    expect(text(await modern.call('run_shell', { command }))).toContain('survives-the-kill');
    // Both read on the same instance: the modern read says which, the legacy one reads until it lands there.
    const { instance } = await servedBy(balancer, async () => expect(text(await modern.call('read_file', { path: 'notes/killed-modern.txt' }))).toContain('draft of killed-modern'));
    for (let tries = 0; ; tries += 1) {
      const read = await servedBy(balancer, () => legacy.call('read_file', { path: 'notes/killed-legacy.txt' }));
      expect(text(read.result)).toContain('draft of killed-legacy');
      if (read.instance === instance) break;
      if (tries > 10) throw new Error(`The legacy read never reached ${instance}.`);
    }
    await kill(instance);
    const calls: [Call, string][] = [[modern.call, 'killed-modern'], [legacy.call, 'killed-legacy']];
    for (const [call, name] of calls) {
      const edit = await servedBy(balancer, () => call('edit_file', { path: `notes/${name}.txt`, old_string: 'draft', new_string: 'final' }));
      expect(edit.instance).not.toBe(instance);
      expect(edit.result.isError, text(edit.result)).toBeFalsy();
      expect(await readFile(path.join(root, 'notes', `${name}.txt`), 'utf8')).toBe(`final of ${name}\n`);
    }
    expect(text(await modern.call('task_get', {}))).toContain('survive the kill');
    expect(text(await legacy.call('task_get', {}))).toContain('legacy survives too');
    const again = await modern.call('run_shell', { command });
    expect(again.isError, text(again)).toBeFalsy();
    expect(modern.forms).toHaveLength(1);
  } finally {
    await modern.client.close();
    await legacy.client.close();
  }
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

