import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent } from 'langchain';
import { toLangChain, type ApprovalInterrupt } from '../../../adapters/langchain/index.js';
import type { Driver, DriverRun, ModelView, SeenResult } from '../driver.js';

let threads = 0;

/** LangChain: `createAgent` with `toLangChain`'s tools and middleware, `fakeModel()` and a `MemorySaver`. */
export function langChainDriver(approvals: Driver['approvals']): Driver {
  return {
    name: `LangChain (${approvals === 'callback' ? 'onApproval' : 'interrupts'})`,
    framework: 'langchain',
    approvals,
    hasPrompt: true,
    validatesArgumentsFirst: false,
    async run(run: DriverRun): Promise<ModelView> {
      const { approver } = run;
      const belt = toLangChain(run.collections, {
        session: run.session,
        mode: run.mode,
        needsApproval: run.needsApproval,
        onApproval: approvals === 'callback' && approver !== undefined ? (request) => approver(request) : undefined,
      });
      const model = fakeModel();
      // Not `respondWithTools`: its message text echoes the whole prompt, context included.
      run.turns.forEach((calls, turn) =>
        model.respond(new AIMessage({ content: '', tool_calls: calls.map((call, index) => ({ name: call.tool, args: call.input, id: `call-${turn}-${index}`, type: 'tool_call' as const })) })),
      );
      model.respond(new AIMessage('Done.'));
      const agent = createAgent({ model, tools: belt.tools, middleware: [belt.middleware], systemPrompt: belt.instructions, checkpointer: new MemorySaver() });
      const config = { configurable: { thread_id: `conformance-${++threads}` } };

      let result = await agent.invoke({ messages: [new HumanMessage('Go.')] }, config);
      // Without onApproval the graph pauses with one interrupt per call that needs approval.
      while (result.__interrupt__?.length && approver !== undefined) {
        const resume = Object.fromEntries(
          result.__interrupt__.map((pending) => {
            const value = pending.value as ApprovalInterrupt;
            return [pending.id!, approver({ toolName: value.toolCall.name, description: value.description })];
          }),
        );
        result = await agent.invoke(new Command({ resume }), config);
      }
      const last = model.calls.at(-1)!.messages as BaseMessage[];
      return { results: resultsIn(last), lastPrompt: last.map((message) => message.text) };
    },
  };
}

function resultsIn(messages: BaseMessage[]): SeenResult[] {
  return messages
    .filter((message): message is ToolMessage => ToolMessage.isInstance(message))
    .map((message) => ({ tool: message.name ?? '', text: message.text, isError: message.status === 'error' }));
}
