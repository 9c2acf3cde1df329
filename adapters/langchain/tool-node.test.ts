import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { Command, END, type Interrupt, MemorySaver, MessagesAnnotation, Send, START, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { defineTool, noApproverText } from '../../src/index.js';
import { batchedApprovalText, toLangChain, type LangChainOptions } from './index.js';
import { recordingCollection } from './test-support/tools.js';

/** The pending interrupts of a run's result (LangGraph adds `__interrupt__` outside the state's type). */
function interruptsOf(result: unknown): Interrupt[] | undefined {
  return (result as { __interrupt__?: Interrupt[] }).__interrupt__;
}

type Routing = 'batch' | 'send-each';

/** A hand-written LangGraph agent: a model node, a prebuilt ToolNode over the toolbelt's tools, no middleware. */
function customGraph(model: ReturnType<typeof fakeModel>, routing: Routing, options: LangChainOptions = {}, checkpointer?: MemorySaver) {
  const { collection, runs } = recordingCollection();
  const belt = toLangChain([collection], options);
  const bound = model.bindTools(belt.tools);
  const route = (state: typeof MessagesAnnotation.State) => {
    const last = state.messages.at(-1);
    const calls = last !== undefined && AIMessage.isInstance(last) ? (last.tool_calls ?? []) : [];
    if (calls.length === 0) return END;
    return routing === 'batch' ? 'tools' : calls.map((call) => new Send('tools', { ...state, lg_tool_call: call }));
  };
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('model', async (state) => ({ messages: [await bound.invoke(state.messages)] }))
    .addNode('tools', new ToolNode(belt.tools))
    .addEdge(START, 'model')
    .addConditionalEdges('model', route, ['tools', END])
    .addEdge('tools', 'model')
    .compile({ checkpointer });
  return { graph, runs };
}

function toolMessages(messages: BaseMessage[]): Record<string, [unknown, unknown]> {
  return Object.fromEntries(
    messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => [m.tool_call_id, [m.content, m.status]]),
  );
}

const batch = () =>
  fakeModel()
    .respondWithTools([
      { name: 'echo', args: { text: 'safe' }, id: 'call-safe' },
      { name: 'write_note', args: { text: 'risky' }, id: 'call-risky' },
    ])
    .respond(new AIMessage('done'));

describe('toLangChain tools in a ToolNode of a custom graph', () => {
  it('runs a batch without a checkpointer: the safe call runs, the one needing approval is refused', async () => {
    const { graph, runs } = customGraph(batch(), 'batch');

    const result = await graph.invoke({ messages: [new HumanMessage('go')] });

    expect(runs).toEqual(['echo safe']);
    expect(toolMessages(result.messages)).toEqual({
      'call-safe': ['echo: safe', 'success'],
      'call-risky': [noApproverText('write_note'), 'error'],
    });
    expect(result.messages.at(-1)?.content).toBe('done');
  });

  it('asks onApproval for a call in a batch', async () => {
    const { graph, runs } = customGraph(batch(), 'batch', { onApproval: () => 'approve' });

    const result = await graph.invoke({ messages: [new HumanMessage('go')] });

    expect(runs.sort()).toEqual(['echo safe', 'write risky']);
    expect(toolMessages(result.messages)['call-risky']).toEqual(['wrote risky', 'success']);
  });

  it('does not pause inside a batch, where a resume would re-run the other calls: the model is told to call again alone', async () => {
    const { graph, runs } = customGraph(batch(), 'batch', {}, new MemorySaver());

    const result = await graph.invoke({ messages: [new HumanMessage('go')] }, { configurable: { thread_id: 'b' } });

    expect(interruptsOf(result)).toBeUndefined();
    expect(runs).toEqual(['echo safe']);
    expect(toolMessages(result.messages)['call-risky']).toEqual([
      "write_note needs the user's approval, and this graph can only ask for it when write_note is called on its own, not together with other tools in one step. It was not run. Call write_note again by itself.",
      'error',
    ]);
    expect(batchedApprovalText('write_note')).toBe(toolMessages(result.messages)['call-risky']?.[0]);
  });

  it('pauses for a call the model made alone in a batch graph, and resumes', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'write_note', args: { text: 'alone' }, id: 'call-1' }])
      .respond(new AIMessage('done'));
    const { graph, runs } = customGraph(model, 'batch', {}, new MemorySaver());
    const config = { configurable: { thread_id: 'alone' } };

    const paused = await graph.invoke({ messages: [new HumanMessage('go')] }, config);
    expect(interruptsOf(paused)?.[0]?.value).toMatchObject({ type: 'approval', toolCall: { id: 'call-1', name: 'write_note' } });
    const resumed = await graph.invoke(new Command({ resume: { [interruptsOf(paused)![0]!.id!]: 'approve' } }), config);

    expect(runs).toEqual(['write alone']);
    expect(toolMessages(resumed.messages)).toEqual({ 'call-1': ['wrote alone', 'success'] });
  });

  it('interrupts per call when each call is sent on its own, running the safe call once', async () => {
    const { graph, runs } = customGraph(batch(), 'send-each', {}, new MemorySaver());
    const config = { configurable: { thread_id: 'send' } };

    const paused = await graph.invoke({ messages: [new HumanMessage('go')] }, config);
    expect(interruptsOf(paused)).toHaveLength(1);
    expect(runs).toEqual(['echo safe']);
    const resumed = await graph.invoke(new Command({ resume: { [interruptsOf(paused)![0]!.id!]: 'approve' } }), config);

    expect(runs).toEqual(['echo safe', 'write risky']);
    expect(toolMessages(resumed.messages)).toEqual({
      'call-safe': ['echo: safe', 'success'],
      'call-risky': ['wrote risky', 'success'],
    });
    expect(resumed.messages.at(-1)?.content).toBe('done');
  });
});

describe('toLangChain tools invoked directly', () => {
  const { collection } = recordingCollection();
  const belt = toLangChain([collection]);
  const byName = (name: string) => belt.tools.find((tool) => tool.name === name)!;

  it('answers plain arguments with the text and a tool call with a ToolMessage carrying the data', async () => {
    expect(await byName('echo').invoke({ text: 'plain' })).toBe('echo: plain');
    const message = await byName('echo').invoke({ type: 'tool_call', id: 'c1', name: 'echo', args: { text: 'call' } });
    expect(ToolMessage.isInstance(message)).toBe(true);
    expect(message).toMatchObject({ content: 'echo: call', artifact: { echoed: 'call' }, tool_call_id: 'c1', status: 'success' });
  });

  it('answers bad arguments with the core message instead of throwing', async () => {
    await expect(byName('echo').invoke({ text: 1 } as never)).resolves.toBe(
      'Invalid arguments for echo: `text`: Invalid input: expected string, received number. Fix the arguments and call echo again.',
    );
    const message = await byName('echo').invoke({ type: 'tool_call', id: 'c2', name: 'echo', args: {} });
    expect(message).toMatchObject({
      status: 'error',
      tool_call_id: 'c2',
      content: 'Invalid arguments for echo: `text`: Invalid input: expected string, received undefined. Fix the arguments and call echo again.',
    });
  });

  it('refuses a call needing approval outside a graph when there is no onApproval', async () => {
    const message = await byName('write_note').invoke({ type: 'tool_call', id: 'c3', name: 'write_note', args: { text: 'x' } });
    expect(message).toMatchObject({ status: 'error', content: noApproverText('write_note') });
  });

  it('passes the Zod schema and description through for bindTools', () => {
    expect(byName('echo').schema).toBe(collection.tools[0]!.input);
    expect(byName('echo').description).toBe('Repeats the text.');
    expect(byName('echo').responseFormat).toBe('content_and_artifact');
  });

  it('converts to the JSON Schema a provider receives, with the field descriptions', () => {
    expect(convertToOpenAITool(byName('echo'))).toMatchObject({
      type: 'function',
      function: {
        name: 'echo',
        description: 'Repeats the text.',
        parameters: { type: 'object', properties: { text: { type: 'string', description: 'What to repeat' } }, required: ['text'] },
      },
    });
  });

  it('sends images as image content blocks after the text', async () => {
    const screenshot = defineTool({
      name: 'screenshot',
      description: 'Takes a screenshot.',
      kind: 'read',
      input: z.object({}),
      execute: () => ({ text: 'Here it is.', images: [{ data: 'iVBORw0KGgo=', mediaType: 'image/png' }], data: { width: 1 } }),
    });
    const [tool] = toLangChain([{ name: 'screen', tools: [screenshot] }]).tools;
    const message = await tool!.invoke({ type: 'tool_call', id: 'c4', name: 'screenshot', args: {} });
    expect(message).toMatchObject({
      status: 'success',
      artifact: { width: 1 },
      content: [
        { type: 'text', text: 'Here it is.' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      ],
    });
  });
});
