import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { isGraphBubbleUp } from '@langchain/langgraph';
import { createMiddleware } from 'langchain';
import { collectContext, errorResult, type ToolCollection } from '../../src/index.js';
import { threadIdOf, type SessionResolver } from './sessions.js';

/** The name the middleware carries in `createAgent`. */
export const MIDDLEWARE_NAME = 'AgentToolbelt';

/**
 * The `createAgent` middleware: before each model call it appends the collections' context
 * (the date, the open tasks, finished background jobs) as one message at the end of the
 * request, never into the system message and never into the saved state; around each tool
 * call it turns anything thrown (a foreign tool, a bug) into a ToolMessage with
 * `status: 'error'`, so the run goes on. LangGraph's interrupts pass through.
 */
export function createToolbeltMiddleware(collections: readonly ToolCollection[], resolveSession: SessionResolver) {
  return createMiddleware({
    name: MIDDLEWARE_NAME,
    wrapModelCall: async (request, handler) => {
      const session = await resolveSession(threadIdOf(request.runtime.configurable));
      const context = await collectContext(collections, session);
      if (context === undefined) return handler(request);
      return handler({ ...request, messages: [...request.messages, new HumanMessage(context)] });
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
