/**
 * A `createAgent` agent over the toolbelt: the file, task list and date tools, the toolbelt's
 * middleware (the date and open tasks before each model call, tool errors as ToolMessages),
 * and a checkpointer, so a write that needs approval pauses the run until someone answers.
 */
import type { BaseMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { Command, MemorySaver, type Interrupt } from '@langchain/langgraph';
import { createAgent, HumanMessage } from 'langchain';
// In your project: from 'agent-toolbelt' and 'agent-toolbelt/langchain'.
import { createDateTimeTools, createFileTools, createTaskListTools, Workspace } from '../../src/index.js';
import { toLangChain, type ApprovalInterrupt, type ApprovalResume } from '../../adapters/langchain/index.js';

/** Asks a person about one approval interrupt. */
export type Decide = (request: ApprovalInterrupt) => Promise<ApprovalResume>;

/** Builds the agent for one folder; `tasks` and `belt` let the caller look at the task list afterwards. */
export function buildAgent(folder: string, model: BaseChatModel) {
  const tasks = createTaskListTools();
  const belt = toLangChain([createFileTools({ workspace: new Workspace(folder) }), tasks, createDateTimeTools()]);
  const agent = createAgent({
    model,
    tools: belt.tools,
    middleware: [belt.middleware],
    systemPrompt: `You are a careful assistant working in ${folder}.\n\n${belt.instructions}`,
    checkpointer: new MemorySaver(),
  });
  return { agent, belt, tasks };
}

/** Runs one user turn to the end, answering each approval interrupt with `decide`. */
export async function runTurn(agent: ReturnType<typeof buildAgent>['agent'], text: string, threadId: string, decide: Decide): Promise<BaseMessage[]> {
  const config = { configurable: { thread_id: threadId } };
  let result = await agent.invoke({ messages: [new HumanMessage(text)] }, config);
  for (let pending = interruptsOf(result); pending.length > 0; pending = interruptsOf(result)) {
    const resume: Record<string, ApprovalResume> = {};
    for (const { id, value } of pending) resume[id!] = await decide(value as ApprovalInterrupt);
    result = await agent.invoke(new Command({ resume }), config);
  }
  return result.messages;
}

function interruptsOf(result: unknown): Interrupt[] {
  return (result as { __interrupt__?: Interrupt[] }).__interrupt__ ?? [];
}
