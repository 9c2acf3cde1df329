import { randomUUID } from 'node:crypto';
import {
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpServer,
} from '@modelcontextprotocol/server';
import { createSession, type SessionStore } from '../../src/index.js';
import { legacySessionKey } from './conversations.js';
import { errorResponse, onStreamEnd, requestId } from './http-responses.js';

/** A 2025-era MCP session served without a transport session: its id and the version it negotiated. */
export interface LegacySession {
  readonly sessionId: string;
  readonly protocolVersion: string;
}

/** What {@link serveLegacyStateless} needs. */
export interface LegacyStatelessOptions {
  readonly authInfo: AuthInfo | undefined;
  readonly store: SessionStore;
  /** A server for one request of the session. */
  readonly make: (legacy: LegacySession) => McpServer;
}

/**
 * Serves a 2025-era request when the sessions live in a store, so that any instance can
 * answer any request of an MCP session: `initialize` mints the `Mcp-Session-Id` (a random id
 * and the negotiated version, which later requests carry back), and every request is answered
 * by a server made for it, whose calls load and save the session's toolbelt `Session` in the
 * store. Nothing waits in this process between requests, so there is no standing GET stream
 * (405) and no request from the server to the client (approvals are not asked by elicitation:
 * the answer could reach another instance). `initialize` saves the session, so a request with
 * an id no `initialize` minted, or one `DELETE` deleted from the store, is answered `404`, as
 * the transport specification requires of a terminated session.
 */
export async function serveLegacyStateless(request: Request, parsedBody: unknown, options: LegacyStatelessOptions): Promise<Response> {
  const header = request.headers.get('mcp-session-id');
  if (request.method === 'GET') {
    return errorResponse(405, 'This server keeps no stream open between requests; send requests with POST.', { Allow: 'POST, DELETE' });
  }
  const key = (sessionId: string) => legacySessionKey(sessionId, options.authInfo);
  const initialize = isInitializeRequest(parsedBody);
  if (!initialize && header !== null && (await options.store.load(key(header))) === undefined) {
    return errorResponse(404, `There is no session \`${header}\` (it ended or expired); start a new one with initialize.`, {}, -32001, requestId(parsedBody));
  }
  if (request.method === 'DELETE') {
    if (header !== null) await options.store.delete(key(header));
    return new Response(null, { status: 200 });
  }
  let legacy: LegacySession;
  if (initialize) {
    const requested = parsedBody.params.protocolVersion;
    const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
    legacy = { sessionId: `${randomUUID()}.${protocolVersion}`, protocolVersion };
    const session = createSession({ id: key(legacy.sessionId) });
    await options.store.save(session);
    await session.close();
  } else if (header === null) {
    return errorResponse(400, 'Send the `Mcp-Session-Id` header of your session, or start one with an initialize request.', {}, -32000, requestId(parsedBody));
  } else {
    const version = header.slice(header.indexOf('.') + 1);
    legacy = { sessionId: header, protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(version) ? version : LATEST_PROTOCOL_VERSION };
  }
  const server = options.make(legacy);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  const response = await transport.handleRequest(request, { parsedBody, ...(options.authInfo === undefined ? {} : { authInfo: options.authInfo }) });
  const headers = new Headers(response.headers);
  headers.set('mcp-session-id', legacy.sessionId);
  return onStreamEnd(new Response(response.body, { status: response.status, statusText: response.statusText, headers }), () => void server.close());
}
