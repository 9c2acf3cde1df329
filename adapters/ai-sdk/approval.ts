import type { ModelMessage } from 'ai';
import { approvalBatchesOf, prepareToolCall, type ApprovalMode, type CallRecordingOptions, type ApprovalOverrides, type ApproveFunction, type Session, type ToolDefinition } from '../../src/index.js';

/**
 * The `reason` a user interface sends with an approval to mean "always": the call runs and
 * later calls with the same approval key run unasked for the rest of the session, e.g.
 * `addToolApprovalResponse({ id, approved: true, reason: APPROVE_ALWAYS_REASON })`.
 */
export const APPROVE_ALWAYS_REASON = 'always';

/** What every converted tool needs to know about the host. */
export interface ApprovalSettings extends CallRecordingOptions {
  readonly session: Session;
  readonly mode?: ApprovalMode;
  readonly needsApproval?: ApprovalOverrides;
  readonly onApproval?: ApproveFunction;
}

/** An approval status in the shape ai v7's `toolApproval` understands. */
export type AiSdkApprovalStatus = 'not-applicable' | { readonly type: 'user-approval'; readonly reason?: string };

/** What the SDK tells an approval check about the call: its id and the messages of its step. */
export interface AiSdkApprovalOptions {
  readonly toolCallId: string;
  /** The same array for every call of one step: the batch the call belongs to. */
  readonly messages?: readonly unknown[];
}

/**
 * The per-tool `toolApproval` map for ai v7's `generateText`, `streamText` and
 * `ToolLoopAgent`. Each entry asks the core, so policy refusals and plan mode never ask.
 */
export type AiSdkToolApproval = Record<string, (input: unknown, options: AiSdkApprovalOptions) => Promise<AiSdkApprovalStatus>>;

/**
 * The approval request for this call when the SDK must ask a person, else `undefined` (it
 * runs unasked, or it is refused and `execute` reports why). The SDK checks every call of a
 * step before it runs any, so a call whose policy refuses it now but that an earlier call of
 * the step may make possible (the read a write needs) is asked about too; its policy is
 * checked again when it runs.
 */
export async function approvalDescription(tool: ToolDefinition<any>, input: unknown, options: AiSdkApprovalOptions, settings: ApprovalSettings): Promise<string | undefined> {
  try {
    const prepared = await prepareToolCall(tool, input, { ...settings, toolCallId: options.toolCallId });
    return approvalBatchesOf(settings.session).decide(options.messages, options.toolCallId, tool, prepared)?.description;
  } catch {
    // A failing policy check is reported by `execute`, where runTool turns it into a result.
    return undefined;
  }
}

/** The v7 `toolApproval` map for the toolbelt's tools (empty when `onApproval` asks instead). */
export function createToolApproval(tools: ReadonlyMap<string, ToolDefinition<any>>, settings: ApprovalSettings): AiSdkToolApproval {
  const approval: AiSdkToolApproval = {};
  if (settings.onApproval !== undefined) return approval;
  for (const [name, tool] of tools) {
    if (tool.answeredByClient !== undefined) continue;
    approval[name] = async (input, options) => {
      const reason = await approvalDescription(tool, input, options, settings);
      return reason === undefined ? 'not-applicable' : { type: 'user-approval', reason };
    };
  }
  return approval;
}

/**
 * The user's answer to the SDK's approval request for this tool call, found in the messages
 * the SDK hands to `execute` when it resumes after `addToolApprovalResponse`.
 */
export function findApprovalResponse(
  messages: readonly ModelMessage[],
  toolCallId: string,
): { approved: boolean; reason?: string } | undefined {
  let approvalId: string | undefined;
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId) approvalId = part.approvalId;
    }
  }
  if (approvalId === undefined) return undefined;
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-response' && part.approvalId === approvalId) {
        return part.reason === undefined ? { approved: part.approved } : { approved: part.approved, reason: part.reason };
      }
    }
  }
  return undefined;
}
