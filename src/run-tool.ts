import type { z } from 'zod';
import {
  approvalRequest,
  decideApproval,
  denialText,
  noApproverText,
  rememberApproval,
  type ApprovalMode,
  type ApprovalOverrides,
  type ApprovalRequest,
  type ApproveFunction,
} from './approval.js';
import { assertRunToolArguments } from './argument-checks.js';
import { withCallOrder } from './call-order.js';
import { ToolError } from './errors/tool-error.js';
import { warnNoApprover } from './no-approver-warning.js';
import { ProgressReporter, type ProgressListener } from './progress.js';
import type { Session } from './session.js';
import { repairInput } from './model-inputs/repair-input.js';
import { normalizeOutput, type ToolDefinition, type ToolResult } from './tool.js';
import type { RefusedBy } from './telemetry/audit-record.js';
import { observeCall, type CallObserver } from './telemetry/call-observer.js';
import { assertCallRecordingOptions, type CallRecordingOptions } from './telemetry/options.js';

/** How one call runs, and how it is recorded (`telemetry`, `onAudit`, `subject`: see {@link CallRecordingOptions}). */
export interface RunToolOptions extends CallRecordingOptions {
  readonly session: Session;
  readonly toolCallId?: string;
  /** Cancels the call; the tool stops and returns what it has. */
  readonly signal?: AbortSignal;
  /** Asks a person. Without it, a call that needs approval is refused (safe by default). */
  readonly approve?: ApproveFunction;
  /** @default 'ask' */
  readonly mode?: ApprovalMode;
  /** Per-tool overrides of the approval default, by tool name. */
  readonly needsApproval?: ApprovalOverrides;
  /**
   * The host already has a person's approval for this exact call (the AI SDK's own approval
   * flow). Policy checks still run.
   */
  readonly approved?: boolean;
  /**
   * The caller already holds this call's place in the session's call order
   * ({@link withCallOrder}), so `runTool` must not queue it again.
   */
  readonly queued?: boolean;
  /**
   * Receives the call's progress (a command's output as it arrives, a count so far) while it
   * runs: cleaned, bounded, throttled, the last event before the result. Adapters hand it
   * to their framework's live channel; see {@link ToolProgress}.
   */
  readonly onProgress?: ProgressListener;
  /** Shortest time between two progress events. @default 250 ({@link PROGRESS_INTERVAL_MS}) */
  readonly progressIntervalMs?: number;
}

/** A result that may carry the unexpected error behind it, for hosts that log. */
export type RunToolResult = ToolResult & { readonly error?: unknown };

/** The state of a call after parsing, policy and the approval decision, before it runs. */
export type PreparedCall =
  | {
      readonly status: 'done';
      readonly result: RunToolResult;
      /** What stopped the call: its input (bad arguments), the tool's policy, or the approval mode. */
      readonly refusedBy: RefusedBy;
      /**
       * Set when the policy refused a call that would otherwise have asked for approval: what
       * the person would have been asked. A host that decides about a whole batch before any
       * of it runs (the AI SDK) asks with it when an earlier call of the batch may yet meet the
       * policy, such as the read that a write needs.
       */
      readonly refusedRequest?: ApprovalRequest;
    }
  | { readonly status: 'needs-approval'; readonly input: Record<string, unknown>; readonly request: ApprovalRequest; readonly notes?: readonly string[] }
  | { readonly status: 'ready'; readonly input: Record<string, unknown>; readonly notes?: readonly string[] };

/**
 * Parses the input, applies the policy and decides about approval, without running anything.
 * Adapters whose framework asks for approval itself (the AI SDK's `needsApproval`, LangGraph's
 * `interrupt()`) use this to learn whether to ask; {@link runTool} uses it for everything.
 */
export async function prepareToolCall(
  tool: ToolDefinition<any>,
  rawInput: unknown,
  options: Omit<RunToolOptions, 'approve' | 'signal'>,
): Promise<PreparedCall> {
  const repaired = repairInput(tool.name, tool.input, tool.aliases, rawInput);
  if (repaired.refusal !== undefined) return { status: 'done', result: { text: repaired.refusal, isError: true }, refusedBy: 'input' };
  const parsed = tool.input.safeParse(repaired.input);
  if (!parsed.success) {
    return { status: 'done', result: { text: withNotes(formatInputError(tool.name, parsed.error), repaired.notes), isError: true }, refusedBy: 'input' };
  }
  const prepared = await decideCall(tool, parsed.data as Record<string, unknown>, options);
  if (repaired.notes.length === 0) return prepared;
  if (prepared.status === 'done') return { ...prepared, result: { ...prepared.result, text: withNotes(prepared.result.text, repaired.notes) } };
  return { ...prepared, notes: repaired.notes };
}

/** What the model is told of a repair, after the result it belongs to. */
export function withNotes(text: string, notes: readonly string[] | undefined): string {
  if (notes === undefined || notes.length === 0) return text;
  const said = notes.join('; ');
  return `${text}\n\n(${said.charAt(0).toUpperCase()}${said.slice(1)}: send the fields by these names next time.)`;
}

/** Steps 2 and 3 of {@link prepareToolCall}: the policy and the approval decision, on parsed input. */
async function decideCall(tool: ToolDefinition<any>, input: Record<string, unknown>, options: Omit<RunToolOptions, 'approve' | 'signal'>): Promise<PreparedCall> {
  const decide = () => decideApproval(tool, input, { session: options.session, mode: options.mode, overrides: options.needsApproval });
  // A tool whose execute applies its own policy needs the check only before a person is asked
  // (or a refusal is due, so that the policy's text still wins over the mode's).
  const skipPolicy = tool.executeChecksPolicy === true;
  const early = skipPolicy && !options.approved ? await decide() : undefined;
  if (skipPolicy && (options.approved || early?.type === 'run')) return { status: 'ready', input };
  const refusal = await tool.checkPolicy?.(input, { session: options.session });
  if (refusal !== undefined) {
    const asks = !options.approved && (early ?? (await decide())).type === 'ask';
    return { status: 'done', result: { text: refusal, isError: true }, refusedBy: 'policy', ...(asks ? { refusedRequest: approvalRequest(tool, input, options.toolCallId ?? '') } : {}) };
  }
  if (options.approved) return { status: 'ready', input };

  const verdict = early ?? (await decide());
  if (verdict.type === 'refuse') return { status: 'done', result: { text: verdict.text, isError: true }, refusedBy: 'mode' };
  if (verdict.type === 'run') return { status: 'ready', input };
  return { status: 'needs-approval', input, request: approvalRequest(tool, input, options.toolCallId ?? '') };
}

/**
 * Runs one tool call: the one execution path every adapter uses. Parses the input (an error
 * names the field), applies the policy, asks `approve` when the call needs approval, runs
 * `execute` and returns a normalised result. Calls of one session keep the order in which
 * they were started ({@link withCallOrder}): reads side by side, changes one at a time.
 * Never throws for bad input, policy, denial or a failing tool: those come back as `isError`
 * results the model can act on.
 *
 * @example
 * const result = await runTool(readFile, { path: 'README.md' }, { session });
 * if (result.isError) console.error(result.text);
 */
export async function runTool(tool: ToolDefinition<any>, rawInput: unknown, options: RunToolOptions): Promise<RunToolResult> {
  assertRunToolArguments(tool, options);
  if (options.telemetry !== undefined || options.onAudit !== undefined || options.subject !== undefined) assertCallRecordingOptions(options);
  const observing = observeCall(tool, rawInput, options);
  const observer = observing instanceof Promise ? await observing : observing;
  if (observer === undefined) return runInOrder(tool, rawInput, options);
  return observer.finish(await observer.run(() => runInOrder(tool, rawInput, options, observer)));
}

/** Takes the call's place in the session's call order (unless the caller holds it), then runs it. */
async function runInOrder(tool: ToolDefinition<any>, rawInput: unknown, options: RunToolOptions, observer?: CallObserver): Promise<RunToolResult> {
  if (options.queued) return runQueued(tool, rawInput, options, observer);
  const result = await withCallOrder(options.session, tool.kind, options.signal, () => runQueued(tool, rawInput, options, observer));
  return result ?? { text: `${tool.name} was cancelled before it started.`, isError: true };
}

/** {@link runTool} in the call's place: parse, policy, approval, execute. */
async function runQueued(tool: ToolDefinition<any>, rawInput: unknown, options: RunToolOptions, observer: CallObserver | undefined): Promise<RunToolResult> {
  const toolCallId = options.toolCallId ?? '';
  try {
    const prepared = await prepareToolCall(tool, rawInput, options);
    if (prepared.status === 'done') {
      observer?.refused(prepared.refusedBy);
      return prepared.result;
    }
    observer?.ready(prepared.input, prepared.status === 'needs-approval');

    let input = prepared.input;
    if (prepared.status === 'needs-approval') {
      if (options.approve === undefined) {
        observer?.decided('unavailable');
        warnNoApprover(tool.name);
        return { text: noApproverText(tool.name), isError: true };
      }
      observer?.asked(prepared.request);
      const decision = await options.approve(prepared.request);
      observer?.decided(decision);
      if (decision === 'deny') return { text: denialText(tool.name), isError: true };
      if (decision === 'always') rememberApproval(options.session, tool, input);
      else if (typeof decision === 'object' && decision.type === 'deny') {
        return { text: denialText(tool.name, decision.reason), isError: true };
      } else if (typeof decision === 'object' && decision.type === 'edit') {
        const edited = await prepareToolCall(tool, decision.input, { ...options, approved: true });
        if (edited.status === 'done') {
          observer?.refused(edited.refusedBy);
          return edited.result;
        }
        input = edited.input;
        observer?.ready(input, false);
      } else if (decision !== 'approve') {
        throw new TypeError(`Expected an approval decision, got ${JSON.stringify(decision)}.`);
      }
    }
    const result = await executeTool(tool, input, { ...options, toolCallId });
    return prepared.notes === undefined ? result : { ...result, text: withNotes(result.text, prepared.notes) };
  } catch (error) {
    return errorResult(tool.name, error);
  }
}


/** Runs `execute` on input that was already parsed, checked and approved. */
async function executeTool(
  tool: ToolDefinition<any>,
  input: Record<string, unknown>,
  options: RunToolOptions & { toolCallId: string },
): Promise<RunToolResult> {
  const signal = options.signal ?? new AbortController().signal;
  if (signal.aborted) return { text: `${tool.name} was cancelled before it started.`, isError: true };
  if (options.onProgress === undefined) {
    return normalizeOutput(await tool.execute(input, { toolCallId: options.toolCallId, signal, session: options.session }));
  }
  const reporter = new ProgressReporter({
    toolCallId: options.toolCallId,
    toolName: tool.name,
    listener: options.onProgress,
    ...(options.progressIntervalMs === undefined ? {} : { intervalMs: options.progressIntervalMs }),
  });
  try {
    const output = await tool.execute(input, { toolCallId: options.toolCallId, signal, session: options.session, onProgress: reporter.report });
    return normalizeOutput(output);
  } finally {
    // The last event goes out before the result, and nothing after it.
    reporter.finish();
  }
}

/** Turns a thrown error into a result: expected failures keep their text, bugs are reported as such. */
export function errorResult(toolName: string, error: unknown): RunToolResult {
  if (error instanceof ToolError) {
    return error.data === undefined ? { text: error.message, isError: true } : { text: error.message, isError: true, data: error.data };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    text: `${toolName} failed with an unexpected error: ${message}. This is not a problem with your input; try another approach or tell the user.`,
    isError: true,
    error,
  };
}

/** The message for input that does not match the schema, naming every field at fault. */
export function formatInputError(toolName: string, error: z.ZodError): string {
  const problems = error.issues.map((issue) => {
    const field = issue.path.length === 0 ? 'input' : `\`${issue.path.map(String).join('.')}\``;
    return `${field}: ${issue.message}`;
  });
  return `Invalid arguments for ${toolName}: ${problems.join('; ')}. Fix the arguments and call ${toolName} again.`;
}
