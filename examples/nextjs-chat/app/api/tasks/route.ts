import { badChatId, isChatId, loadSession, toolbelt } from '../../../lib/toolbelt';

export const dynamic = 'force-dynamic';

/** The chat's task list, for the page's side panel. */
export async function GET(request: Request): Promise<Response> {
  const chatId = new URL(request.url).searchParams.get('chat');
  if (!isChatId(chatId)) return badChatId(chatId);
  const session = await loadSession(chatId);
  return Response.json(await toolbelt().tasks.getTasks(session));
}
