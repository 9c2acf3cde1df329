/** @module agent-toolbelt/mcp: serve collections to any MCP client (Claude Desktop, Cursor, IDEs, other agents). */
import { assertCollections } from '../../src/argument-checks.js';
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
import {
  assertApprovalMode,
  assertApprovalOverrides,
  collectContext,
  collectInstructions,
  collectTools,
  createSession,
  decideApproval,
  errorResult,
  normalizeOutput,
  prepareToolCall,
  runTool,
  Session,
  withBackground,
  type ApprovalMode,
  type ApprovalOverrides,
  type ApproveFunction,
  type ToolCollection,
  type ToolDefinition,
  type ProgressListener,
  type ToolResult,
} from '../../src/index.js';
import { effectiveOverrides } from './approval-policy.js';
import { canElicit, DEFAULT_ELICITATION_TIMEOUT_MS, elicitAnswers, elicitApproval } from './elicitation.js';
import { progressNotifier } from './progress.js';
import { describeTools, toCallToolResult } from './tool-listing.js';

/** A call that was not run, for {@link McpServerOptions.approvalHint}. */
export interface RefusedCall {
  readonly tool: ToolDefinition<any>;
  /** The parsed input. */
  readonly input: Record<string, unknown>;
  /**
   * Why: it needs approval and the client cannot ask for it, or the approval mode switches
   * its kind off (`plan`).
   */
  readonly reason: 'needs-approval' | 'mode';
}

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** The server's name, shown by clients. @default 'agent-toolbelt' */
  readonly name?: string;
  /** @default '0.0.0' */
  readonly version?: string;
  /**
   * The state of the connection's conversation; close it yourself when the connection ends.
   * @default a new session, closed (its background jobs stopped) when the connection closes
   */
  readonly session?: Session;
  /**
   * Decides about calls that need approval when the client cannot ask its user (no
   * elicitation). Without it such calls are refused with {@link McpServerOptions.approvalHint}.
   */
  readonly onApproval?: ApproveFunction;
  /** @default 'ask' */
  readonly mode?: ApprovalMode;
  /**
   * Ask before every change: each tool that edits, creates, moves or deletes files or runs
   * a command needs approval, on top of the tools that ask anyway. Only with mode `ask`.
   * @default false
   */
  readonly askForChanges?: boolean;
  /** Tools that may run as background jobs (`['run_shell']`): adds `run_in_background` and the job tools. */
  readonly background?: readonly string[];
  /** Per-tool overrides of the approval default, by tool name; they win over `askForChanges`. */
  readonly needsApproval?: ApprovalOverrides;
  /**
   * What the model is told, after the refusal, about how the user can allow a call that
   * needs approval: a sentence, or a function of the call that names what would allow it.
   * A function is also asked about calls the mode refuses (`plan`), and its answer follows
   * the mode's own refusal.
   * @default 'The user can allow such calls in the server configuration (an approval mode or a per-tool override), or use an MCP client that supports elicitation.'
   */
  readonly approvalHint?: string | ((call: RefusedCall) => string | Promise<string>);
  /**
   * How long an elicitation form (an approval, a question) waits for the user. An approval
   * left unanswered is a denial; a question left unanswered is reported as dismissed.
   * @default 600_000 (10 minutes)
   */
  readonly elicitationTimeoutMs?: number;
}

const DEFAULT_APPROVAL_HINT =
  'The user can allow such calls in the server configuration (an approval mode or a per-tool override), or use an MCP client that supports elicitation.';

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
  validateOptions(options);
  const session = options.session ?? createSession();
  const timeoutMs = options.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS;
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
  let protocolVersion: string = LATEST_PROTOCOL_VERSION;

  // The SDK keeps the negotiated version to itself; schemas and forms depend on it, so its
  // initialize handler is wrapped to learn it (clients that never say stay on the latest).
  const inner = protocol as unknown as { _oninitialize?: (request: InitializeRequest) => Promise<InitializeResult> };
  if (typeof inner._oninitialize === 'function') {
    const initialize = inner._oninitialize.bind(protocol);
    protocol.setRequestHandler(InitializeRequestSchema, async (request) => {
      const result = await initialize(request);
      protocolVersion = result.protocolVersion;
      return result;
    });
  }
  // Tools the user answers need a form; clients that cannot show one never see them.
  const offered = () => [...tools.values()].filter((tool) => tool.answeredByClient === undefined || canElicit(protocol));
  protocol.registerCapabilities({ tools: {} });
  protocol.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await describeTools(offered(), protocolVersion) }));
  protocol.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = offered().find((candidate) => candidate.name === request.params.name);
    if (tool === undefined) {
      // A result the model can read, as the SDK's own server answers; it names the tools there are.
      const names = offered().map((candidate) => candidate.name).join(', ');
      return { content: [{ type: 'text', text: `There is no tool \`${request.params.name}\`. The tools are ${names}.` }], isError: true };
    }
    const result = toCallToolResult(await callTool(tool, request.params.arguments ?? {}, extra.signal, String(extra.requestId), progressNotifier(extra)), tool);
    const notice = jobs.length === 0 ? undefined : await collectContext(jobs, session);
    return notice === undefined ? result : { ...result, content: [...result.content, { type: 'text', text: notice }] };
  });
  // A session the host never saw cannot be closed by the host: its jobs end with the connection.
  if (options.session === undefined) protocol.onclose = () => void session.close();

  async function callTool(
    tool: ToolDefinition<any>,
    input: Record<string, unknown>,
    signal: AbortSignal,
    toolCallId: string,
    onProgress: ProgressListener | undefined,
  ): Promise<ToolResult> {
    const base = { session, toolCallId, mode: options.mode, needsApproval };
    const elicit = canElicit(protocol);
    try {
      if (tool.answeredByClient !== undefined) {
        const prepared = await prepareToolCall(tool, input, base);
        if (prepared.status === 'done') return prepared.result;
        const answer = await elicitAnswers(protocol, prepared.input, signal, timeoutMs, protocolVersion);
        if (answer === undefined) {
          return { text: 'The user dismissed the question or did not answer in time. Go on with your best judgement, or ask again in your reply.', isError: true };
        }
        return normalizeOutput(await tool.answeredByClient.toResult(prepared.input, answer));
      }
      const approve: ApproveFunction | undefined = elicit
        ? (request) => elicitApproval(protocol, request, signal, timeoutMs, protocolVersion)
        : options.onApproval;
      if (approve === undefined) {
        const prepared = await prepareToolCall(tool, input, base);
        if (prepared.status === 'done') return withModeHint(tool, input, prepared.result);
        if (prepared.status === 'needs-approval') return { text: await refusalText(tool, prepared.input), isError: true };
      }
      return withModeHint(tool, input, await runTool(tool, input, { ...base, signal, approve, onProgress }));
    } catch (error) {
      return errorResult(tool.name, error);
    }
  }

  /** A refusal by the mode (`plan`), followed by what would allow the call, when a hint function can say. */
  async function withModeHint(tool: ToolDefinition<any>, input: Record<string, unknown>, result: ToolResult): Promise<ToolResult> {
    const hint = options.approvalHint;
    if (!result.isError || options.mode !== 'plan' || typeof hint !== 'function') return result;
    const parsed = tool.input.safeParse(input);
    if (!parsed.success) return result;
    const verdict = await decideApproval(tool, parsed.data as Record<string, unknown>, { session, mode: 'plan', overrides: needsApproval });
    if (verdict.type !== 'refuse' || verdict.text !== result.text) return result;
    const advice = await hint({ tool, input: parsed.data as Record<string, unknown>, reason: 'mode' });
    return advice === '' ? result : { ...result, text: `${result.text} ${advice}` };
  }

  async function refusalText(tool: ToolDefinition<any>, input: Record<string, unknown>): Promise<string> {
    const hint = typeof options.approvalHint === 'function' ? await options.approvalHint({ tool, input, reason: 'needs-approval' }) : (options.approvalHint ?? DEFAULT_APPROVAL_HINT);
    return `${tool.name} needs the user's approval, and this MCP client cannot ask for it (it does not support elicitation), so it was not run. Tell the user what you wanted to do. ${hint}`;
  }
  return server;
}

function validateOptions(options: McpServerOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('Expected the options of `createMcpServer` to be an object.');
  for (const key of ['name', 'version'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      throw new TypeError(`Expected the \`${key}\` option to be a non-empty string, got \`${String(value)}\` (${typeof value}).`);
    }
  }
  const hint = options.approvalHint;
  if (hint !== undefined && typeof hint !== 'function' && (typeof hint !== 'string' || hint.trim() === '')) {
    throw new TypeError(`Expected the \`approvalHint\` option to be a non-empty string or a function, got \`${String(hint)}\` (${typeof hint}).`);
  }
  if (options.session !== undefined && !(options.session instanceof Session)) {
    throw new TypeError('Expected the `session` option to be a Session from `createSession()` or `restoreSession()`.');
  }
  if (options.onApproval !== undefined && typeof options.onApproval !== 'function') {
    throw new TypeError(`Expected the \`onApproval\` option to be a function, got \`${String(options.onApproval)}\` (${typeof options.onApproval}).`);
  }
  const timeout = options.elicitationTimeoutMs;
  if (timeout !== undefined && (!Number.isInteger(timeout) || timeout <= 0)) {
    throw new TypeError(`Expected the \`elicitationTimeoutMs\` option to be a positive integer, got \`${String(timeout)}\` (${typeof timeout}).`);
  }
  if (options.background !== undefined && (!Array.isArray(options.background) || options.background.some((name) => typeof name !== 'string'))) {
    throw new TypeError(`Expected the \`background\` option to be an array of tool names, got \`${JSON.stringify(options.background)}\`.`);
  }
  assertApprovalMode(options.mode);
  const ask = options.askForChanges;
  if (ask !== undefined && typeof ask !== 'boolean') {
    throw new TypeError(`Expected the \`askForChanges\` option to be a boolean, got \`${String(ask)}\` (${typeof ask}).`);
  }
  if (ask && (options.mode ?? 'ask') !== 'ask') {
    throw new TypeError(`The \`askForChanges\` option asks before every change, which mode \`${options.mode}\` decides otherwise; use it with mode \`ask\` or drop it.`);
  }
}

export { toolAnnotations } from './annotations.js';
export { createMcpHttpHandler, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from './http.js';
export type { McpHttpHandler, McpHttpOptions } from './http.js';
export { listenMcpHttp } from './http-listen.js';
export type { McpHttpServer, McpListenOptions } from './http-listen.js';
export { DEFAULT_ELICITATION_TIMEOUT_MS } from './elicitation.js';
export { toCallToolResult } from './tool-listing.js';
