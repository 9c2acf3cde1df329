import type { ApprovalDecision, PendingCall } from '../../../src/index.js';
import { FINAL_ANSWER, type Approver, type DriverRun } from '../driver.js';

/** A provider's reply builder in the scripted servers' shape: text, or calls as `[name, input]`. */
type ReplyBuilder<Step> = (reply: { text?: string; calls?: ReadonlyArray<readonly [string, unknown]> }) => Step;

/**
 * The scripted server's steps for a run, for the APIs that hand back a list of calls (OpenAI,
 * Anthropic): one reply a turn with that turn's calls, then the closing answer.
 */
export function scriptedReplies<Step>(run: DriverRun, reply: ReplyBuilder<Step>): Step[] {
  return [
    ...run.turns.map((calls) => reply({ calls: calls.map((call) => [call.tool, call.input] as const) })),
    reply({ text: FINAL_ANSWER }),
  ];
}

/**
 * The person's answers to the pending calls an adapter handed back (OpenAI and Anthropic share
 * the core's pending-call shape), by call id, for `resolvePending`.
 */
export function answerPending(pending: readonly PendingCall[], approver: Approver): Record<string, ApprovalDecision> {
  return Object.fromEntries(pending.map((call) => [call.callId, approver({ toolName: call.toolName, description: call.type === 'approval' ? call.request.description : undefined })]));
}
