import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  decideApproval,
  errorResult,
  normalizeOutput,
  prepareToolCall,
  recordingOptions,
  runTool,
  type ApprovalOverrides,
  type ApproveFunction,
  type ProgressListener,
  type Session,
  type ToolDefinition,
  type ToolResult,
} from '../../src/index.js';
import { canElicit, elicitAnswers, elicitApproval } from './elicitation.js';
import type { McpServerOptions } from './server-options.js';

const DEFAULT_APPROVAL_HINT =
  'The user can allow such calls in the server configuration (an approval mode or a per-tool override), or use an MCP client that supports elicitation.';

/** What every call of one connection shares: the client, the conversation and how approvals go. */
export interface ConnectionContext {
  readonly protocol: Server;
  readonly session: Session;
  readonly options: McpServerOptions;
  /** The per-tool overrides the server runs with, `askForChanges` included. */
  readonly needsApproval: ApprovalOverrides | undefined;
  readonly elicitationTimeoutMs: number;
  /** The protocol version the client negotiated; read at each call, since it is learnt at initialize. */
  readonly protocolVersion: () => string;
}

/** One request's side of a call. */
export interface CallRequest {
  readonly signal: AbortSignal;
  readonly toolCallId: string;
  readonly onProgress: ProgressListener | undefined;
}

/**
 * Runs one call for the client: a question goes to the user as a form; a call that needs
 * approval is put to the user through elicitation when the client supports it, else to
 * `onApproval`, else refused with the approval hint. Never throws: failures are results.
 */
export async function callTool(
  connection: ConnectionContext,
  tool: ToolDefinition<any>,
  input: Record<string, unknown>,
  request: CallRequest,
): Promise<ToolResult> {
  const { protocol, session, options, needsApproval, elicitationTimeoutMs } = connection;
  const { signal, toolCallId, onProgress } = request;
  const base = { session, toolCallId, mode: options.mode, needsApproval, ...recordingOptions(options) };
  const elicit = canElicit(protocol);
  try {
    if (tool.answeredByClient !== undefined) {
      const prepared = await prepareToolCall(tool, input, base);
      if (prepared.status === 'done') return prepared.result;
      const answer = await elicitAnswers(protocol, prepared.input, signal, elicitationTimeoutMs, connection.protocolVersion());
      if (answer === undefined) {
        return { text: 'The user dismissed the question or did not answer in time. Go on with your best judgement, or ask again in your reply.', isError: true };
      }
      return normalizeOutput(await tool.answeredByClient.toResult(prepared.input, answer));
    }
    const approve: ApproveFunction | undefined = elicit
      ? (approvalRequest) => elicitApproval(protocol, approvalRequest, signal, elicitationTimeoutMs, connection.protocolVersion())
      : options.onApproval;
    if (approve === undefined) {
      const prepared = await prepareToolCall(tool, input, base);
      if (prepared.status === 'done') return withModeHint(connection, tool, input, prepared.result);
      if (prepared.status === 'needs-approval') return { text: await refusalText(options, tool, prepared.input), isError: true };
    }
    return withModeHint(connection, tool, input, await runTool(tool, input, { ...base, signal, approve, onProgress }));
  } catch (error) {
    return errorResult(tool.name, error);
  }
}

/** A refusal by the mode (`plan`), followed by what would allow the call, when a hint function can say. */
async function withModeHint(connection: ConnectionContext, tool: ToolDefinition<any>, input: Record<string, unknown>, result: ToolResult): Promise<ToolResult> {
  const { options, session, needsApproval } = connection;
  const hint = options.approvalHint;
  if (!result.isError || options.mode !== 'plan' || typeof hint !== 'function') return result;
  const parsed = tool.input.safeParse(input);
  if (!parsed.success) return result;
  const verdict = await decideApproval(tool, parsed.data as Record<string, unknown>, { session, mode: 'plan', overrides: needsApproval });
  if (verdict.type !== 'refuse' || verdict.text !== result.text) return result;
  const advice = await hint({ tool, input: parsed.data as Record<string, unknown>, reason: 'mode' });
  return advice === '' ? result : { ...result, text: `${result.text} ${advice}` };
}

async function refusalText(options: McpServerOptions, tool: ToolDefinition<any>, input: Record<string, unknown>): Promise<string> {
  const hint = typeof options.approvalHint === 'function' ? await options.approvalHint({ tool, input, reason: 'needs-approval' }) : (options.approvalHint ?? DEFAULT_APPROVAL_HINT);
  return `${tool.name} needs the user's approval, and this MCP client cannot ask for it (it does not support elicitation), so it was not run. Tell the user what you wanted to do. ${hint}`;
}
