import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { Command, END, MemorySaver, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { defineTool, ToolError, type ToolCollection } from '../../src/index.js';
import { batchedQuestionText, toLangChain, type QuestionInterrupt } from './index.js';

/** A question tool answered by the client, shaped like the built-in `ask_user_question`. */
const askTool = defineTool({
  name: 'ask_user_question',
  description: 'Asks the user.',
  kind: 'other',
  input: z.object({ questions: z.array(z.object({ question: z.string(), options: z.array(z.object({ label: z.string() })) })) }),
  execute: () => ({ text: 'This host cannot ask the user.', isError: true }),
  answeredByClient: {
    toResult: ({ questions }, answer) => {
      const answers = (answer as { answers?: { selected?: string[] }[] }).answers;
      if (!Array.isArray(answers) || answers.length !== questions.length) throw new ToolError('The answer did not match the questions.');
      return questions.map((q, i) => `${q.question} → ${answers[i]!.selected!.join(', ')}`).join('\n');
    },
  },
});
const asking: ToolCollection = { name: 'ask', tools: [askTool] };
const QUESTIONS = [{ question: 'Which database?', options: [{ label: 'Postgres' }, { label: 'SQLite' }] }];

describe('ask_user_question through toLangChain', () => {
  it('pauses with a question interrupt and resumes with the answers', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'ask_user_question', args: { questions: QUESTIONS }, id: 'call-ask' }])
      .respond(new AIMessage('Postgres it is.'));
    const belt = toLangChain([asking]);
    const agent = createAgent({ model, tools: belt.tools, middleware: [belt.middleware], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'ask' } };

    const paused = await agent.invoke({ messages: [new HumanMessage('set it up')] }, config);
    const [pending] = paused.__interrupt__!;
    expect(pending?.value).toEqual({
      type: 'question',
      toolCall: { id: 'call-ask', name: 'ask_user_question', args: { questions: QUESTIONS } },
      questions: QUESTIONS,
    } satisfies QuestionInterrupt);

    const resumed = await agent.invoke(new Command({ resume: { [pending!.id!]: { answers: [{ selected: ['Postgres'] }] } } }), config);

    const answer = resumed.messages.find((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(answer).toMatchObject({ content: 'Which database? → Postgres', status: 'success', tool_call_id: 'call-ask' });
    expect(resumed.messages.at(-1)?.content).toBe('Postgres it is.');
  });

  it('turns an answer that does not fit into an error ToolMessage', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'ask_user_question', args: { questions: QUESTIONS }, id: 'call-ask' }])
      .respond(new AIMessage('ok'));
    const belt = toLangChain([asking]);
    const agent = createAgent({ model, tools: belt.tools, middleware: [belt.middleware], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'ask-bad' } };

    const paused = await agent.invoke({ messages: [new HumanMessage('go')] }, config);
    const resumed = await agent.invoke(new Command({ resume: { [paused.__interrupt__![0]!.id!]: { answers: [] } } }), config);

    expect(resumed.messages.find((m) => ToolMessage.isInstance(m))).toMatchObject({ content: 'The answer did not match the questions.', status: 'error' });
  });

  it('falls back to the tool\'s own answer when the run cannot pause', async () => {
    const belt = toLangChain([asking]);
    const message = await belt.tools[0]!.invoke({ type: 'tool_call', id: 'c', name: 'ask_user_question', args: { questions: QUESTIONS } });
    expect(message).toMatchObject({ content: 'This host cannot ask the user.', status: 'error' });
  });

  it('still asks through an interrupt when the host answers approvals with onApproval', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'ask_user_question', args: { questions: QUESTIONS }, id: 'call-ask' }])
      .respond(new AIMessage('ok'));
    const belt = toLangChain([asking], { onApproval: () => 'approve' });
    const agent = createAgent({ model, tools: belt.tools, middleware: [belt.middleware], checkpointer: new MemorySaver() });

    const paused = await agent.invoke({ messages: [new HumanMessage('go')] }, { configurable: { thread_id: 'ask-callback' } });

    expect(paused.__interrupt__?.[0]?.value).toMatchObject({ type: 'question' });
  });

  it('tells the model to ask on its own when the question shares a ToolNode step with other calls', async () => {
    const belt = toLangChain([asking, { name: 'more', tools: [defineTool({ name: 'noop', description: 'Nothing.', kind: 'other', input: z.object({}), execute: () => 'ok' })] }]);
    const model = fakeModel()
      .respondWithTools([
        { name: 'ask_user_question', args: { questions: QUESTIONS }, id: 'call-ask' },
        { name: 'noop', args: {}, id: 'call-noop' },
      ])
      .respond(new AIMessage('ok'));
    const bound = model.bindTools(belt.tools);
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('model', async (state) => ({ messages: [await bound.invoke(state.messages)] }))
      .addNode('tools', new ToolNode(belt.tools))
      .addEdge(START, 'model')
      .addConditionalEdges('model', (state) => ((state.messages.at(-1) as AIMessage).tool_calls?.length ? 'tools' : END), ['tools', END])
      .addEdge('tools', 'model')
      .compile({ checkpointer: new MemorySaver() });

    const result = await graph.invoke({ messages: [new HumanMessage('go')] }, { configurable: { thread_id: 'ask-batch' } });

    const asked = result.messages.find((m): m is ToolMessage => ToolMessage.isInstance(m) && m.tool_call_id === 'call-ask');
    expect(asked).toMatchObject({
      status: 'error',
      content: 'ask_user_question can only ask the user when it is called on its own, not together with other tools in one step. Nothing was asked. Call ask_user_question again by itself.',
    });
    expect(batchedQuestionText('ask_user_question')).toBe(asked?.content);
  });
});
