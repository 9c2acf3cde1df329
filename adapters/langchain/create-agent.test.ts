import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { tool, type ClientTool } from '@langchain/core/tools';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { denialText, noApproverText } from '../../src/index.js';
import { toLangChain, type ApprovalInterrupt } from './index.js';
import { recordingCollection } from './test-support/tools.js';

const thread = (id: string) => ({ configurable: { thread_id: id } });

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

function agentWith(model: ReturnType<typeof fakeModel>, options: Parameters<typeof toLangChain>[1] = {}, checkpointer: MemorySaver | null = new MemorySaver()) {
  const { collection, runs } = recordingCollection();
  const belt = toLangChain([collection], options);
  const agent = createAgent({ model, tools: belt.tools, middleware: [belt.middleware], systemPrompt: belt.instructions, checkpointer: checkpointer ?? undefined });
  return { agent, belt, runs };
}

describe('toLangChain in createAgent', () => {
  it('runs a tool loop: the model reads the text, the artifact holds the data', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'echo', args: { text: 'hello' }, id: 'call-1' }])
      .respond(new AIMessage('The tool said hello.'));
    const { agent, runs } = agentWith(model);

    const result = await agent.invoke({ messages: [new HumanMessage('Say hello')] }, thread('loop'));

    const [message] = toolMessages(result.messages);
    expect(message?.content).toBe('echo: hello');
    expect(message?.artifact).toEqual({ echoed: 'hello' });
    expect(message?.status).toBe('success');
    expect(message?.tool_call_id).toBe('call-1');
    expect(runs).toEqual(['echo hello']);
    expect(result.messages.at(-1)?.content).toBe('The tool said hello.');
    expect(model.calls[1]?.messages.some((m) => ToolMessage.isInstance(m) && m.content === 'echo: hello')).toBe(true);
  });

  it('appends the context as the last message of each model call, not to the system message or the state', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'echo', args: { text: 'a' }, id: 'call-1' }])
      .respond(new AIMessage('done'));
    const { agent } = agentWith(model);

    const result = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('context'));

    for (const call of model.calls) {
      const last = call.messages.at(-1);
      expect(HumanMessage.isInstance(last)).toBe(true);
      expect(last?.content).toBe('Context: the notes folder is empty.');
      const system = call.messages.find((m) => SystemMessage.isInstance(m));
      expect(system?.text).toBe('Use echo to repeat things.');
    }
    expect(result.messages.some((m) => m.content === 'Context: the notes folder is empty.')).toBe(false);
  });

  it('runs the safe call of a batch, interrupts once for the one that needs approval, and resumes', async () => {
    const model = fakeModel()
      .respondWithTools([
        { name: 'echo', args: { text: 'safe' }, id: 'call-safe' },
        { name: 'write_note', args: { text: 'risky' }, id: 'call-risky' },
      ])
      .respond(new AIMessage('Both done.'));
    const { agent, runs } = agentWith(model);

    const paused = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('batch'));
    expect(paused.__interrupt__).toHaveLength(1);
    const [pending] = paused.__interrupt__!;
    expect(pending?.value).toEqual({
      type: 'approval',
      toolCall: { id: 'call-risky', name: 'write_note', args: { text: 'risky' } },
      kind: 'edit',
      description: 'Write the note "risky"',
      canAlwaysApprove: true,
    } satisfies ApprovalInterrupt);
    expect(runs).toEqual(['echo safe']);

    const resumed = await agent.invoke(new Command({ resume: { [pending!.id!]: 'approve' } }), thread('batch'));

    expect(toolMessages(resumed.messages).map((m) => [m.tool_call_id, m.content, m.status])).toEqual([
      ['call-safe', 'echo: safe', 'success'],
      ['call-risky', 'wrote risky', 'success'],
    ]);
    expect(runs).toEqual(['echo safe', 'write risky']);
    expect(resumed.messages.at(-1)?.content).toBe('Both done.');
  });

  it('asks once per call when two calls of a batch need approval, each answered on its own', async () => {
    const model = fakeModel()
      .respondWithTools([
        { name: 'write_note', args: { text: 'one' }, id: 'call-1' },
        { name: 'write_note', args: { text: 'two' }, id: 'call-2' },
      ])
      .respond(new AIMessage('ok'));
    const { agent, runs } = agentWith(model);

    const paused = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('two'));
    const interrupts = paused.__interrupt__!;
    expect(interrupts.map((i) => (i.value as ApprovalInterrupt).toolCall.id).sort()).toEqual(['call-1', 'call-2']);
    const resume = Object.fromEntries(
      interrupts.map((i) => [i.id!, (i.value as ApprovalInterrupt).toolCall.id === 'call-1' ? 'approve' : { type: 'deny', reason: 'not two' }]),
    );

    const resumed = await agent.invoke(new Command({ resume }), thread('two'));

    expect(runs).toEqual(['write one']);
    const byId = Object.fromEntries(toolMessages(resumed.messages).map((m) => [m.tool_call_id, [m.content, m.status]]));
    expect(byId).toEqual({ 'call-1': ['wrote one', 'success'], 'call-2': [denialText('write_note', 'not two'), 'error'] });
  });

  it('turns a denial with a reason into an error ToolMessage and goes on', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'write_note', args: { text: 'x' }, id: 'call-1' }])
      .respond(new AIMessage('Understood, I will not write it.'));
    const { agent, runs } = agentWith(model);

    const paused = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('deny'));
    const resumed = await agent.invoke(
      new Command({ resume: { [paused.__interrupt__![0]!.id!]: { type: 'deny', reason: 'Use the other folder.' } } }),
      thread('deny'),
    );

    const [message] = toolMessages(resumed.messages);
    expect(message?.status).toBe('error');
    expect(message?.content).toBe(
      'Action denied by the user: write_note was not run. Do not retry the same call; ask or change approach. The user said: Use the other folder.',
    );
    expect(runs).toEqual([]);
    expect(resumed.messages.at(-1)?.content).toBe('Understood, I will not write it.');
  });

  it('runs an edited call with the changed arguments', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'write_note', args: { text: 'draft' }, id: 'call-1' }])
      .respond(new AIMessage('ok'));
    const { agent, runs } = agentWith(model);

    const paused = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('edit'));
    const resumed = await agent.invoke(
      new Command({ resume: { [paused.__interrupt__![0]!.id!]: { type: 'edit', input: { text: 'final' } } } }),
      thread('edit'),
    );

    expect(runs).toEqual(['write final']);
    expect(toolMessages(resumed.messages)[0]?.content).toBe('wrote final');
  });

  it('refuses an edit that breaks the policy, with the policy text', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'write_note', args: { text: 'draft' }, id: 'call-1' }])
      .respond(new AIMessage('ok'));
    const { agent, runs } = agentWith(model);

    const paused = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('edit-bad'));
    const resumed = await agent.invoke(
      new Command({ resume: { [paused.__interrupt__![0]!.id!]: { type: 'edit', input: { text: 'forbidden' } } } }),
      thread('edit-bad'),
    );

    expect(runs).toEqual([]);
    expect(toolMessages(resumed.messages)[0]).toMatchObject({ content: 'Notes may not say "forbidden". Write something else.', status: 'error' });
  });

  it('does not run a call resumed with something that is not a decision', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'write_note', args: { text: 'x' }, id: 'call-1' }])
      .respond(new AIMessage('ok'));
    const { agent, runs } = agentWith(model);

    const paused = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('bad-resume'));
    const resumed = await agent.invoke(new Command({ resume: { [paused.__interrupt__![0]!.id!]: 'yes' } }), thread('bad-resume'));

    expect(runs).toEqual([]);
    expect(toolMessages(resumed.messages)[0]).toMatchObject({
      status: 'error',
      content:
        "write_note was not run: the approval was answered with \"yes\", which is not a decision ('approve', 'always', 'deny', { type: 'deny', reason } or { type: 'edit', input }). Tell the user the approval could not be read and ask whether to try again.",
    });
  });

  it('remembers "always" in the thread\'s session and asks no more', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'write_note', args: { text: 'one' }, id: 'call-1' }])
      .respondWithTools([{ name: 'write_note', args: { text: 'two' }, id: 'call-2' }])
      .respond(new AIMessage('ok'));
    const { agent, belt, runs } = agentWith(model);

    const paused = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('always'));
    const resumed = await agent.invoke(new Command({ resume: { [paused.__interrupt__![0]!.id!]: 'always' } }), thread('always'));

    expect(resumed.__interrupt__).toBeUndefined();
    expect(runs).toEqual(['write one', 'write two']);
    expect((await belt.sessionFor('always')).approvals).toEqual(['write_note']);
    expect((await belt.sessionFor('other')).approvals).toEqual([]);
  });

  it('keeps a throwing tool, bad arguments and a policy refusal from crashing the run', async () => {
    const model = fakeModel()
      .respondWithTools([
        { name: 'boom', args: {}, id: 'call-boom' },
        { name: 'echo', args: { text: 42 }, id: 'call-bad' },
        { name: 'write_note', args: { text: 'forbidden' }, id: 'call-policy' },
        { name: 'find_thing', args: { name: 'x' }, id: 'call-missing' },
      ])
      .respond(new AIMessage('I will try something else.'));
    const { agent } = agentWith(model);

    const result = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('errors'));

    const byId = Object.fromEntries(toolMessages(result.messages).map((m) => [m.tool_call_id, m]));
    expect(byId['call-boom']).toMatchObject({
      status: 'error',
      content: 'boom failed with an unexpected error: kaboom. This is not a problem with your input; try another approach or tell the user.',
    });
    expect(byId['call-bad']).toMatchObject({
      status: 'error',
      content: 'Invalid arguments for echo: `text`: Invalid input: expected string, received number. Fix the arguments and call echo again.',
    });
    expect(byId['call-policy']).toMatchObject({ status: 'error', content: 'Notes may not say "forbidden". Write something else.' });
    expect(byId['call-missing']).toMatchObject({ status: 'error', content: 'No thing named x. List the things first.' });
    expect(result.messages.at(-1)?.content).toBe('I will try something else.');
  });

  it('answers calls whose arguments were not JSON with an error ToolMessage and asks the model again, so no call is left dangling', async () => {
    const model = fakeModel()
      .respond(new AIMessage({
        content: '',
        invalid_tool_calls: [{ type: 'invalid_tool_call', name: 'echo', args: '{"text": "hi",', id: 'call-broken', error: 'Malformed args.' }],
      }))
      .respondWithTools([{ name: 'echo', args: { text: 'hi' }, id: 'call-fixed' }])
      .respond(new AIMessage('Said hi.'));
    const { agent, runs } = agentWith(model);

    const result = await agent.invoke({ messages: [new HumanMessage('say hi')] }, thread('invalid-json'));

    const byId = Object.fromEntries(toolMessages(result.messages).map((m) => [m.tool_call_id, m]));
    expect(byId['call-broken']).toMatchObject({
      status: 'error',
      name: 'echo',
      content: 'The arguments for echo are not valid JSON (Malformed args.). Call echo again with a JSON object that matches its parameters.',
    });
    expect(runs).toEqual(['echo hi']);
    expect(result.messages.at(-1)?.content).toBe('Said hi.');
  });

  it('catches a foreign LangChain tool that throws', async () => {
    const { collection } = recordingCollection();
    const belt = toLangChain([collection]);
    const broken = tool(
      async () => {
        throw new Error('remote service down');
      },
      { name: 'weather', description: 'Weather', schema: z.object({ city: z.string() }) },
    );
    const model = fakeModel()
      .respondWithTools([{ name: 'weather', args: { city: 'Oslo' }, id: 'call-1' }])
      .respond(new AIMessage('ok'));
    const tools: ClientTool[] = [...belt.tools, broken];
    const agent = createAgent({ model, tools, middleware: [belt.middleware] });

    const result = await agent.invoke({ messages: [new HumanMessage('go')] });

    expect(toolMessages(result.messages)[0]).toMatchObject({
      status: 'error',
      content: 'weather failed with an unexpected error: remote service down. This is not a problem with your input; try another approach or tell the user.',
    });
  });

  it('pauses for approval and keeps errors as ToolMessages even without the middleware', async () => {
    const { collection, runs } = recordingCollection();
    const belt = toLangChain([collection]);
    const model = fakeModel()
      .respondWithTools([
        { name: 'boom', args: {}, id: 'call-boom' },
        { name: 'write_note', args: { text: 'x' }, id: 'call-write' },
      ])
      .respond(new AIMessage('ok'));
    const agent = createAgent({ model, tools: belt.tools, checkpointer: new MemorySaver() });

    const paused = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('bare'));
    expect(paused.__interrupt__).toHaveLength(1);
    const resumed = await agent.invoke(new Command({ resume: { [paused.__interrupt__![0]!.id!]: 'approve' } }), thread('bare'));

    expect(runs).toEqual(['boom', 'write x']);
    expect(toolMessages(resumed.messages).map((m) => [m.tool_call_id, m.status])).toEqual([
      ['call-boom', 'error'],
      ['call-write', 'success'],
    ]);
  });

  it('asks onApproval instead of interrupting when the host can wait', async () => {
    const asked: string[] = [];
    const model = fakeModel()
      .respondWithTools([{ name: 'write_note', args: { text: 'x' }, id: 'call-1' }])
      .respond(new AIMessage('ok'));
    const { agent, runs } = agentWith(model, {
      onApproval: (request) => {
        asked.push(`${request.toolCallId}: ${request.description}`);
        return { type: 'edit', input: { text: 'y' } };
      },
    });

    const result = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('callback'));

    expect(result.__interrupt__).toBeUndefined();
    expect(asked).toEqual(['call-1: Write the note "x"']);
    expect(runs).toEqual(['write y']);
  });

  it('refuses a call that needs approval when the agent has no checkpointer to pause with', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'write_note', args: { text: 'x' }, id: 'call-1' }])
      .respond(new AIMessage('ok'));
    const { agent, runs } = agentWith(model, {}, null);

    const result = await agent.invoke({ messages: [new HumanMessage('go')] });

    expect(toolMessages(result.messages)[0]).toMatchObject({ status: 'error', content: noApproverText('write_note') });
    expect(runs).toEqual([]);
  });

  it('runs approval-needing calls unasked in auto mode and refuses edits in plan mode', async () => {
    const auto = agentWith(
      fakeModel().respondWithTools([{ name: 'write_note', args: { text: 'x' }, id: 'c' }]).respond(new AIMessage('ok')),
      { mode: 'auto' },
    );
    await auto.agent.invoke({ messages: [new HumanMessage('go')] }, thread('auto'));
    expect(auto.runs).toEqual(['write x']);

    const plan = agentWith(
      fakeModel().respondWithTools([{ name: 'write_note', args: { text: 'x' }, id: 'c' }]).respond(new AIMessage('ok')),
      { mode: 'plan' },
    );
    const result = await plan.agent.invoke({ messages: [new HumanMessage('go')] }, thread('plan'));
    expect(plan.runs).toEqual([]);
    expect(toolMessages(result.messages)[0]?.content).toBe(
      'write_note is not available in plan mode: edit tools are switched off until the user leaves plan mode. Describe the change you would make instead.',
    );
  });
});
