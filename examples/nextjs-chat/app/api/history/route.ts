import { badChatId, chatMessages, isChatId, loadSession } from '../../../lib/toolbelt';

export const dynamic = 'force-dynamic';

/** The chat's messages as its session kept them: a second tab catches up with the first. */
export async function GET(request: Request): Promise<Response> {
  const chatId = new URL(request.url).searchParams.get('chat');
  if (!isChatId(chatId)) return badChatId(chatId);
  return Response.json(chatMessages(await loadSession(chatId)));
}
