/**
 * One process's part of a LangGraph thread: `node --import tsx langgraph-thread-child.ts
 * '<json>'` with `{ step, backend, url, threadId }`. Each run builds the agent from scratch, as
 * a new server instance would: LangGraph's own checkpointer for the backend (`PostgresSaver`
 * from `@langchain/langgraph-checkpoint-postgres`, `RedisSaver` from
 * `@langchain/langgraph-checkpoint-redis`) and the toolbelt's session store of the same
 * backend. It prints what happened as one JSON line.
 *
 * - `start`: the model adds a task, then asks to write a note, which pauses for approval.
 * - `resume`: answers the pause with "always"; the note is written; then a new message makes
 *   the model write another note, which runs without asking (the "always" came back from the store).
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { Command } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { RedisSaver } from '@langchain/langgraph-checkpoint-redis';
import { createAgent } from 'langchain';
import { toLangChain } from '../../adapters/langchain/index.js';
import { recordingCollection } from '../../adapters/langchain/test-support/tools.js';
import { createTaskListTools } from '../../src/index.js';
import { openStore } from './store-config.js';

export interface ThreadStep {
  readonly step: 'start' | 'resume';
  readonly backend: 'postgres' | 'redis';
  /** The Postgres connection string or the Redis URL, for the checkpointer and the session store alike. */
  readonly url: string;
  readonly threadId: string;
}

const { step, backend, url, threadId } = JSON.parse(process.argv[2]!) as ThreadStep;
// Every reply has its own message id: fakeModel numbers its replies per process, and a repeated
// id would make LangGraph's message reducer replace the first process's reply instead of adding one.
const reply = (id: string, content: string, toolCalls: Array<{ name: string; args: Record<string, unknown>; id: string }> = []) =>
  new AIMessage({ id, content, tool_calls: toolCalls.map((call) => ({ ...call, type: 'tool_call' as const })) });
const model =
  step === 'start'
    ? fakeModel()
        .respond(reply('reply-task', '', [{ name: 'task_add', args: { tasks: [{ subject: 'Write the notes' }] }, id: 'call-task' }]))
        .respond(reply('reply-first', '', [{ name: 'write_note', args: { text: 'first' }, id: 'call-first' }]))
    : fakeModel()
        .respond(reply('reply-first-done', 'First note written.'))
        .respond(reply('reply-second', '', [{ name: 'write_note', args: { text: 'second' }, id: 'call-second' }]))
        .respond(reply('reply-second-done', 'Second note written.'));

const checkpointer = backend === 'postgres' ? PostgresSaver.fromConnString(url) : await RedisSaver.fromUrl(url);
// Creates the tables the first time, and does nothing after (RedisSaver.fromUrl makes its indexes itself).
if (checkpointer instanceof PostgresSaver) await checkpointer.setup();
const sessionStore = openStore(backend === 'postgres' ? { kind: 'postgres', connectionString: url } : { kind: 'redis', url });
const { collection, runs } = recordingCollection();
const belt = toLangChain([createTaskListTools(), collection], { sessionStore });
const agent = createAgent({ model, tools: belt.tools, middleware: [belt.middleware], systemPrompt: belt.instructions, checkpointer });
const config = { configurable: { thread_id: threadId } };
const toolResults = (messages: BaseMessage[]) => messages.filter((message) => ToolMessage.isInstance(message)).map((message) => String(message.content));

try {
  if (step === 'start') {
    const paused = await agent.invoke({ messages: [new HumanMessage('Plan, then write the first note.')] }, config);
    console.log(JSON.stringify({ interrupts: paused.__interrupt__?.map((pending) => ({ id: pending.id, value: pending.value })) ?? [], runs, tools: toolResults(paused.messages) }));
  } else {
    const state = await agent.graph.getState(config);
    const pending = state.tasks.flatMap((task) => task.interrupts);
    const resumed = await agent.invoke(new Command({ resume: Object.fromEntries(pending.map((item) => [item.id!, 'always'])) }), config);
    const again = await agent.invoke({ messages: [new HumanMessage('Now the second note.')] }, config);
    console.log(
      JSON.stringify({
        resumedWith: pending.length,
        runs,
        last: [resumed.messages.at(-1)?.content, again.messages.at(-1)?.content],
        interruptsAfter: again.__interrupt__?.length ?? 0,
        tools: toolResults(again.messages),
      }),
    );
  }
} finally {
  await sessionStore.close();
  await checkpointer.end();
}
