import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent } from 'langchain';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import {
  createAskUserTools,
  createDateTimeTools,
  createFileTools,
  createScratchTools,
  createShellTools,
  createTaskListTools,
  Workspace,
} from '../../src/index.js';
import { toLangChain } from './index.js';

const NOW = new Date('2026-09-24T12:30:00Z');

function agentOver(model: ReturnType<typeof fakeModel>) {
  const tasks = createTaskListTools();
  const dates = createDateTimeTools({ now: () => NOW, timeZone: 'UTC' });
  const belt = toLangChain([dates, tasks]);
  const agent = createAgent({ model, tools: belt.tools, middleware: [belt.middleware], systemPrompt: belt.instructions, checkpointer: new MemorySaver() });
  return { agent, belt, tasks };
}

const lastMessageOf = (model: ReturnType<typeof fakeModel>, call: number) => model.calls[call]!.messages.at(-1)!;

describe('toLangChain with the built-in collections', () => {
  it('shows the model the date and the task list at the end of each request', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'task_add', args: { tasks: [{ subject: 'Write the report' }] }, id: 'call-1' }])
      .respond(new AIMessage('Added.'));
    const { agent } = agentOver(model);

    await agent.invoke({ messages: [new HumanMessage('plan it')] }, { configurable: { thread_id: 'dates' } });

    const before = lastMessageOf(model, 0);
    expect(HumanMessage.isInstance(before)).toBe(true);
    expect(before.text).toBe('Current date and time: Thursday, 2026-09-24T12:30:00+00:00 (UTC)');
    const after = lastMessageOf(model, 1).text;
    expect(after.startsWith('Current date and time: Thursday, 2026-09-24T12:30:00+00:00 (UTC)\n\n')).toBe(true);
    expect(after).toContain('Write the report');
  });

  it('keeps one task list per thread_id, following the checkpointer\'s threads', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'task_add', args: { tasks: [{ subject: 'Task of thread A' }] }, id: 'a-1' }])
      .respond(new AIMessage('A planned.'))
      .respondWithTools([{ name: 'task_add', args: { tasks: [{ subject: 'Task of thread B' }] }, id: 'b-1' }])
      .respond(new AIMessage('B planned.'))
      .respond(new AIMessage('Back in A.'));
    const { agent, belt, tasks } = agentOver(model);
    const threadA = { configurable: { thread_id: 'thread-a' } };
    const threadB = { configurable: { thread_id: 'thread-b' } };

    await agent.invoke({ messages: [new HumanMessage('plan A')] }, threadA);
    await agent.invoke({ messages: [new HumanMessage('plan B')] }, threadB);
    const backInA = await agent.invoke({ messages: [new HumanMessage('what is left?')] }, threadA);

    expect((await tasks.getTasks(await belt.sessionFor('thread-a'))).map((task) => task.subject)).toEqual(['Task of thread A']);
    expect((await tasks.getTasks(await belt.sessionFor('thread-b'))).map((task) => task.subject)).toEqual(['Task of thread B']);
    const seenInA = lastMessageOf(model, 4).text;
    expect(seenInA).toContain('Task of thread A');
    expect(seenInA).not.toContain('Task of thread B');
    // The checkpointer kept thread A's conversation: the new turn follows the first one.
    expect(backInA.messages.map((m) => m.text)).toEqual(['plan A', expect.any(String), expect.any(String), 'A planned.', 'what is left?', 'Back in A.']);
  });

  it('asks the built-in ask_user_question through an interrupt and resumes with the answers', async () => {
    const questions = [
      {
        question: 'Which login method should the app use?',
        header: 'Login',
        options: [{ label: 'OAuth', description: 'Sign in with GitHub' }, { label: 'Password' }],
      },
    ];
    const model = fakeModel()
      .respondWithTools([{ name: 'ask_user_question', args: { questions }, id: 'call-ask' }])
      .respond(new AIMessage('OAuth it is.'));
    const belt = toLangChain([createAskUserTools()]);
    const agent = createAgent({ model, tools: belt.tools, middleware: [belt.middleware], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'ask' } };

    const paused = await agent.invoke({ messages: [new HumanMessage('add login')] }, config);
    const [pending] = paused.__interrupt__!;
    expect(pending?.value).toMatchObject({ type: 'question', toolCall: { id: 'call-ask', name: 'ask_user_question' }, questions: [{ header: 'Login' }] });
    const resumed = await agent.invoke(new Command({ resume: { [pending!.id!]: { answers: [{ selected: ['OAuth'] }] } } }), config);

    const answer = resumed.messages.find((m): m is ToolMessage => ToolMessage.isInstance(m))!;
    expect(answer.status).toBe('success');
    expect(answer.content).toBe('The user answered:\n1. [Login] Which login method should the app use? → OAuth');
    expect(resumed.messages.at(-1)?.content).toBe('OAuth it is.');
  });

  it('gives every built-in tool a provider schema', async () => {
    const root = await mkdtemp(join(tmpdir(), 'toolbelt-lc-schemas-'));
    try {
      const workspace = new Workspace(root);
      const belt = toLangChain(
        [
          createFileTools({ workspace }),
          createShellTools({ workspace }),
          createTaskListTools(),
          createDateTimeTools(),
          createAskUserTools(),
          createScratchTools({ workspace }),
        ],
        { background: ['run_shell'] },
      );
      const specs = belt.tools.map((tool) => convertToOpenAITool(tool));
      expect(specs.map((spec) => spec.function.name)).toEqual([
        'list_directory', 'find_files', 'search_files', 'read_file', 'create_file', 'write_file', 'edit_file', 'move_file', 'delete_file',
        'run_shell', 'task_add', 'task_update', 'task_remove', 'task_get',
        'get_date_time_after', 'get_day_of_week', 'get_days_between', 'ask_user_question',
        'note_write', 'note_read', 'note_list', 'log_append', 'log_read', 'job_output', 'job_stop', 'job_list',
      ]);
      for (const spec of specs) expect(spec.function.parameters).toMatchObject({ type: 'object' });
      expect(specs.find((spec) => spec.function.name === 'run_shell')!.function.parameters).toMatchObject({
        properties: { command: { type: 'string' }, run_in_background: { type: 'boolean' } },
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
