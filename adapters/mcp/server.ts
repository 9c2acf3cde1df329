import {
  CLIENT_CAPABILITIES_META_KEY,
  LATEST_PROTOCOL_VERSION,
  McpServer,
  PROTOCOL_VERSION_META_KEY,
  type CallToolResult,
  type ClientCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { assertCollections } from '../../src/argument-checks.js';
import {
  assertApprovalOverrides,
  collectContext,
  collectInstructions,
  collectTools,
  createSession,
  SessionBusyError,
  withBackground,
  type ToolCollection,
} from '../../src/index.js';
import { effectiveOverrides } from './approval-policy.js';
import { callerOf, conversationKey, oneSession, storeConversations, type Conversations } from './conversations.js';
import { canElicit, DEFAULT_ELICITATION_TIMEOUT_MS } from './elicitation.js';
import { packageVersion } from './package-version.js';
import { progressNotifier } from './progress.js';
import { rootJobsFor } from './root-jobs.js';
import { createCallStateCodec, SpentStates, type CallState } from './request-state.js';
import { validateServerOptions, type McpServerOptions } from './server-options.js';
import { callTool, type CallRequest, type ConnectionContext } from './tool-call.js';
import { describeTools, toCallToolResult } from './tool-listing.js';

/** How the HTTP handler wires a server it makes for one session or one request. */
export interface ServerWiring {
  /** The conversations' sessions, shared by every server the handler makes. */
  readonly conversations?: Conversations;
  /** Nonces spent by every server the handler makes. */
  readonly spent?: SpentStates;
  /** The conversations live in a session store: background jobs then live in the root's job folders, not in a process. */
  readonly stored?: boolean;
  /** A legacy request served without a transport session: its session id and negotiated version. */
  readonly legacy?: { readonly sessionId: string; readonly protocolVersion: string };
}

/**
 * An MCP server offering every tool of the collections, in their order, with JSON Schemas
 * in the dialect of the request's protocol version, output schemas where a tool declares
 * one, and every hint stated. It speaks both protocol eras: 2025-11-25 (and older) clients
 * that open with `initialize`, and 2026-07-28 clients that send their version and
 * capabilities with each request. Calls go through the core's `runTool`; failures come back
 * as `isError` results. A call that needs approval, and `ask_user_question`, put a form to the
 * user when the client supports elicitation (a request from the server in the 2025 era, an
 * `input_required` result with a signed `requestState` in the 2026-07-28 one), else go to
 * `onApproval`, else are refused with a message saying how to allow them.
 * Connect it to a transport (`await server.connect(new StdioServerTransport())`), or serve it
 * from `serveStdio(() => createMcpServer(...))`; for HTTP, see {@link createMcpHttpHandler}.
 *
 * @example
 * const server = createMcpServer([createFileTools({ workspace })], { name: 'my-tools', version: '1.0.0' });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(collections: readonly ToolCollection[], options: McpServerOptions = {}): McpServer {
  return buildMcpServer(collections, options, {});
}

/** {@link createMcpServer}, wired by the HTTP handler. */
export function buildMcpServer(collections: readonly ToolCollection[], options: McpServerOptions, wiring: ServerWiring): McpServer {
  assertCollections(collections, 'createMcpServer');
  validateServerOptions(options);
  const owned = options.session === undefined && options.sessionStore === undefined && wiring.conversations === undefined ? createSession() : undefined;
  const conversations =
    wiring.conversations ?? (options.sessionStore !== undefined ? storeConversations(options.sessionStore) : oneSession(options.session ?? owned!));
  // With a store, a conversation's next call may reach another instance, and its session is
  // closed after every call: its jobs live beside the root instead, where every instance finds them.
  const stored = options.sessionStore !== undefined || wiring.stored === true;
  const served = options.background === undefined ? collections : withBackground(collections, { tools: options.background }, stored ? { jobsFor: rootJobsFor } : {});
  const tools = collectTools(served);
  assertApprovalOverrides(options.needsApproval, tools.keys());
  const needsApproval = effectiveOverrides(tools.values(), options.askForChanges ?? false, options.needsApproval);
  // MCP has no per-turn context, so the jobs collection's notices (a job finished) ride on the
  // next tool result: the model was told it would hear when a job ends.
  const jobs = served.length > collections.length ? served.slice(collections.length) : [];
  const instructions = collectInstructions(served);
  const codec = createCallStateCodec(options.requestStateKeys);
  const server = new McpServer(
    { name: options.name ?? 'agent-toolbelt', version: options.version ?? packageVersion() },
    { capabilities: { tools: {} }, ...(instructions === '' ? {} : { instructions }), requestState: { verify: codec.verify } },
  );
  const protocol = server.server;
  const connection: ConnectionContext = { protocol, options, needsApproval, elicitationTimeoutMs: options.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS, codec, spent: wiring.spent ?? new SpentStates() };

  /** What a request says of its client: the era, the protocol version and the capabilities. */
  const clientOf = (context: ServerContext) => {
    const envelope = (context.mcpReq.envelope ?? {}) as Record<string, unknown>;
    const modern = typeof envelope[PROTOCOL_VERSION_META_KEY] === 'string';
    const protocolVersion = modern
      ? (envelope[PROTOCOL_VERSION_META_KEY] as string)
      : (wiring.legacy?.protocolVersion ?? protocol.getNegotiatedProtocolVersion() ?? LATEST_PROTOCOL_VERSION);
    const capabilities = (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? protocol.getClientCapabilities();
    return { modern, protocolVersion, capabilities };
  };
  // Tools the user answers need a form; clients that cannot show one never see them.
  const offered = (capabilities: ClientCapabilities | undefined) =>
    [...tools.values()].filter((tool) => tool.answeredByClient === undefined || canElicit(capabilities));
  protocol.setRequestHandler('tools/list', async (_request, context) => {
    const { protocolVersion, capabilities } = clientOf(context);
    return { tools: await describeTools(offered(capabilities), protocolVersion) };
  });
  protocol.setRequestHandler('tools/call', async (request, context) => {
    const client = clientOf(context);
    const tool = offered(client.capabilities).find((candidate) => candidate.name === request.params.name);
    if (tool === undefined) {
      // A result the model can read, as the SDK's own server answers; it names the tools there are.
      const names = offered(client.capabilities).map((candidate) => candidate.name).join(', ');
      return { content: [{ type: 'text', text: `There is no tool \`${request.params.name}\`. The tools are ${names}.` }], isError: true };
    }
    const state = context.mcpReq.requestState<CallState>();
    const call: CallRequest = {
      ...client,
      signal: context.mcpReq.signal,
      toolCallId: String(context.mcpReq.id),
      onProgress: progressNotifier(context.mcpReq),
      conversation: conversationKey(context, client.modern, wiring.legacy?.sessionId),
      subject: callerOf(context.http?.authInfo),
      ...(state === undefined ? {} : { retry: { state, responses: context.mcpReq.inputResponses } }),
    };
    try {
      return await conversations.turn(call.conversation, async (session) => {
        const outcome = await callTool(connection, session, tool, request.params.arguments ?? {}, call);
        if ('resultType' in outcome) return outcome;
        const result = toCallToolResult(outcome, tool);
        const notice = jobs.length === 0 ? undefined : await collectContext(jobs, session);
        return notice === undefined ? result : ({ ...result, content: [...result.content, { type: 'text', text: notice }] } satisfies CallToolResult);
      });
    } catch (error) {
      // Another call of the conversation held it for longer than the store waits: nothing ran.
      if (error instanceof SessionBusyError) return toCallToolResult({ text: `${tool.name} was not run: ${error.message}`, isError: true });
      throw error;
    }
  });
  // A session the host never saw cannot be closed by the host: its jobs end with the connection.
  if (owned !== undefined) protocol.onclose = () => void owned.close();
  return server;
}
