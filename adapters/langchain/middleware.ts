import { AIMessage, HumanMessage, ToolMessage, type InvalidToolCall } from '@langchain/core/messages';
import { isGraphBubbleUp } from '@langchain/langgraph';
import { createMiddleware } from 'langchain';
import { collectContext, errorResult, type ToolCollection } from '../../src/index.js';
import { threadIdOf, type ThreadSessions } from './sessions.js';

/** The name the middleware carries in `createAgent`. */
export const MIDDLEWARE_NAME = 'AgentToolbelt';

/**
 * The `createAgent` middleware: before each model call it appends the collections' context
 * (the date, the open tasks, finished background jobs) as one message at the end of the
 * request, never into the system message and never into the saved state; around each tool
 * call it turns anything thrown (a foreign tool, a bug) into a ToolMessage with
 * `status: 'error'`, so the run goes on. LangGraph's interrupts pass through. When every
 * call of a model turn had arguments that were not JSON (LangChain keeps those apart, in
 * `invalid_tool_calls`), it answers each with an error ToolMessage and asks the model again,
 * instead of ending the run with calls no ToolMessage answers (which providers refuse on the
 * next turn).
 */
export function createToolbeltMiddleware(collections: readonly ToolCollection[], resolveSession: ThreadSessions) {
  const { persist, refresh } = resolveSession;
  return createMiddleware({
    name: MIDDLEWARE_NAME,
    // With a sessionStore: each run starts from the stored session and saves it when it ends.
    ...(persist === undefined || refresh === undefined
      ? {}
      : {
          beforeAgent: async (_state: unknown, runtime: { configurable?: Record<string, unknown> }) => {
            await refresh(threadIdOf(runtime.configurable));
            return undefined;
          },
          afterAgent: async (_state: unknown, runtime: { configurable?: Record<string, unknown> }) => {
            await persist(threadIdOf(runtime.configurable));
            return undefined;
          },
        }),
    wrapModelCall: async (request, handler) => {
      const session = await resolveSession(threadIdOf(request.runtime.configurable));
      const context = await collectContext(collections, session);
      if (context === undefined) return handler(request);
      return handler({ ...request, messages: [...request.messages, new HumanMessage(context)] });
    },
    afterModel: {
      canJumpTo: ['model'],
      hook: (state) => {
        const last = state.messages.at(-1);
        if (!AIMessage.isInstance(last) || (last.tool_calls?.length ?? 0) > 0 || !last.invalid_tool_calls?.length) return undefined;
        // With valid calls beside them, providers are sent only the valid ones, so answering these would leave orphan results.
        return { messages: last.invalid_tool_calls.map(invalidCallMessage), jumpTo: 'model' as const };
      },
    },
    wrapToolCall: async (request, handler) => {
      try {
        return await handler(request);
      } catch (error) {
        if (isGraphBubbleUp(error) || request.runtime.signal?.aborted) throw error;
        const { id, name } = request.toolCall;
        return new ToolMessage({ content: errorResult(name, error).text, tool_call_id: id ?? '', name, status: 'error' });
      }
    },
  });
}

/** The error ToolMessage for a call whose arguments were not JSON, worded like the other adapters' answer. */
function invalidCallMessage(call: InvalidToolCall): ToolMessage {
  const name = call.name ?? 'the tool';
  const reason = call.error === undefined ? '' : ` (${call.error})`;
  return new ToolMessage({
    content: `The arguments for ${name} are not valid JSON${reason}. Call ${name} again with a JSON object that matches its parameters.`,
    tool_call_id: call.id ?? '',
    name: call.name ?? '',
    status: 'error',
  });
}
