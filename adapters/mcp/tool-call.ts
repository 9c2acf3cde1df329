import { inputRequired, inputResponse, ProtocolError, ProtocolErrorCode, type ClientCapabilities, type InputRequiredResult, type Server } from '@modelcontextprotocol/server';
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
import { approvalDecision, approvalForm, canElicit, elicitAnswers, elicitApproval, questionAnswers, questionsForm } from './elicitation.js';
import { argumentsDigest, REQUEST_STATE_TTL_SECONDS, type CallState, type CallStateCodec, type SpentStates } from './request-state.js';
import type { McpServerOptions } from './server-options.js';

const DEFAULT_APPROVAL_HINT =
  'The user can allow such calls in the server configuration (an approval mode or a per-tool override), or use an MCP client that supports elicitation.';

/** What every call of one server shares: the client, the conversations and how approvals go. */
export interface ConnectionContext {
  readonly protocol: Server;
  readonly options: McpServerOptions;
  /** The per-tool overrides the server runs with, `askForChanges` included. */
  readonly needsApproval: ApprovalOverrides | undefined;
  readonly elicitationTimeoutMs: number;
  /** Signs what a modern client carries between the rounds of a call. */
  readonly codec: CallStateCodec;
  readonly spent: SpentStates;
}

/** One request's side of a call. */
export interface CallRequest {
  readonly signal: AbortSignal;
  readonly toolCallId: string;
  readonly onProgress: ProgressListener | undefined;
  /** The protocol version of this request: negotiated at initialize (2025 era) or carried by the request (2026-07-28). */
  readonly protocolVersion: string;
  /** True for a 2026-07-28 request: questions go back as `input_required` results instead of requests from the server. */
  readonly modern: boolean;
  readonly capabilities: ClientCapabilities | undefined;
  /** The conversation the call belongs to (its session's key). */
  readonly conversation: string;
  /** Who the host verified the caller to be (an OAuth subject): the audit records' `subject`, before the server's own `subject` option. */
  readonly subject?: string | undefined;
  /** A retried modern call: the verified state it carries and the client's answers. */
  readonly retry?: { readonly state: CallState; readonly responses: Record<string, unknown> | undefined };
}

/**
 * Runs one call for the client: a question goes to the user as a form; a call that needs
 * approval is put to the user through elicitation when the client supports it (a request from
 * the server in the 2025 era, an `input_required` result in the 2026-07-28 one), else to
 * `onApproval`, else refused with the approval hint. Never throws for a failure of the tool:
 * failures are results. A modern retry whose state belongs to another call, or was spent
 * already, is refused as invalid params, and nothing runs.
 */
export async function callTool(
  connection: ConnectionContext,
  session: Session,
  tool: ToolDefinition<any>,
  input: Record<string, unknown>,
  request: CallRequest,
): Promise<ToolResult | InputRequiredResult> {
  if (request.retry !== undefined) checkRetry(connection, session, tool, input, request);
  try {
    return request.modern ? await callModern(connection, session, tool, input, request) : await callLegacy(connection, session, tool, input, request);
  } catch (error) {
    return errorResult(tool.name, error);
  }
}

/** The 2025 era: forms are requests the server sends while the call waits. */
async function callLegacy(connection: ConnectionContext, session: Session, tool: ToolDefinition<any>, input: Record<string, unknown>, request: CallRequest): Promise<ToolResult> {
  const { protocol, options, needsApproval, elicitationTimeoutMs } = connection;
  const { signal, toolCallId, onProgress, protocolVersion } = request;
  const base = { session, toolCallId, mode: options.mode, needsApproval, ...recordingOptions(options), ...(request.subject === undefined ? {} : { subject: request.subject }) };
  if (tool.answeredByClient !== undefined) {
    const prepared = await prepareToolCall(tool, input, base);
    if (prepared.status === 'done') return prepared.result;
    const answer = await elicitAnswers(protocol, prepared.input, signal, elicitationTimeoutMs, protocolVersion);
    if (answer === undefined) return dismissed();
    return normalizeOutput(await tool.answeredByClient.toResult(prepared.input, answer));
  }
  const approve: ApproveFunction | undefined = canElicit(request.capabilities)
    ? (approvalRequest) => elicitApproval(protocol, approvalRequest, signal, elicitationTimeoutMs, protocolVersion)
    : options.onApproval;
  if (approve === undefined) {
    const prepared = await prepareToolCall(tool, input, base);
    if (prepared.status === 'done') return withModeHint(connection, session, tool, input, prepared.result);
    if (prepared.status === 'needs-approval') return { text: await refusalText(options, tool, prepared.input), isError: true };
  }
  return withModeHint(connection, session, tool, input, await runTool(tool, input, { ...base, signal, approve, onProgress }));
}

/**
 * The 2026-07-28 era: a form goes back to the client as an `input_required` result with a
 * signed `requestState`; the client retries the call with the answer, and only then does the
 * call run. A call whose answer never comes has changed nothing.
 */
async function callModern(connection: ConnectionContext, session: Session, tool: ToolDefinition<any>, input: Record<string, unknown>, request: CallRequest): Promise<ToolResult | InputRequiredResult> {
  const { options, needsApproval, codec } = connection;
  const { signal, toolCallId, onProgress, protocolVersion, retry } = request;
  const base = { session, toolCallId, mode: options.mode, needsApproval, ...recordingOptions(options), ...(request.subject === undefined ? {} : { subject: request.subject }) };
  const bound = { tool: tool.name, arguments: argumentsDigest(input), conversation: request.conversation };
  const prepared = await prepareToolCall(tool, input, base);
  if (prepared.status === 'done') return withModeHint(connection, session, tool, input, prepared.result);
  if (tool.answeredByClient !== undefined) {
    if (retry === undefined) {
      return inputRequired({ inputRequests: { answers: inputRequired.elicit(questionsForm(prepared.input, protocolVersion)) }, requestState: await codec.mint(bound) });
    }
    const answer = questionAnswers(elicitView(retry.responses, 'answers'), prepared.input, protocolVersion);
    if (answer === undefined) return dismissed();
    return normalizeOutput(await tool.answeredByClient.toResult(prepared.input, answer));
  }
  if (prepared.status === 'needs-approval') {
    if (retry !== undefined) {
      const decision = approvalDecision(elicitView(retry.responses, 'approval'), prepared.request);
      return withModeHint(connection, session, tool, input, await runTool(tool, input, { ...base, signal, onProgress, approve: async () => decision }));
    }
    if (canElicit(request.capabilities)) {
      return inputRequired({ inputRequests: { approval: inputRequired.elicit(approvalForm(prepared.request, protocolVersion)) }, requestState: await codec.mint(bound) });
    }
    if (options.onApproval === undefined) return { text: await refusalText(options, tool, prepared.input), isError: true };
  }
  return withModeHint(connection, session, tool, input, await runTool(tool, input, { ...base, signal, onProgress, approve: options.onApproval }));
}

/** A retry must carry the state of this very call, answered once; anything else runs nothing. */
function checkRetry(connection: ConnectionContext, session: Session, tool: ToolDefinition<any>, input: Record<string, unknown>, request: CallRequest): void {
  const { state } = request.retry!;
  const same = state.tool === tool.name && state.arguments === argumentsDigest(input) && state.conversation === request.conversation;
  if (!same) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `This requestState was issued for another call (another tool, other arguments or another conversation), so ${tool.name} was not run. Call it again without requestState.`);
  }
  // Spent in this process and in the conversation's session, which a session store carries to
  // every instance: the state is bound to the conversation, so a replay meets the same session.
  const once = connection.spent.spend(state.nonce);
  if (!spendInSession(session, state.nonce) || !once) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `This requestState was answered already, so ${tool.name} was not run again. Call it again without requestState to ask anew.`);
  }
}

/** Where a conversation's session keeps the nonces of the requestStates answered in it, with when each expires. */
const SPENT_STATES_KEY = 'mcp:spent-request-states';

/** True the first time a nonce is spent in this conversation, false after (until it would have expired anyway). */
function spendInSession(session: Session, nonce: string): boolean {
  const spent = session.state<Record<string, number>>(SPENT_STATES_KEY, () => ({}));
  const now = Date.now();
  for (const [key, expires] of Object.entries(spent)) if (expires < now) delete spent[key];
  if (spent[nonce] !== undefined) return false;
  spent[nonce] = now + REQUEST_STATE_TTL_SECONDS * 1000;
  return true;
}

/** The client's answer to one form of a retried call; anything but an accepted form reads as declined. */
function elicitView(responses: Record<string, unknown> | undefined, key: string): { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> } {
  const view = inputResponse(responses, key);
  if (view.kind !== 'elicit') return { action: 'cancel' };
  return { action: view.action, ...(view.content === undefined ? {} : { content: view.content as Record<string, unknown> }) };
}

function dismissed(): ToolResult {
  return { text: 'The user dismissed the question or did not answer in time. Go on with your best judgement, or ask again in your reply.', isError: true };
}

/** A refusal by the mode (`plan`), followed by what would allow the call, when a hint function can say. */
async function withModeHint(connection: ConnectionContext, session: Session, tool: ToolDefinition<any>, input: Record<string, unknown>, result: ToolResult): Promise<ToolResult> {
  const { options, needsApproval } = connection;
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
