import type { RunnableConfig } from '@langchain/core/runnables';
import {
  errorResult,
  normalizeOutput,
  prepareToolCall,
  recordingOptions,
  runTool,
  withCallOrder,
  type ApprovalDecision,
  type ApprovalMode,
  type ApprovalOverrides,
  type ApproveFunction,
  type CallRecordingOptions,
  type ProgressListener,
  type RunToolResult,
  type Session,
  type ToolDefinition,
  type ToolProgress,
} from '../../src/index.js';
import { canPause, CANNOT_PAUSE, pauseForAnswer, type InterruptedToolCall } from './interrupts.js';

/** The approval settings every call of one adapter shares. */
export interface CallSettings extends CallRecordingOptions {
  readonly onApproval?: ApproveFunction;
  readonly mode?: ApprovalMode;
  readonly needsApproval?: ApprovalOverrides;
}

/** One call as LangChain hands it over. */
export interface LangChainCall {
  readonly toolCallId: string;
  readonly args: unknown;
  readonly session: Session;
  readonly config: RunnableConfig | undefined;
}

/**
 * Runs one call through the core's `runTool`. A call that needs approval asks `onApproval`
 * when the host gave one, else pauses the graph with an approval interrupt; an
 * `ask_user_question` without a callback pauses with a question interrupt. A run that cannot
 * pause (no graph, no checkpointer) gets the core's refusal; a call that shares its graph
 * task with others is told to come back alone. Never throws but for LangGraph's own interrupt.
 */
export async function runCall(tool: ToolDefinition<any>, call: LangChainCall, settings: CallSettings): Promise<RunToolResult> {
  // The call keeps the place it took when LangChain started it, through interrupts and approvals.
  const result = await withCallOrder(call.session, tool.kind, call.config?.signal, () => runQueuedCall(tool, call, settings));
  return result ?? { text: `${tool.name} was cancelled before it started.`, isError: true };
}

async function runQueuedCall(tool: ToolDefinition<any>, call: LangChainCall, settings: CallSettings): Promise<RunToolResult> {
  const options = {
    session: call.session,
    toolCallId: call.toolCallId,
    signal: call.config?.signal,
    mode: settings.mode,
    needsApproval: settings.needsApproval,
    queued: true,
    onProgress: progressWriter(call.config),
    ...recordingOptions(settings),
  };
  let prepared;
  try {
    prepared = await prepareToolCall(tool, call.args, options);
  } catch (error) {
    return errorResult(tool.name, error);
  }
  if (prepared.status === 'done') return prepared.result;
  const toolCall: InterruptedToolCall = { id: call.toolCallId, name: tool.name, args: prepared.input };

  // Asking the user is their say in the matter: a question needs no approval of its own.
  if (tool.answeredByClient !== undefined) {
    const answer = pauseForAnswer(call.config, call.toolCallId, { type: 'question', toolCall, questions: prepared.input.questions });
    if (answer === CANNOT_PAUSE) {
      return canPause(call.config) ? { text: batchedQuestionText(tool.name), isError: true } : runTool(tool, call.args, options);
    }
    try {
      return normalizeOutput(await tool.answeredByClient.toResult(prepared.input, answer));
    } catch (error) {
      return errorResult(tool.name, error);
    }
  }
  if (prepared.status === 'ready') return runTool(tool, call.args, options);
  if (settings.onApproval !== undefined) return runTool(tool, call.args, { ...options, approve: settings.onApproval });

  const { kind, description, canAlwaysApprove } = prepared.request;
  const decision = pauseForAnswer(call.config, call.toolCallId, { type: 'approval', toolCall, kind, description, canAlwaysApprove });
  if (decision === CANNOT_PAUSE) {
    return canPause(call.config) ? { text: batchedApprovalText(tool.name), isError: true } : runTool(tool, call.args, options);
  }
  if (!isApprovalDecision(decision)) return { text: unknownDecisionText(tool.name, decision), isError: true };
  return runTool(tool, call.args, { ...options, approve: () => decision });
}

/** What a toolbelt tool writes to LangGraph's custom stream (`streamMode: 'custom'`) while it runs. */
export type ToolProgressChunk = { readonly type: 'tool_progress' } & ToolProgress;

/**
 * The run's LangGraph stream writer as a progress listener: each event becomes a
 * {@link ToolProgressChunk} in `streamMode: 'custom'`. Nothing when the run has no writer
 * (a plain `invoke` outside a graph, or a graph not streaming custom events).
 */
function progressWriter(config: RunnableConfig | undefined): ProgressListener | undefined {
  const withWriter = config as (RunnableConfig & { writer?: unknown; configurable?: { writer?: unknown } }) | undefined;
  const writer = withWriter?.writer ?? withWriter?.configurable?.writer;
  if (typeof writer !== 'function') return undefined;
  return (progress) => writer({ type: 'tool_progress', ...progress } satisfies ToolProgressChunk);
}

/** True for the answers an approval interrupt may be resumed with. */
function isApprovalDecision(value: unknown): value is ApprovalDecision {
  if (value === 'approve' || value === 'always' || value === 'deny') return true;
  if (typeof value !== 'object' || value === null) return false;
  const { type, input } = value as { type?: unknown; input?: unknown };
  return type === 'deny' || (type === 'edit' && typeof input === 'object' && input !== null);
}

/** The text the model reads when the host resumed an approval with something that is not a decision. */
function unknownDecisionText(toolName: string, value: unknown): string {
  return `${toolName} was not run: the approval was answered with ${JSON.stringify(value) ?? String(value)}, which is not a decision ('approve', 'always', 'deny', { type: 'deny', reason } or { type: 'edit', input }). Tell the user the approval could not be read and ask whether to try again.`;
}

/** The text the model reads when a question to the user came in a batch that cannot pause for it. */
export function batchedQuestionText(toolName: string): string {
  return `${toolName} can only ask the user when it is called on its own, not together with other tools in one step. Nothing was asked. Call ${toolName} again by itself.`;
}

/** The text the model reads when a call needing approval came in a batch that cannot pause for it. */
export function batchedApprovalText(toolName: string): string {
  return `${toolName} needs the user's approval, and this graph can only ask for it when ${toolName} is called on its own, not together with other tools in one step. It was not run. Call ${toolName} again by itself.`;
}
