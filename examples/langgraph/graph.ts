/**
 * A hand-written LangGraph agent over the toolbelt: a model node, a prebuilt `ToolNode` over
 * the toolbelt's tools, and a checkpointer so a call that needs approval can pause the graph
 * until someone answers.
 */
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { Command, END, MemorySaver, MessagesAnnotation, Send, START, StateGraph, type Interrupt } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
// In your project: from 'agent-toolbelt/langchain'.
import type { ApprovalInterrupt, ApprovalResume, LangChainToolbelt } from '../../adapters/langchain/index.js';

/** Builds the graph: model → tools → model … until the model answers without tool calls. */
export function buildGraph(model: BaseChatModel, belt: LangChainToolbelt) {
  const bound = model.bindTools!(belt.tools);
  return new StateGraph(MessagesAnnotation)
    .addNode('model', async (state) => ({ messages: [await bound.invoke([...systemPrompt(belt), ...state.messages])] }))
    .addNode('tools', new ToolNode(belt.tools))
    .addEdge(START, 'model')
    .addConditionalEdges('model', sendEachToolCall, ['tools', END])
    .addEdge('tools', 'model')
    .compile({ checkpointer: new MemorySaver() });
}

/**
 * Sends every tool call to the ToolNode on its own, as `createAgent` does: a call that needs
 * approval then pauses alone, and the calls beside it run once and keep their results.
 */
function sendEachToolCall(state: typeof MessagesAnnotation.State) {
  const last = state.messages.at(-1);
  const calls = last !== undefined && AIMessage.isInstance(last) ? (last.tool_calls ?? []) : [];
  if (calls.length === 0) return END;
  return calls.map((call) => new Send('tools', { ...state, lg_tool_call: call }));
}

function systemPrompt(belt: LangChainToolbelt): BaseMessage[] {
  return [new SystemMessage(`You are a careful assistant working in a folder of files.\n\n${belt.instructions}`)];
}

/** Asks a person about one approval interrupt. */
export type Decide = (request: ApprovalInterrupt) => Promise<ApprovalResume>;

/**
 * Runs one user turn to the end: invokes the graph, and while it is paused answers each
 * approval interrupt with `decide`, resuming all of them in one `Command`.
 */
export async function runTurn(graph: ReturnType<typeof buildGraph>, text: string, threadId: string, decide: Decide): Promise<BaseMessage[]> {
  const config = { configurable: { thread_id: threadId } };
  let result = await graph.invoke({ messages: [new HumanMessage(text)] }, config);
  for (let pending = interruptsOf(result); pending.length > 0; pending = interruptsOf(result)) {
    const resume: Record<string, ApprovalResume> = {};
    for (const { id, value } of pending) resume[id!] = await decide(value as ApprovalInterrupt);
    result = await graph.invoke(new Command({ resume }), config);
  }
  return result.messages;
}

function interruptsOf(result: unknown): Interrupt[] {
  return (result as { __interrupt__?: Interrupt[] }).__interrupt__ ?? [];
}
