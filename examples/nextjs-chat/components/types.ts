import type { CallView } from '../app/api/calls/route';
import type { AlwaysView } from '../app/api/approvals/route';

export type { AlwaysView, CallView };

/** The reason that tells the server to remember an approval for the rest of the chat (APPROVE_ALWAYS_REASON). */
export const ALWAYS = 'always';
/** The reason a pending approval gets when the person sends a new message instead of answering it. */
export const SUPERSEDED = 'The user sent a new message instead of answering.';

export interface Task {
  id: string;
  subject: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** A tool part of a message, read loosely: the AI SDK's `UIToolInvocation` without its generics. */
export interface ToolPart {
  type: string;
  toolCallId: string;
  state: 'input-streaming' | 'input-available' | 'approval-requested' | 'approval-responded' | 'output-available' | 'output-error' | 'output-denied';
  input?: unknown;
  output?: { text?: string; isError?: boolean; data?: { diff?: string; output?: string }; answers?: Array<{ selected?: string[] }> };
  preliminary?: boolean;
  errorText?: string;
  approval?: { id: string; approved?: boolean; requestReason?: string; reason?: string };
}

export type Answer = (response: { id: string; approved: boolean; reason?: string }) => void;
export type AnswerQuestion = (toolCallId: string, answers: Array<{ selected: string[] }>) => void;

/** Is this part a tool call waiting for the person (an approval, or a question not answered)? */
export function isWaiting(part: { type: string; state?: string }): boolean {
  return (part.type.startsWith('tool-') && part.state === 'approval-requested') || (part.type === 'tool-ask_user_question' && part.state === 'input-available');
}
