/** @module agent-toolbelt/mcp: serve collections to any MCP client (Claude Desktop, Cursor, IDEs, other agents). */
import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  assertApprovalMode,
  assertApprovalOverrides,
  collectContext,
  collectInstructions,
  collectTools,
  createSession,
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
  type ToolResult,
} from '../../src/index.js';
import { toolAnnotations } from './annotations.js';
import { canElicit, DEFAULT_ELICITATION_TIMEOUT_MS, elicitAnswers, elicitApproval } from './elicitation.js';

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
  /** Tools that may run as background jobs (`['run_shell']`): adds `run_in_background` and the job tools. */
  readonly background?: readonly string[];
  /** Per-tool overrides of the approval default, by tool name. */
  readonly needsApproval?: ApprovalOverrides;
  /**
   * What the model is told, after the refusal, about how the user can allow calls that
   * need approval.
   * @default 'The user can allow such calls in the server configuration (an approval mode or a per-tool override), or use an MCP client that supports elicitation.'
   */
  readonly approvalHint?: string;
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
 * An MCP server offering every tool of the collections, with its schema and hints
 * (`readOnlyHint`, `destructiveHint`, `openWorldHint`). Calls go through the core's
 * `runTool`; failures come back as `isError` results. A call that needs approval is put to
 * the user through MCP elicitation when the client supports it, else to `onApproval`, else
 * refused with a message saying how to allow it. `ask_user_question` is offered only to
 * clients that support elicitation. Connect it to a transport: `await server.connect(new StdioServerTransport())`.
 *
 * @example
 * const server = createMcpServer([createFileTools({ workspace })], { name: 'my-tools', version: '1.0.0' });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(collections: readonly ToolCollection[], options: McpServerOptions = {}): McpServer {
  validateOptions(options);
  const session = options.session ?? createSession();
  const timeoutMs = options.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS;
  const served = options.background === undefined ? collections : withBackground(collections, { tools: options.background });
  const tools = collectTools(served);
  assertApprovalOverrides(options.needsApproval, tools.keys());
  // MCP has no per-turn context, so the jobs collection's notices (a job finished) ride on the
  // next tool result: the model was told it would hear when a job ends.
  const jobs = served.length > collections.length ? served.slice(collections.length) : [];
  const instructions = collectInstructions(served);
  const server = new McpServer(
    { name: options.name ?? 'agent-toolbelt', version: options.version ?? '0.0.0' },
    instructions === '' ? {} : { instructions },
  );

  const clientAnswered: RegisteredTool[] = [];
  for (const tool of tools.values()) {
    const registered = server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input, annotations: toolAnnotations(tool) },
      async (input: Record<string, unknown>, extra: { signal: AbortSignal; requestId: string | number }) => {
        const result = toCallToolResult(await callTool(tool, input, extra.signal, String(extra.requestId)));
        const notice = jobs.length === 0 ? undefined : await collectContext(jobs, session);
        return notice === undefined ? result : { ...result, content: [...result.content, { type: 'text' as const, text: notice }] };
      },
    );
    if (tool.answeredByClient !== undefined) clientAnswered.push(registered);
  }
  // Tools the user answers need a form; clients that cannot show one never see them.
  for (const registered of clientAnswered) registered.disable();
  // A session the host never saw cannot be closed by the host: its jobs end with the connection.
  if (options.session === undefined) server.server.onclose = () => void session.close();
  server.server.oninitialized = () => {
    if (canElicit(server.server)) for (const registered of clientAnswered) registered.enable();
  };

  async function callTool(tool: ToolDefinition<any>, input: Record<string, unknown>, signal: AbortSignal, toolCallId: string): Promise<ToolResult> {
    const base = { session, toolCallId, mode: options.mode, needsApproval: options.needsApproval };
    const elicit = canElicit(server.server);
    try {
      if (tool.answeredByClient !== undefined) {
        if (!elicit) {
          return { text: `${tool.name} needs the MCP client to show the user a form (elicitation), and this client cannot. Ask the user in your reply instead.`, isError: true };
        }
        const prepared = await prepareToolCall(tool, input, base);
        if (prepared.status === 'done') return prepared.result;
        const answer = await elicitAnswers(server.server, prepared.input, signal, timeoutMs);
        if (answer === undefined) {
          return { text: 'The user dismissed the question or did not answer in time. Go on with your best judgement, or ask again in your reply.', isError: true };
        }
        return normalizeOutput(await tool.answeredByClient.toResult(prepared.input, answer));
      }
      const approve: ApproveFunction | undefined = elicit ? (request) => elicitApproval(server.server, request, signal, timeoutMs) : options.onApproval;
      if (approve === undefined) {
        const prepared = await prepareToolCall(tool, input, base);
        if (prepared.status === 'done') return prepared.result;
        if (prepared.status === 'needs-approval') return { text: refusalText(tool.name, options.approvalHint ?? DEFAULT_APPROVAL_HINT), isError: true };
      }
      return await runTool(tool, input, { ...base, signal, approve });
    } catch (error) {
      return errorResult(tool.name, error);
    }
  }
  return server;
}

function refusalText(toolName: string, hint: string): string {
  return `${toolName} needs the user's approval, and this MCP client cannot ask for it (it does not support elicitation), so it was not run. Tell the user what you wanted to do. ${hint}`;
}

/** A result as MCP content: the text, then any images; `isError` for failures. */
export function toCallToolResult(result: ToolResult): CallToolResult {
  return {
    content: [
      { type: 'text', text: result.text },
      ...(result.images ?? []).map((image) => ({ type: 'image' as const, data: image.data, mimeType: image.mediaType })),
    ],
    ...(result.isError ? { isError: true } : {}),
  };
}

function validateOptions(options: McpServerOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('Expected the options of `createMcpServer` to be an object.');
  for (const key of ['name', 'version', 'approvalHint'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      throw new TypeError(`Expected the \`${key}\` option to be a non-empty string, got \`${String(value)}\` (${typeof value}).`);
    }
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
}

export { toolAnnotations } from './annotations.js';
export { DEFAULT_ELICITATION_TIMEOUT_MS } from './elicitation.js';
