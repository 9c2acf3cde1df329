import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type AuthInfo } from '@modelcontextprotocol/server';
import { createSession, type Session, type ToolCollection } from '../../src/index.js';
import { memoryConversations, storeConversations } from './conversations.js';
import { serveLegacyStateless } from './http-legacy-stateless.js';
import { errorResponse, onStreamEnd, requestId } from './http-responses.js';
import { carriesToken, refusedOrigin, type RequestPolicy } from './http-security.js';
import { answerNodeRequest } from './node-request.js';
import { createOAuthResourceServer, type McpOAuthOptions, type OAuthResourceServer } from './oauth/index.js';
import { SpentStates } from './request-state.js';
import { buildMcpServer, createMcpServer } from './server.js';
import type { McpServerOptions } from './server-options.js';

/** Largest request body accepted: 4 MiB (a `write_file` of a large file fits). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Sessions open at once; beyond it the one idle longest is closed, or, when all are busy, an initialize is refused with 503. */
export const DEFAULT_MAX_SESSIONS = 32;
/** A session with no request and no open stream for this long is closed and its jobs ended: 30 minutes. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;

/** Options of {@link createMcpHttpHandler}: the server's, for each session, and the HTTP side. */
export interface McpHttpOptions extends Omit<McpServerOptions, 'session'> {
  /**
   * When set, every request must carry `Authorization: Bearer <token>`; others get 401 and
   * reach nothing. Needed to listen on an address other machines can reach.
   */
  readonly token?: string;
  /**
   * Makes the endpoint an OAuth 2.1 resource server: every request carries an access token
   * from `issuer` for `resource`; the token's scopes decide which tools it may call,
   * and each session belongs to the token's subject. Instead of `token`. See oauth/README.md.
   */
  readonly oauth?: McpOAuthOptions;
  /** Web origins allowed to call besides this machine's own (`https://app.example.com`). @default [] */
  readonly allowedOrigins?: readonly string[];
  /**
   * `Host` header names accepted besides loopback ones.
   * @default none without a token or `oauth` (only `localhost`, `127.0.0.1`, `[::1]`); any host with one
   */
  readonly allowedHosts?: readonly string[];
  /** @default {@link DEFAULT_MAX_BODY_BYTES} */
  readonly maxBodyBytes?: number;
  /** @default {@link DEFAULT_MAX_SESSIONS} */
  readonly maxSessions?: number;
  /** @default {@link DEFAULT_SESSION_IDLE_MS} */
  readonly sessionIdleMs?: number;
}

/** What the host knows of a request besides the request itself. */
export interface McpRequestOptions {
  /**
   * Who the host verified the caller to be (an OAuth access token's subject and scopes):
   * passed to the tools' context, and for 2026-07-28 clients it keys the user's conversations.
   */
  readonly authInfo?: AuthInfo;
}

/** Answers MCP's Streamable HTTP transport in both protocol eras. */
export interface McpHttpHandler {
  /** Answers a web-standard request: a Next.js route handler, Hono, Bun, Deno. */
  handleRequest(request: Request, options?: McpRequestOptions): Promise<Response>;
  /** Answers a Node.js request (`http.createServer`, Express, Fastify's raw request). */
  handleNodeRequest(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Sessions open now. */
  readonly sessionCount: number;
  /** Closes every session and stops their background jobs. */
  close(): Promise<void>;
}

interface OpenSession {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly session: Session;
  /** The OAuth subject that started the session; only it may use the session. */
  readonly subject: string | undefined;
  lastActive: number;
  openStreams: number;
}

/**
 * Serves the collections over MCP's Streamable HTTP transport from inside your own server, to
 * clients of both protocol eras. A 2026-07-28 request stands alone: it is answered by a server
 * made for it, with the session of its conversation (see `sessionStore`). A 2025-era client
 * opens an MCP session (its `Mcp-Session-Id`); without a `sessionStore` it gets its own
 * `McpServer` and toolbelt `Session` (task list, approvals, background jobs) in this process,
 * closed when the client ends it (HTTP DELETE), when it stays idle for `sessionIdleMs`, or on
 * {@link McpHttpHandler.close}; with one, each of its requests is served on its own too, so
 * any instance can answer it. Before any request is served: the `Host` and `Origin` headers
 * are checked (DNS rebinding, web pages), the bearer token or the OAuth access token when one is
 * required, and the body's size. Mount it at one path (with `oauth`, route its metadata paths
 * to it too).
 *
 * @example
 * // app/mcp/route.ts in Next.js
 * const handler = createMcpHttpHandler([createFileTools({ workspace })], { token: process.env.TOOLBELT_MCP_TOKEN });
 * export const GET = handler.handleRequest, POST = handler.handleRequest, DELETE = handler.handleRequest;
 */
export function createMcpHttpHandler(collections: readonly ToolCollection[], options: McpHttpOptions = {}): McpHttpHandler {
  const { token, oauth: oauthOptions, allowedOrigins = [], allowedHosts, maxBodyBytes = DEFAULT_MAX_BODY_BYTES, maxSessions = DEFAULT_MAX_SESSIONS, sessionIdleMs = DEFAULT_SESSION_IDLE_MS, ...serverOptions } = options;
  validateHttpOptions(options);
  // Fails now, not at the first request, when an option of the server is wrong.
  void createMcpServer(collections, serverOptions);
  const oauth = oauthOptions === undefined ? undefined : createOAuthResourceServer(oauthOptions, collections, serverOptions.background);
  const authenticated = token !== undefined || oauth !== undefined;
  const gate: RequestGate = { policy: { allowedHosts: allowedHosts ?? (authenticated ? undefined : []), allowedOrigins }, token, oauth, maxBodyBytes };
  const sessions = new Map<string, OpenSession>();
  const { sessionStore, ...perServer } = serverOptions;
  const memory = sessionStore === undefined ? memoryConversations(maxSessions) : undefined;
  const wiring = { conversations: memory ?? storeConversations(sessionStore!), spent: new SpentStates(), stored: sessionStore !== undefined };
  const modern = createMcpHandler(() => buildMcpServer(collections, perServer, wiring), { legacy: 'reject', maxRequestBodySize: maxBodyBytes });
  const sweep = sweepIdle(sessions, sessionIdleMs);

  async function handleRequest(request: Request, requestOptions: McpRequestOptions = {}): Promise<Response> {
    const admitted = await admitCaller(request, gate, requestOptions.authInfo);
    if ('answer' in admitted) return admitted.answer;
    const { parsedBody, subject, authInfo } = admitted;
    const passed = { parsedBody, ...(authInfo === undefined ? {} : { authInfo }) };
    if (!(await isLegacyRequest(request, parsedBody ?? null, { maxRequestBodySize: maxBodyBytes }))) return modern.fetch(request, passed);
    if (sessionStore !== undefined) {
      return serveLegacyStateless(request, parsedBody, { authInfo, store: sessionStore, make: (legacy) => buildMcpServer(collections, perServer, { ...wiring, legacy }) });
    }
    const id = request.headers.get('mcp-session-id');
    const found = id === null ? undefined : sessions.get(id);
    // Another subject's session is answered as one that does not exist: its id reveals nothing.
    const open = found?.subject === subject ? found : undefined;
    if (id !== null && open === undefined) return errorResponse(404, `There is no session \`${id}\` (it ended or expired); start a new one with initialize.`, {}, -32001, requestId(parsedBody));
    if (open !== undefined) {
      open.lastActive = Date.now();
      const response = await open.transport.handleRequest(request, passed);
      // A GET is the client's standing stream for server messages: open as long as the client
      // is, so only the streams answering requests count as work in progress.
      return request.method === 'POST' ? trackStream(open, response) : response;
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsedBody)) {
      return errorResponse(400, 'Send the `Mcp-Session-Id` header of your session, or start one with an initialize request.', {}, -32000, requestId(parsedBody));
    }
    if (sessions.size >= maxSessions && !closeIdlest(sessions)) return sessionsFull(maxSessions, parsedBody);
    return startSession(request, parsedBody, authInfo, subject);
  }

  async function startSession(request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined, subject: string | undefined): Promise<Response> {
    const session = createSession();
    const server = createMcpServer(collections, { ...perServer, session });
    let opened: OpenSession | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        opened = { transport, session, subject, lastActive: Date.now(), openStreams: 0 };
        sessions.set(id, opened);
      },
    });
    await server.connect(transport);
    server.server.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      void session.close();
    };
    const response = await transport.handleRequest(request, { parsedBody, ...(authInfo === undefined ? {} : { authInfo }) });
    if (opened !== undefined) return trackStream(opened, response);
    // The initialize was refused (a bad version, a bad header): no session was made to keep.
    await transport.close();
    return response;
  }

  return {
    handleRequest,
    handleNodeRequest: (request, response) => answerNodeRequest(request, response, (web) => handleRequest(web)),
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((open) => open.transport.close()));
      await modern.close();
      await memory?.close();
    },
  };
}

/** The answer to an initialize when every one of the `maxSessions` sessions is busy. */
function sessionsFull(maxSessions: number, parsedBody: unknown): Response {
  const text = `This server keeps at most ${maxSessions} session${maxSessions === 1 ? '' : 's'} open, and each is busy with a call; try again when one has finished.`;
  return errorResponse(503, text, { 'Retry-After': '60' }, -32000, requestId(parsedBody));
}

/** Closes, every little while, the sessions idle (nothing streaming) for longer than `idleMs`. */
function sweepIdle(sessions: Map<string, OpenSession>, idleMs: number): NodeJS.Timeout {
  const sweep = setInterval(() => {
    const cutoff = Date.now() - idleMs;
    for (const open of sessions.values()) if (open.openStreams === 0 && open.lastActive < cutoff) void open.transport.close();
  }, Math.min(Math.max(Math.floor(idleMs / 2), 10), 60_000));
  sweep.unref();
  return sweep;
}

/** What a request has to pass before it reaches a session. */
interface RequestGate {
  readonly policy: RequestPolicy;
  readonly token: string | undefined;
  readonly oauth: OAuthResourceServer | undefined;
  readonly maxBodyBytes: number;
}

/**
 * The answer for a request refused before it reaches a session (its origin, its token, its
 * body's size or syntax, its scopes), or the body it sent, parsed (`undefined` when it is not
 * a POST), with the OAuth subject it speaks for.
 */
async function admitRequest(request: Request, gate: RequestGate): Promise<{ readonly refusal: Response } | { readonly parsedBody: unknown; readonly subject?: string }> {
  const { policy, token, oauth, maxBodyBytes } = gate;
  const refusal = refusedOrigin(request.headers, policy);
  if (refusal !== undefined) return { refusal: errorResponse(403, refusal) };
  if (token !== undefined && !carriesToken(request.headers.get('authorization'), token)) {
    return { refusal: errorResponse(401, 'This server needs its token: send `Authorization: Bearer <token>` with every request.', { 'WWW-Authenticate': 'Bearer realm="agent-toolbelt"' }) };
  }
  const authenticated = oauth === undefined ? undefined : await oauth.authenticate(request);
  if (authenticated !== undefined && 'refusal' in authenticated) return authenticated;
  const subject = authenticated?.principal.subject;
  if (request.method !== 'POST') return { parsedBody: undefined, subject };
  const declared = Number(request.headers.get('content-length') ?? 0);
  const body = declared > maxBodyBytes ? undefined : await readBody(request.body, maxBodyBytes);
  if (body === undefined) return { refusal: errorResponse(413, `The request body is larger than ${maxBodyBytes.toLocaleString('en-US')} bytes, the most this server accepts.`) };
  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(body);
  } catch {
    return { refusal: errorResponse(400, 'The request body is not JSON; send a JSON-RPC message.', {}, -32700) };
  }
  const insufficient = authenticated === undefined ? undefined : oauth?.authorize(authenticated.principal, parsedBody);
  return insufficient === undefined ? { parsedBody, subject } : { refusal: insufficient };
}

/**
 * Makes room at the limit: many clients never end their sessions, so the one idle longest
 * (nothing streaming) is closed, as it would be on expiry. False when every session is busy.
 */
function closeIdlest(sessions: Map<string, OpenSession>): boolean {
  let idlest: OpenSession | undefined;
  for (const open of sessions.values()) {
    if (open.openStreams === 0 && (idlest === undefined || open.lastActive < idlest.lastActive)) idlest = open;
  }
  if (idlest === undefined) return false;
  if (idlest.transport.sessionId !== undefined) sessions.delete(idlest.transport.sessionId);
  void idlest.transport.close();
  return true;
}

/**
 * The request past the gate, with who sent it, or the answer it gets instead (the OAuth
 * metadata document, a refusal). A verified OAuth subject keys the conversations as the
 * host's own `authInfo` would.
 */
async function admitCaller(request: Request, gate: RequestGate, given: AuthInfo | undefined): Promise<{ readonly answer: Response } | { readonly parsedBody: unknown; readonly subject: string | undefined; readonly authInfo: AuthInfo | undefined }> {
  const metadata = gate.oauth?.answerMetadata(request);
  if (metadata !== undefined) return { answer: metadata };
  const admitted = await admitRequest(request, gate);
  if ('refusal' in admitted) return { answer: admitted.refusal };
  const { parsedBody, subject } = admitted;
  return { parsedBody, subject, authInfo: given ?? (subject === undefined ? undefined : subjectAuthInfo(subject)) };
}

/** The `authInfo` of a request whose access token the OAuth check verified: its subject keys the user's conversations. */
function subjectAuthInfo(subject: string): AuthInfo {
  return { token: '', clientId: subject, scopes: [], extra: { sub: subject } };
}

/** Counts a streamed answer as activity until it ends, so a long call is never idle. */
function trackStream(open: OpenSession, response: Response): Response {
  open.lastActive = Date.now();
  if (response.body === null) return response;
  open.openStreams += 1;
  return onStreamEnd(response, () => {
    open.openStreams -= 1;
    open.lastActive = Date.now();
  });
}

/** The body as text, or `undefined` once it grows past the limit (the rest is not read). */
async function readBody(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null, limit: number): Promise<string | undefined> {
  if (body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function validateHttpOptions(options: McpHttpOptions): void {
  if (options.token !== undefined && options.oauth !== undefined) {
    throw new TypeError('Give either the `token` option (one shared token) or `oauth` (access tokens from an authorization server), not both.');
  }
  if (options.token !== undefined && (typeof options.token !== 'string' || options.token.trim().length < 16)) {
    throw new TypeError('Expected the `token` option to be a string of at least 16 characters (a random one: `openssl rand -hex 32`).');
  }
  for (const key of ['maxBodyBytes', 'maxSessions', 'sessionIdleMs'] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isSafeInteger(value) || value <= 0)) {
      throw new TypeError(`Expected the \`${key}\` option to be a positive integer, got \`${String(value)}\` (${typeof value}).`);
    }
  }
  for (const key of ['allowedOrigins', 'allowedHosts'] as const) {
    const value = options[key];
    if (value !== undefined && (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))) {
      throw new TypeError(`Expected the \`${key}\` option to be an array of strings, got \`${JSON.stringify(value)}\`.`);
    }
  }
}
