import path from 'node:path';
import {
  connectWorkspace,
  createAskUserTools,
  createJsonlAuditSink,
  createFileSessionStore,
  createFileTools,
  createShellTools,
  createSession,
  createTaskListTools,
  SessionBusyError,
  Workspace,
  type RemoteWorkspace,
  type Session,
  type SessionStore,
  type SessionTurn,
  type ApprovalOverrides,
  type AuditListener,
  type ToolCollection,
} from 'agent-toolbelt';
import type { UIMessage } from 'ai';

/** The folder the agent works in: `TOOLBELT_WORKSPACE`, else the folder the server was started in. */
export function workspaceRoot(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.TOOLBELT_WORKSPACE ?? process.cwd());
}

/**
 * Remote mode: `TOOLBELT_REMOTE_COMMAND` holds a JSON array, the command that reaches the box,
 * e.g. `["ssh","box","npx","-y","agent-toolbelt","serve-workspace","--root","/work"]`. The
 * agent's files and commands are then in that box; this server keeps only the chat sessions.
 */
const remoteCommand: string[] | undefined = process.env.TOOLBELT_REMOTE_COMMAND ? (JSON.parse(process.env.TOOLBELT_REMOTE_COMMAND) as string[]) : undefined;
let remote: RemoteWorkspace | undefined = remoteCommand === undefined ? undefined : await connectWorkspace({ command: remoteCommand });
let reconnecting: Promise<void> | undefined;

let cached:
  | {
      workspace: Workspace;
      files: ReturnType<typeof createFileTools>;
      shell: ReturnType<typeof createShellTools>;
      tasks: ReturnType<typeof createTaskListTools>;
      askUser: ReturnType<typeof createAskUserTools>;
    }
  | undefined;

/** The collections, made once per server process (they hold no conversation state). */
export function toolbelt() {
  // A lost box fails its calls with a message saying so; the next request gets a new connection.
  if (remoteCommand !== undefined && remote?.lost !== undefined && reconnecting === undefined) {
    reconnecting = connectWorkspace({ command: remoteCommand }).then(
      (fresh) => {
        remote = fresh;
        cached = undefined;
        reconnecting = undefined;
      },
      () => void (reconnecting = undefined),
    );
  }
  if (cached === undefined) {
    const workspace = remote ?? new Workspace(workspaceRoot());
    // No `ask` callback: ask_user_question is answered by the page (addToolOutput).
    // run_shell asks before each command (the page's Allow); its output streams to the page while it runs.
    cached = { workspace, files: createFileTools({ workspace }), shell: createShellTools({ workspace }), tasks: createTaskListTools(), askUser: createAskUserTools() };
  }
  return { ...cached, collections: [cached.files, cached.shell, cached.tasks, cached.askUser] as ToolCollection[] };
}

/**
 * What asks before it runs, beyond each tool's default (write_file, delete_file and run_shell
 * ask already): edits and moves too, so the agent asks before it changes any file.
 */
export const NEEDS_APPROVAL: ApprovalOverrides = { edit_file: true, move_file: true };

/**
 * The audit trail: with `TOOLBELT_AUDIT_FILE` set, one JSON line per call that changed
 * something or needed approval (who allowed it, what it wrote), written before the result
 * returns. For traces, see "Observability" in the README.
 */
export const AUDIT: AuditListener | undefined = process.env.TOOLBELT_AUDIT_FILE ? createJsonlAuditSink(process.env.TOOLBELT_AUDIT_FILE) : undefined;

/** Where the chat's messages are kept: in the toolbelt session, so one store holds the whole conversation. */
const MESSAGES_KEY = 'nextjs-chat:messages';

/** The chat's messages as last saved with its session. */
export function chatMessages(session: Session): UIMessage[] {
  return session.state<UIMessage[]>(MESSAGES_KEY, () => []);
}

/** Keeps the chat's messages in its session; the store saves them with it when the turn ends. */
export function keepChatMessages(session: Session, messages: UIMessage[]): void {
  session.setState(MESSAGES_KEY, messages);
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

let store: Promise<SessionStore> | undefined;

/**
 * Where chats' sessions live: Postgres when `DATABASE_URL` is set, Redis when `REDIS_URL` is
 * set, else files in the workspace's private folder (which the agent's own file tools refuse
 * to touch). With Postgres or Redis, any number of server instances can serve one chat.
 */
export function sessionStore(): Promise<SessionStore> {
  store ??= (async () => {
    if (process.env.DATABASE_URL) {
      const { createPostgresSessionStore } = await import('agent-toolbelt/stores/postgres');
      return createPostgresSessionStore({ connectionString: process.env.DATABASE_URL });
    }
    if (process.env.REDIS_URL) {
      const { createRedisSessionStore } = await import('agent-toolbelt/stores/redis');
      return createRedisSessionStore({ url: process.env.REDIS_URL });
    }
    // Sessions stay on this server, also when the workspace is in a remote box.
    return createFileSessionStore({ dir: await new Workspace(workspaceRoot()).privateDir('chat-sessions') });
  })();
  return store;
}

/** The conversation's session as last saved, for reading (the task panel); takes no lease. */
export async function loadSession(chatId: string): Promise<Session> {
  return (await (await sessionStore()).load(chatId)) ?? createSession({ id: chatId });
}

/** How long a request waits for the chat's previous turn before answering 409. */
const WAIT_FOR_TURN_MS = 2_000;

/**
 * Runs one chat turn under the store's lease and answers with the turn's streamed response.
 * `start` builds the response and says when its stream is `done`; the lease is held (and
 * renewed) until then, and the session is saved after it. A chat whose previous turn is still
 * running on any instance answers 409 `{ error: 'busy', id, waitMs, message }`.
 */
export async function respondInTurn(
  chatId: string,
  start: (session: Session, turn: SessionTurn) => Promise<{ response: Response; done: Promise<unknown> }>,
): Promise<Response> {
  let respond!: (response: Response) => void;
  const responded = new Promise<Response>((resolve) => (respond = resolve));
  const turn = (await sessionStore()).withSession(
    chatId,
    async (session, info) => {
      const { response, done } = await start(session, info);
      respond(response);
      await done;
    },
    { waitMs: WAIT_FOR_TURN_MS },
  );
  const ended = turn.then(
    () => undefined,
    (error: unknown) => error ?? new Error('The turn failed without a reason.'),
  );
  const first = await Promise.race([responded.then((response) => ({ response })), ended.then((error) => ({ error }))]);
  if ('response' in first) {
    // The response is streaming; a save that fails after it is logged, the page already has its answer.
    void ended.then((error) => error && console.error(`Chat ${chatId}: the turn's session was not saved.`, error));
    return first.response;
  }
  if (first.error instanceof SessionBusyError) {
    const { id, waitMs, message } = first.error;
    return Response.json({ error: 'busy', id, waitMs, message }, { status: 409 });
  }
  throw first.error;
}
