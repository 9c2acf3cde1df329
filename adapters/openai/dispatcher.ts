import {
  errorResult,
  normalizeOutput,
  prepareToolCall,
  runTool,
  type ApprovalDecision,
  type ApprovalMode,
  type ApprovalOverrides,
  type ApproveFunction,
  type ProgressListener,
  type RunToolResult,
  type Session,
  type ToolDefinition,
  type ToolKind,
  type ToolResult,
} from '../../src/index.js';
import { dropNullOptionals, type JsonSchema } from './strict-schema.js';
import type { PendingAnswers, PendingToolCall, ToolCallOutcome } from './types.js';

/** A model's call, the same for both APIs. */
export interface ModelCall {
  readonly callId: string;
  readonly name: string;
  readonly arguments: string;
}

/** What the dispatcher needs from `toOpenAI`. */
export interface DispatchContext {
  readonly tools: ReadonlyMap<string, ToolDefinition<any>>;
  /** Each tool's loose JSON Schema, to know which `null`s stand for a left-out field. */
  readonly schemas: ReadonlyMap<string, JsonSchema>;
  readonly session: Session;
  readonly onApproval?: ApproveFunction;
  readonly mode?: ApprovalMode;
  readonly needsApproval?: ApprovalOverrides;
  readonly signal?: AbortSignal;
  readonly onProgress?: ProgressListener;
}

/** Calls of these kinds change nothing, so a batch of them runs concurrently. */
const CONCURRENT_KINDS: readonly ToolKind[] = ['read', 'search', 'fetch'];

type CallState = { readonly result: ToolResult } | { readonly pending: PendingToolCall };

/**
 * Runs the model's calls: consecutive reading calls together, every other call alone and in
 * order, so a write never races the read the model placed before it. Returns each call's
 * outcome in call order and the calls waiting for the host.
 */
export async function dispatchCalls(
  calls: readonly ModelCall[],
  context: DispatchContext,
): Promise<{ outcomes: ToolCallOutcome[]; pending: PendingToolCall[] }> {
  const states: CallState[] = new Array(calls.length);
  let batch: number[] = [];
  const flush = async () => {
    await Promise.all(batch.map(async (index) => (states[index] = await runCall(calls[index], context))));
    batch = [];
  };
  for (const [index, call] of calls.entries()) {
    const kind = context.tools.get(call.name)?.kind;
    if (kind === undefined || CONCURRENT_KINDS.includes(kind)) {
      batch.push(index);
    } else {
      await flush();
      states[index] = await runCall(call, context);
    }
  }
  await flush();
  return {
    outcomes: states.map((state, index) => ({
      callId: calls[index].callId,
      toolName: calls[index].name,
      ...('result' in state ? { result: state.result } : {}),
    })),
    pending: states.flatMap((state) => ('pending' in state ? [state.pending] : [])),
  };
}

async function runCall(call: ModelCall, context: DispatchContext): Promise<CallState> {
  const tool = context.tools.get(call.name);
  if (tool === undefined) {
    const names = [...context.tools.keys()].join(', ');
    return { result: { text: `There is no tool named \`${call.name}\`. Available tools: ${names}. Call one of them instead.`, isError: true } };
  }
  const parsed = parseArguments(call, context.schemas.get(call.name) ?? {});
  if ('error' in parsed) return { result: { text: parsed.error, isError: true } };

  const base = { session: context.session, toolCallId: call.callId, mode: context.mode, needsApproval: context.needsApproval };
  if (tool.answeredByClient !== undefined || context.onApproval === undefined) {
    let prepared;
    try {
      prepared = await prepareToolCall(tool, parsed.input, base);
    } catch (error) {
      return { result: plain(errorResult(tool.name, error)) };
    }
    if (prepared.status === 'done') return { result: plain(prepared.result) };
    const pendingBase = { callId: call.callId, toolName: tool.name, input: prepared.input };
    if (prepared.status === 'ready' && tool.answeredByClient !== undefined) return { pending: { type: 'client', ...pendingBase } };
    if (prepared.status === 'needs-approval' && context.onApproval === undefined) {
      return { pending: { type: 'approval', ...pendingBase, request: prepared.request } };
    }
  }
  const result = await runTool(tool, parsed.input, { ...base, signal: context.signal, approve: context.onApproval, onProgress: context.onProgress });
  return { result: plain(result) };
}

/**
 * Reads the model's JSON arguments and drops the `null`s strict mode makes it send for
 * left-out optional fields, so the Zod parse applies their defaults.
 */
export function parseArguments(call: ModelCall, schema: JsonSchema): { input: unknown } | { error: string } {
  const again = `Call ${call.name} again with a JSON object that matches its parameters.`;
  if (call.arguments.trim() === '') return { input: {} };
  let value: unknown;
  try {
    value = JSON.parse(call.arguments);
  } catch (error) {
    return { error: `The arguments for ${call.name} are not valid JSON (${(error as Error).message}). ${again}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { error: `The arguments for ${call.name} must be a JSON object, got ${got}. ${again}` };
  }
  return { input: dropNullOptionals(value, schema) };
}

/**
 * Answers pending calls: approvals run (or are refused) through `runTool` with the host's
 * decision; client-answered calls become results through the tool's `answeredByClient`.
 * Calls without an answer stay pending. Throws for answers a host got wrong (an unknown
 * call id, something that is not a decision): those are programming errors, not the model's.
 */
export async function resolvePendingCalls(
  outcomes: readonly ToolCallOutcome[],
  pending: readonly PendingToolCall[],
  answers: PendingAnswers,
  context: DispatchContext,
): Promise<{ outcomes: ToolCallOutcome[]; pending: PendingToolCall[] }> {
  for (const callId of Object.keys(answers)) {
    if (!pending.some((call) => call.callId === callId)) {
      throw new TypeError(`No pending call has the id \`${callId}\`. Pending calls: ${pending.map((call) => call.callId).join(', ') || 'none'}.`);
    }
  }
  const results = new Map<string, ToolResult>();
  const stillPending: PendingToolCall[] = [];
  for (const call of pending) {
    if (!Object.hasOwn(answers, call.callId)) {
      stillPending.push(call);
      continue;
    }
    results.set(call.callId, await answerCall(call, answers[call.callId], context));
  }
  return {
    outcomes: outcomes.map((outcome) => {
      const result = results.get(outcome.callId);
      return result === undefined ? outcome : { ...outcome, result };
    }),
    pending: stillPending,
  };
}

async function answerCall(call: PendingToolCall, answer: unknown, context: DispatchContext): Promise<ToolResult> {
  const tool = context.tools.get(call.toolName);
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
    session: context.session,
    toolCallId: call.callId,
    mode: context.mode,
    needsApproval: context.needsApproval,
    signal: context.signal,
    onProgress: context.onProgress,
    approve: () => answer,
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
