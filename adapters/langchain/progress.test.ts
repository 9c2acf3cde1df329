import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { expectGone, expectTickingProgress, shellScenario, TICKING_COMMAND, TREE_COMMAND, treePid } from '../../test/progress/scenario.js';
import { toLangChain, type ToolProgressChunk } from './index.js';

/** A graph of a model node and a prebuilt ToolNode over the toolbelt's tools. */
function shellGraph(belt: ReturnType<typeof toLangChain>, model: ReturnType<typeof fakeModel>) {
  const bound = model.bindTools(belt.tools);
  return new StateGraph(MessagesAnnotation)
    .addNode('model', async (state) => ({ messages: [await bound.invoke(state.messages)] }))
    .addNode('tools', new ToolNode(belt.tools))
    .addEdge(START, 'model')
    .addConditionalEdges('model', (state) => {
      const last = state.messages.at(-1);
      return last !== undefined && AIMessage.isInstance(last) && (last.tool_calls ?? []).length > 0 ? 'tools' : END;
    }, ['tools', END])
    .addEdge('tools', 'model')
    .compile();
}

const callShell = (command: string) => fakeModel().respondWithTools([{ name: 'run_shell', args: { command }, id: 'call-1' }]).respond(new AIMessage('ran it'));

/** Streams a run in `custom` and `updates` modes: the progress chunks, and the tool's final message. */
async function streamRun(stream: AsyncIterable<unknown>, onChunk?: (chunk: ToolProgressChunk) => void) {
  const chunks: ToolProgressChunk[] = [];
  let finalText: string | undefined;
  let chunksBeforeResult: number | undefined;
  for await (const item of stream) {
    const [mode, value] = item as [string, any];
    if (mode === 'custom' && value?.type === 'tool_progress') {
      chunks.push(value);
      onChunk?.(value);
    }
    if (mode === 'updates') {
      const messages = Object.values(value as Record<string, { messages?: any[] }>).flatMap((update) => update?.messages ?? []);
      const tool = messages.find((message) => message?.tool_call_id === 'call-1');
      if (tool !== undefined) {
        finalText = String(tool.content);
        chunksBeforeResult = chunks.length;
      }
    }
  }
  return { chunks, finalText: finalText ?? '', chunksBeforeResult };
}

describe('LangGraph: live tool output as custom stream events', () => {
  it('writes run_shell output to the custom stream of a graph with a ToolNode, before the tool message', async () => {
    const { shell } = await shellScenario();
    const graph = shellGraph(toLangChain([shell], { mode: 'auto' }), callShell(TICKING_COMMAND));
    const run = await streamRun(await graph.stream({ messages: [new HumanMessage('go')] }, { streamMode: ['custom', 'updates'] }));
    expectTickingProgress(run.chunks.map((chunk) => chunk.recentOutput), run.finalText);
    expect(run.chunksBeforeResult).toBe(run.chunks.length);
    expect(run.chunks.map((chunk) => chunk.sequence)).toEqual(run.chunks.map((_, index) => index + 1));
    expect(run.chunks.every((chunk) => chunk.toolName === 'run_shell' && chunk.toolCallId === 'call-1')).toBe(true);
    // Appending the deltas gives the whole output.
    expect(run.chunks.map((chunk) => chunk.output).join('')).toContain('line 1\nline 2\n');
  }, 20_000);

  it('writes them through createAgent as well', async () => {
    const { shell } = await shellScenario();
    const belt = toLangChain([shell], { mode: 'auto' });
    const agent = createAgent({ model: callShell(TICKING_COMMAND), tools: belt.tools, middleware: [belt.middleware] });
    const run = await streamRun(await agent.stream({ messages: [new HumanMessage('go')] }, { streamMode: ['custom', 'updates'] }));
    expectTickingProgress(run.chunks.map((chunk) => chunk.recentOutput), run.finalText);
  }, 20_000);

  it('ends the process tree when the run is aborted', async () => {
    const { workspace, shell } = await shellScenario();
    const graph = shellGraph(toLangChain([shell], { mode: 'auto' }), callShell(TREE_COMMAND));
    const controller = new AbortController();
    const pid = treePid(workspace);
    const streaming = streamRun(await graph.stream({ messages: [new HumanMessage('go')] }, { streamMode: ['custom', 'updates'], signal: controller.signal }), (chunk) => {
      if (chunk.recentOutput.includes('tick')) controller.abort();
    });
    await streaming.catch(() => undefined);
    expect(controller.signal.aborted).toBe(true);
    await expectGone(await pid);
  }, 20_000);

  it('runs quietly when nothing streams custom events', async () => {
    const { shell } = await shellScenario();
    const graph = shellGraph(toLangChain([shell], { mode: 'auto' }), callShell('echo plain'));
    const result = await graph.invoke({ messages: [new HumanMessage('go')] });
    expect(String(result.messages.at(-2)!.content)).toContain('plain');
  });
});
