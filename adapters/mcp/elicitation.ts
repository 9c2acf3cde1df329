import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type ElicitRequestFormParams, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalDecision, ApprovalRequest } from '../../src/index.js';

type RequestedSchema = ElicitRequestFormParams['requestedSchema'];

/** How long a form waits for the user before the call is treated as unanswered: 10 minutes. */
export const DEFAULT_ELICITATION_TIMEOUT_MS = 10 * 60 * 1000;

/** Shows a form; a user who does not answer in time counts as having dismissed it. */
async function elicit(server: Server, params: ElicitRequestFormParams, signal: AbortSignal, timeoutMs: number): Promise<ElicitResult> {
  try {
    return await server.elicitInput(params, { signal, timeout: timeoutMs });
  } catch (error) {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return { action: 'cancel' };
    throw error;
  }
}

/** True when the connected client declared that it can show forms (elicitation). */
export function canElicit(server: Server): boolean {
  const elicitation = server.getClientCapabilities()?.elicitation as { form?: unknown; url?: unknown } | undefined;
  if (elicitation === undefined) return false;
  // An empty object is the older spelling of form support.
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/**
 * Asks the user through the client whether a call may run. Declining, dismissing or not
 * answering the form in time is a denial; "always" is offered only when the call can be remembered.
 */
export async function elicitApproval(server: Server, request: ApprovalRequest, signal: AbortSignal, timeoutMs: number): Promise<ApprovalDecision> {
  const choices = request.canAlwaysApprove ? ['approve', 'always', 'deny'] : ['approve', 'deny'];
  const names = request.canAlwaysApprove ? ['Allow once', `Always allow ${request.toolName} calls like this`, 'Deny'] : ['Allow once', 'Deny'];
  const result = await elicit(
    server,
    {
      mode: 'form',
      message: `The agent wants to run ${request.toolName}:\n${request.description}`,
      requestedSchema: {
        type: 'object',
        properties: {
          decision: { type: 'string', title: 'Decision', enum: choices, enumNames: names },
          reason: { type: 'string', title: 'Reason', description: 'Optional; the agent reads it when you deny.' },
        },
        required: ['decision'],
      },
    },
    signal,
    timeoutMs,
  );
  const decision = result.action === 'accept' ? result.content?.decision : undefined;
  const reason = typeof result.content?.reason === 'string' ? result.content.reason : undefined;
  if (decision === 'approve' || (decision === 'always' && request.canAlwaysApprove)) return decision;
  return { type: 'deny', reason };
}

/** One question of `ask_user_question`, as the design fixes its input. */
interface Question {
  readonly question: string;
  readonly header?: string;
  readonly options: ReadonlyArray<{ readonly label: string; readonly description?: string }>;
  readonly multi_select?: boolean;
}

/**
 * Shows `ask_user_question`'s questions as one form and returns the client's answer in the
 * shape the tool's `answeredByClient.toResult` reads (`{ answers: [{ selected }] }`), or
 * `undefined` when the user dismissed the form.
 */
export async function elicitAnswers(
  server: Server,
  input: Record<string, unknown>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<{ answers: Array<{ selected: string[] }> } | undefined> {
  const questions = input.questions as readonly Question[];
  const properties: RequestedSchema['properties'] = {};
  questions.forEach((question, index) => {
    const labels = question.options.map((option) => option.label);
    const title = question.header ?? `Question ${index + 1}`;
    properties[`q${index + 1}`] = question.multi_select
      ? { type: 'array', title, description: question.question, items: { type: 'string', enum: labels } }
      : { type: 'string', title, description: question.question, enum: labels };
  });
  const result = await elicit(
    server,
    {
      mode: 'form',
      message: questions.map((question) => question.question).join('\n'),
      requestedSchema: { type: 'object', properties, required: Object.keys(properties) },
    },
    signal,
    timeoutMs,
  );
  if (result.action !== 'accept') return undefined;
  return {
    answers: questions.map((_question, index) => {
      const value = result.content?.[`q${index + 1}`];
      return { selected: Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)] };
    }),
  };
}
