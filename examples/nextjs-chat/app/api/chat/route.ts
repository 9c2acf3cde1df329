import { toAiSdk } from 'agent-toolbelt/ai-sdk';
import { convertToModelMessages, generateId, stepCountIs, streamText, wrapLanguageModel, type UIMessage } from 'ai';
import { chatModel } from '../../../lib/model';
import { AUDIT, badChatId, isChatId, keepChatMessages, NEEDS_APPROVAL, respondInTurn, toolbelt } from '../../../lib/toolbelt';

export const dynamic = 'force-dynamic';

/**
 * One chat turn. The handler keeps nothing in memory between requests: under the chat's lease
 * in the session store it restores the conversation's session by chat id, runs the model with
 * the toolbelt, and saves the session once the response is complete, so any server instance
 * can serve the next request. A second request for a chat whose turn is still running
 * answers 409. Calls that need approval end the response with an approval request; the page
 * answers it and sends the conversation back. The conversation's messages are kept in the
 * session too, so a reload or a second tab of the same chat (the id in the URL) shows them.
 */
export async function POST(request: Request): Promise<Response> {
  const { id, messages }: { id: string; messages: UIMessage[] } = await request.json();
  if (!isChatId(id)) return badChatId(id);
  return respondInTurn(id, async (session, turn) => {
    const belt = toAiSdk(toolbelt().collections, { session, needsApproval: NEEDS_APPROVAL, ...(AUDIT ? { onAudit: AUDIT } : {}) });
    const result = streamText({
      model: wrapLanguageModel({ model: chatModel(), middleware: belt.middleware }),
      system: `You are a coding assistant working in a folder.\n\n${belt.instructions}`,
      tools: belt.tools,
      toolApproval: belt.toolApproval,
      messages: await convertToModelMessages(messages, { tools: belt.tools }),
      stopWhen: stepCountIs(20),
      // The page's Stop button ends the request; the running tool call (a command's whole
      // process tree) ends with it. Tools that report progress stream it as preliminary results.
      // A turn that lost its lease stops too: it could not save.
      abortSignal: AbortSignal.any([request.signal, turn.signal]),
    });
    let finished!: () => void;
    const done = new Promise<void>((resolve) => (finished = resolve));
    const response = result.toUIMessageStreamResponse({
      originalMessages: messages,
      generateMessageId: generateId,
      // Also after Stop: what ran before it is part of the conversation.
      onEnd: ({ messages: all }) => {
        keepChatMessages(session, all);
        finished();
      },
    });
    return { response, done };
  });
}
