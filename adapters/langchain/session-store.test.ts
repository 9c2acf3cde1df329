import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { createFileSessionStore, createSession, createTaskListTools } from '../../src/index.js';
import { toLangChain } from './index.js';
import { recordingCollection } from './test-support/tools.js';

const reply = (id: string, content: string, toolCalls: Array<{ name: string; args: Record<string, unknown>; id: string }> = []) =>
  new AIMessage({ id, content, tool_calls: toolCalls.map((call) => ({ ...call, type: 'tool_call' as const })) });

describe('toLangChain with a sessionStore', () => {
  it('keys sessions by thread_id: a second adapter (another server) resumes the thread with its tasks and "always" approvals', async () => {
    const sessionStore = createFileSessionStore({ dir: await mkdtemp(path.join(tmpdir(), 'toolbelt-langchain-store-')) });
    const checkpointer = new MemorySaver();
    const tasks = createTaskListTools();
    const agentOn = (model: ReturnType<typeof fakeModel>) => {
      const { collection, runs } = recordingCollection();
      const belt = toLangChain([tasks, collection], { sessionStore });
      return { runs, agent: createAgent({ model, tools: belt.tools, middleware: [belt.middleware], checkpointer }) };
    };
    const config = { configurable: { thread_id: 'thread-a' } };

    const first = agentOn(
      fakeModel()
        .respond(reply('r1', '', [{ name: 'task_add', args: { tasks: [{ subject: 'Write notes' }] }, id: 'c1' }]))
        .respond(reply('r2', '', [{ name: 'write_note', args: { text: 'one' }, id: 'c2' }])),
    );
    const paused = await first.agent.invoke({ messages: [new HumanMessage('go')] }, config);
    expect(paused.__interrupt__).toHaveLength(1);
    expect((await tasks.getTasks((await sessionStore.load('thread-a'))!)).map((task) => task.subject)).toEqual(['Write notes']);

    const second = agentOn(
      fakeModel()
        .respond(reply('r3', 'one written'))
        .respond(reply('r4', '', [{ name: 'write_note', args: { text: 'two' }, id: 'c3' }]))
        .respond(reply('r5', 'two written')),
    );
    await second.agent.invoke(new Command({ resume: { [paused.__interrupt__![0]!.id!]: 'always' } }), config);
    const again = await second.agent.invoke({ messages: [new HumanMessage('and two')] }, config);
    expect(again.__interrupt__).toBeUndefined();
    expect(second.runs).toEqual(['write one', 'write two']);
    const saved = (await sessionStore.load('thread-a'))!;
    expect(saved.approvals).toEqual(['write_note']);
    expect(await sessionStore.load('thread-b')).toBeUndefined();
  });

  it('refuses sessionStore beside session or sessionFor', () => {
    const sessionStore = createFileSessionStore({ dir: path.join(tmpdir(), 'never-used') });
    expect(() => toLangChain([], { sessionStore, session: createSession() })).toThrow(
      'Expected either the `sessionStore` option or the `session` option, got both. Give `sessionStore` to keep one session per thread in a store, or leave it out.',
    );
    expect(() => toLangChain([], { sessionStore: {} as never })).toThrow('Expected the `sessionStore` option to be a session store such as createFileSessionStore({ dir })');
  });
});
