import { describeToolCall, SessionBusyError } from 'agent-toolbelt';
import { badChatId, isChatId, loadSession, sessionStore } from '../../../lib/toolbelt';

export const dynamic = 'force-dynamic';

/** One "Always allow" the session remembers: its key, and what it lets run unasked in words. */
export interface AlwaysView {
  key: string;
  words: string;
}

/** The chat's remembered "Always allow" decisions, for the side panel. */
export async function GET(request: Request): Promise<Response> {
  const chatId = new URL(request.url).searchParams.get('chat');
  if (!isChatId(chatId)) return badChatId(chatId);
  return Response.json(viewsOf((await loadSession(chatId)).approvals));
}

/**
 * Takes an "Always allow" back: POST `{ chat, key }`. It changes the session under the chat's
 * lease, as a turn does, so it never overwrites a running turn's save; a chat busy with a
 * turn answers 409.
 */
export async function POST(request: Request): Promise<Response> {
  const body = (await request.json().catch(() => undefined)) as { chat?: unknown; key?: unknown } | undefined;
  if (!isChatId(body?.chat)) return badChatId(body?.chat);
  if (typeof body.key !== 'string') return Response.json({ error: 'Expected { chat, key } with the key of an "Always allow".' }, { status: 400 });
  const key = body.key;
  let left: readonly string[] = [];
  try {
    await (await sessionStore()).withSession(body.chat, (session) => {
      session.revoke(key);
      left = session.approvals;
    }, { waitMs: 2_000 });
  } catch (error) {
    if (error instanceof SessionBusyError) return Response.json({ error: 'busy', message: 'The chat is running a turn; take it back when it ends.' }, { status: 409 });
    throw error;
  }
  return Response.json(viewsOf(left));
}

/** `run_shell:npm test` → `Run shell: npm test`; `write_file` → `Write file (every call)`. */
function viewsOf(keys: readonly string[]): AlwaysView[] {
  return keys.map((key) => {
    const at = key.indexOf(':');
    const name = at === -1 ? key : key.slice(0, at);
    return { key, words: at === -1 ? `${describeToolCall({ name }, {})} (every call)` : `${describeToolCall({ name }, {})}: ${key.slice(at + 1)}` };
  });
}
