import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createAskUserTools, createFileTools, createSession, createTaskListTools, restoreSession, Workspace, type Session, type ToolCollection } from 'agent-toolbelt';

/** The folder the agent works in: `TOOLBELT_WORKSPACE`, else the folder the server was started in. */
export function workspaceRoot(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.TOOLBELT_WORKSPACE ?? process.cwd());
}

let cached:
  | { workspace: Workspace; files: ReturnType<typeof createFileTools>; tasks: ReturnType<typeof createTaskListTools>; askUser: ReturnType<typeof createAskUserTools> }
  | undefined;

/** The collections, made once per server process (they hold no conversation state). */
export function toolbelt() {
  if (cached === undefined) {
    const workspace = new Workspace(workspaceRoot());
    // No `ask` callback: ask_user_question is answered by the page (addToolOutput).
    cached = { workspace, files: createFileTools({ workspace }), tasks: createTaskListTools(), askUser: createAskUserTools() };
  }
  return { ...cached, collections: [cached.files, cached.tasks, cached.askUser] as ToolCollection[] };
}

const CHAT_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** A chat id is used as a file name: letters, digits, `_` and `-` only. */
export function isChatId(value: unknown): value is string {
  return typeof value === 'string' && CHAT_ID.test(value);
}

/** The answer to a request whose chat id cannot be used. */
export function badChatId(value: unknown): Response {
  return Response.json({ error: `Expected a chat id of letters, digits, "_" or "-", got ${JSON.stringify(value) ?? String(value)}.` }, { status: 400 });
}

async function sessionFile(chatId: string): Promise<string> {
  if (!isChatId(chatId)) throw new Error(`Expected a chat id of letters, digits, "_" or "-", got ${JSON.stringify(chatId)}.`);
  // The workspace's private folder: the agent's own file tools refuse to touch it.
  return path.join(await toolbelt().workspace.privateDir('chat-sessions'), `${chatId}.json`);
}

/** The conversation's session: restored from its JSON when this chat was seen before. */
export async function loadSession(chatId: string): Promise<Session> {
  const saved = await readFile(await sessionFile(chatId), 'utf8').catch(() => undefined);
  return saved === undefined ? createSession({ id: chatId }) : restoreSession(saved);
}

/** Saves the session after a response, atomically (temp file + rename). */
export async function saveSession(chatId: string, session: Session): Promise<void> {
  const file = await sessionFile(chatId);
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(session));
  await rename(temp, file);
}
