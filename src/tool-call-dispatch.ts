import type { ApprovalDecision, ApprovalMode, ApprovalOverrides, ApprovalRequest, ApproveFunction } from './approval.js';
import type { ProgressListener } from './progress.js';
import { errorResult, prepareToolCall, runTool, type RunToolResult } from './run-tool.js';
import type { Session } from './session.js';
import { recordingOptions, type CallRecordingOptions } from './telemetry/options.js';
import { normalizeOutput, type ToolDefinition, type ToolKind, type ToolResult } from './tool.js';

/** A model's call as an adapter read it from its API: the id, the tool name, the arguments as sent. */
export interface ModelToolCall {
  readonly callId: string;
  readonly name: string;
  /** The arguments as the API gave them (an object, or JSON text); `readInput` turns them into the tool's input. */
  readonly arguments: unknown;
}

/** A call the host has to answer before the conversation can go on. Plain JSON. */
export type PendingCall =
  | {
      /** The call needs a person's approval: answer with an {@link ApprovalDecision}. */
      readonly type: 'approval';
      readonly callId: string;
      readonly toolName: string;
      readonly input: Record<string, unknown>;
      readonly request: ApprovalRequest;
    }
  | {
      /** The user interface answers this call (ask_user_question): answer with the client's answer. */
      readonly type: 'client';
      readonly callId: string;
      readonly toolName: string;
      readonly input: Record<string, unknown>;
    };

/** One call's outcome, in call order; `result` is missing while the call is pending. */
export interface CallOutcome {
  readonly callId: string;
  readonly toolName: string;
  readonly result?: ToolResult;
}

/** What {@link dispatchToolCalls} needs: the tools by the name the model calls them, and how calls run. */
export interface DispatchOptions extends CallRecordingOptions {
  readonly tools: ReadonlyMap<string, ToolDefinition<any>>;
  readonly session: Session;
  /** Asks while the dispatch waits; without it, calls that need approval come back pending. */
  readonly onApproval?: ApproveFunction;
  readonly mode?: ApprovalMode;
  readonly needsApproval?: ApprovalOverrides;
  readonly signal?: AbortSignal;
  readonly onProgress?: ProgressListener;
  /**
   * Turns a call's arguments into the tool's input, or an error text for the model. Defaults
   * to {@link readToolCallArguments}: an object as it is (Anthropic sends objects), JSON text parsed.
   */
  readonly readInput?: (call: ModelToolCall, tool: ToolDefinition<any>) => { readonly input: unknown } | { readonly error: string };
}

/** Calls of these kinds change nothing, so a batch of them runs concurrently. */
const CONCURRENT_KINDS: readonly ToolKind[] = ['read', 'search', 'fetch'];

type CallState = { readonly result: ToolResult } | { readonly pending: PendingCall };

/**
 * Runs a model's batch of calls for an adapter whose API hands back a list of calls (OpenAI,
 * Anthropic): consecutive reading calls together, every other call alone and in order, each
 * through `runTool`. Returns each call's outcome in call order and the calls waiting for the
 * host (approvals without `onApproval`, client-answered tools). Never throws for anything the
 * model sent: an unknown tool or bad arguments become error results.
 */
export async function dispatchToolCalls(calls: readonly ModelToolCall[], options: DispatchOptions): Promise<{ outcomes: CallOutcome[]; pending: PendingCall[] }> {
  const states: CallState[] = new Array(calls.length);
  let batch: number[] = [];
  const flush = async () => {
    await Promise.all(batch.map(async (index) => (states[index] = await runCall(calls[index]!, options))));
    batch = [];
  };
  for (const [index, call] of calls.entries()) {
    const kind = options.tools.get(call.name)?.kind;
    if (kind === undefined || CONCURRENT_KINDS.includes(kind)) {
      batch.push(index);
    } else {
      await flush();
      states[index] = await runCall(call, options);
    }
  }
  await flush();
  return {
    outcomes: states.map((state, index) => ({ callId: calls[index]!.callId, toolName: calls[index]!.name, ...('result' in state ? { result: state.result } : {}) })),
    pending: states.flatMap((state) => ('pending' in state ? [state.pending] : [])),
  };
}

async function runCall(call: ModelToolCall, options: DispatchOptions): Promise<CallState> {
  const tool = options.tools.get(call.name);
  if (tool === undefined) {
    const names = [...options.tools.keys()].join(', ');
    return { result: { text: `There is no tool named \`${call.name}\`. Available tools: ${names}. Call one of them instead.`, isError: true } };
  }
  const read = (options.readInput ?? readToolCallArguments)(call, tool);
  if ('error' in read) return { result: { text: read.error, isError: true } };

  const base = { session: options.session, toolCallId: call.callId, mode: options.mode, needsApproval: options.needsApproval, ...recordingOptions(options) };
  if (tool.answeredByClient !== undefined || options.onApproval === undefined) {
    let prepared;
    try {
      prepared = await prepareToolCall(tool, read.input, base);
    } catch (error) {
      return { result: plain(errorResult(tool.name, error)) };
    }
    if (prepared.status === 'done') return { result: plain(prepared.result) };
    const pendingBase = { callId: call.callId, toolName: tool.name, input: prepared.input };
    if (prepared.status === 'ready' && tool.answeredByClient !== undefined) return { pending: { type: 'client', ...pendingBase } };
    if (prepared.status === 'needs-approval' && options.onApproval === undefined) return { pending: { type: 'approval', ...pendingBase, request: prepared.request } };
  }
  const result = await runTool(tool, read.input, { ...base, signal: options.signal, approve: options.onApproval, onProgress: options.onProgress });
  return { result: plain(result) };
}

/**
 * A call's arguments as the core reads them when the API gives objects or JSON text: the text
 * parsed, empty text or `null` as no arguments. Arguments encoded twice (JSON text of a JSON
 * string of an object, as some OpenAI-compatible servers send them) go to `runTool` as that
 * inner text, which the core parses once more; anything that is not an object is an error
 * the model can act on. Nothing else is changed: unknown keys are for the core to map or refuse.
 */
export function readToolCallArguments(call: ModelToolCall): { readonly input: unknown } | { readonly error: string } {
  const again = `Call ${call.name} again with a JSON object that matches its parameters.`;
  let value = call.arguments;
  if (typeof value === 'string') {
    if (value.trim() === '') return { input: {} };
    try {
      value = JSON.parse(value);
    } catch (error) {
      return { error: `The arguments for ${call.name} are not valid JSON (${(error as Error).message}). ${again}` };
    }
  }
  if (value === undefined || value === null) return { input: {} };
  if (typeof value === 'string' && isObjectText(value)) return { input: value };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { error: `The arguments for ${call.name} must be a JSON object, got ${Array.isArray(value) ? 'an array' : `a ${typeof value}`}. ${again}` };
  }
  return { input: value };
}

/** JSON text of an object. */
function isObjectText(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/**
 * Answers pending calls: approvals run (or are refused) through `runTool` with the host's
 * decision; client-answered calls become results through the tool's `answeredByClient`.
 * Calls without an answer stay pending.
 *
 * @throws {TypeError} for answers a host got wrong (an unknown call id, something that is not
 *   a decision): those are programming errors, not the model's.
 */
export async function resolvePendingToolCalls(
  outcomes: readonly CallOutcome[],
  pending: readonly PendingCall[],
  answers: Readonly<Record<string, unknown>>,
  options: DispatchOptions,
): Promise<{ outcomes: CallOutcome[]; pending: PendingCall[] }> {
  for (const callId of Object.keys(answers)) {
    if (!pending.some((call) => call.callId === callId)) {
      throw new TypeError(`No pending call has the id \`${callId}\`. Pending calls: ${pending.map((call) => call.callId).join(', ') || 'none'}.`);
    }
  }
  const results = new Map<string, ToolResult>();
  const stillPending: PendingCall[] = [];
  for (const call of pending) {
    if (!Object.hasOwn(answers, call.callId)) {
      stillPending.push(call);
      continue;
    }
    results.set(call.callId, await answerCall(call, answers[call.callId], options));
  }
  return {
    outcomes: outcomes.map((outcome) => {
      const result = results.get(outcome.callId);
      return result === undefined ? outcome : { ...outcome, result };
    }),
    pending: stillPending,
  };
}

async function answerCall(call: PendingCall, answer: unknown, options: DispatchOptions): Promise<ToolResult> {
  const tool = options.tools.get(call.toolName);
  if (tool === undefined) return { text: `There is no tool named \`${call.toolName}\` any more; the call was not run.`, isError: true };
  if (call.type === 'client') {
    try {
      if (tool.answeredByClient === undefined) throw new TypeError(`${tool.name} is not answered by the client.`);
      return plain(normalizeOutput(await tool.answeredByClient.toResult(call.input, answer)));
    } catch (error) {
      return plain(errorResult(tool.name, error));
    }
  }
  assertDecision(call.callId, answer);
  const result = await runTool(tool, call.input, {
    session: options.session,
    toolCallId: call.callId,
    mode: options.mode,
    needsApproval: options.needsApproval,
    signal: options.signal,
    approve: () => answer,
    onProgress: options.onProgress,
    ...recordingOptions(options),
  });
  return plain(result);
}

function assertDecision(callId: string, answer: unknown): asserts answer is ApprovalDecision {
  if (answer === 'approve' || answer === 'always' || answer === 'deny') return;
  if (typeof answer === 'object' && answer !== null) {
    const candidate = answer as { type?: unknown; input?: unknown };
    if (candidate.type === 'deny') return;
    if (candidate.type === 'edit' && typeof candidate.input === 'object' && candidate.input !== null) return;
  }
  throw new TypeError(
    `Expected the answer for call \`${callId}\` to be an approval decision ('approve', 'always', 'deny', { type: 'deny', reason } or { type: 'edit', input }), got ${JSON.stringify(answer)}.`,
  );
}

/** Drops the thrown error behind a result so the outcome stays plain JSON. */
function plain(result: RunToolResult): ToolResult {
  const { error: _error, ...rest } = result;
  return rest;
}
