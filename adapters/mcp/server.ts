import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  type CallToolResult,
  type InitializeRequest,
  type InitializeResult,
} from '@modelcontextprotocol/sdk/types.js';
import { assertCollections } from '../../src/argument-checks.js';
import {
  assertApprovalOverrides,
  collectContext,
  collectInstructions,
  collectTools,
  createSession,
  withBackground,
  type ToolCollection,
} from '../../src/index.js';
import { effectiveOverrides } from './approval-policy.js';
import { canElicit, DEFAULT_ELICITATION_TIMEOUT_MS } from './elicitation.js';
import { progressNotifier } from './progress.js';
import { validateServerOptions, type McpServerOptions } from './server-options.js';
import { callTool, type ConnectionContext } from './tool-call.js';
import { describeTools, toCallToolResult } from './tool-listing.js';

/**
 * An MCP server offering every tool of the collections, in their order, with JSON Schemas
 * in the dialect of the negotiated protocol version, output schemas where a tool declares
 * one, and every hint stated. Calls go through the core's `runTool`; failures come back as
 * `isError` results. A call that needs approval is put to the user through MCP elicitation
 * when the client supports it, else to `onApproval`, else refused with a message saying how
 * to allow it. `ask_user_question` is offered only to clients that support elicitation.
 * Connect it to a transport: `await server.connect(new StdioServerTransport())`; for HTTP,
 * see {@link createMcpHttpHandler}. Add resources and prompts to it as to any `McpServer`;
 * tools come from the collections (put your own in a collection).
 *
 * @example
 * const server = createMcpServer([createFileTools({ workspace })], { name: 'my-tools', version: '1.0.0' });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(collections: readonly ToolCollection[], options: McpServerOptions = {}): McpServer {
  assertCollections(collections, 'createMcpServer');
  validateServerOptions(options);
  const session = options.session ?? createSession();
  const elicitationTimeoutMs = options.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS;
  const served = options.background === undefined ? collections : withBackground(collections, { tools: options.background });
  const tools = collectTools(served);
  assertApprovalOverrides(options.needsApproval, tools.keys());
  const needsApproval = effectiveOverrides(tools.values(), options.askForChanges ?? false, options.needsApproval);
  // MCP has no per-turn context, so the jobs collection's notices (a job finished) ride on the
  // next tool result: the model was told it would hear when a job ends.
  const jobs = served.length > collections.length ? served.slice(collections.length) : [];
  const instructions = collectInstructions(served);
  const server = new McpServer(
    { name: options.name ?? 'agent-toolbelt', version: options.version ?? '0.0.0' },
    instructions === '' ? {} : { instructions },
  );
  const protocol = server.server;
  const protocolVersion = learnProtocolVersion(protocol);
  const connection: ConnectionContext = { protocol, session, options, needsApproval, elicitationTimeoutMs, protocolVersion };

  // Tools the user answers need a form; clients that cannot show one never see them.
  const offered = () => [...tools.values()].filter((tool) => tool.answeredByClient === undefined || canElicit(protocol));
  protocol.registerCapabilities({ tools: {} });
  protocol.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await describeTools(offered(), protocolVersion()) }));
  protocol.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = offered().find((candidate) => candidate.name === request.params.name);
    if (tool === undefined) {
      // A result the model can read, as the SDK's own server answers; it names the tools there are.
      const names = offered().map((candidate) => candidate.name).join(', ');
      return { content: [{ type: 'text', text: `There is no tool \`${request.params.name}\`. The tools are ${names}.` }], isError: true };
    }
    const call = { signal: extra.signal, toolCallId: String(extra.requestId), onProgress: progressNotifier(extra) };
    const result = toCallToolResult(await callTool(connection, tool, request.params.arguments ?? {}, call), tool);
    const notice = jobs.length === 0 ? undefined : await collectContext(jobs, session);
    return notice === undefined ? result : { ...result, content: [...result.content, { type: 'text', text: notice }] };
  });
  // A session the host never saw cannot be closed by the host: its jobs end with the connection.
  if (options.session === undefined) protocol.onclose = () => void session.close();
  return server;
}

/**
 * The negotiated protocol version, read when needed. The SDK keeps it to itself; schemas and
 * forms depend on it, so its initialize handler is wrapped to learn it (clients that never say
 * stay on the latest).
 */
function learnProtocolVersion(protocol: Server): () => string {
  let protocolVersion: string = LATEST_PROTOCOL_VERSION;
  const inner = protocol as unknown as { _oninitialize?: (request: InitializeRequest) => Promise<InitializeResult> };
  if (typeof inner._oninitialize === 'function') {
    const initialize = inner._oninitialize.bind(protocol);
    protocol.setRequestHandler(InitializeRequestSchema, async (request) => {
      const result = await initialize(request);
      protocolVersion = result.protocolVersion;
      return result;
    });
  }
  return () => protocolVersion;
}
