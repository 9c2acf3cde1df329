import { SdkError, SdkErrorCode, type ClientCapabilities, type ElicitRequestFormParams, type ElicitResult, type Server } from '@modelcontextprotocol/server';
import type { ApprovalDecision, ApprovalRequest } from '../../src/index.js';
import { isLegacyProtocol } from './json-schema.js';

type RequestedSchema = ElicitRequestFormParams['requestedSchema'];
type FieldSchema = RequestedSchema['properties'][string];

/** How long a form waits for the user before the call is treated as unanswered: 10 minutes. */
export const DEFAULT_ELICITATION_TIMEOUT_MS = 10 * 60 * 1000;

/** Shows a form; a user who does not answer in time counts as having dismissed it. */
async function elicit(server: Server, params: ElicitRequestFormParams, signal: AbortSignal, timeoutMs: number): Promise<ElicitResult> {
  try {
    return await server.elicitInput(params, { signal, timeout: timeoutMs });
  } catch (error) {
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return { action: 'cancel' };
    throw error;
  }
}

/** True when the client declared that it can show forms (elicitation), at initialize or on this request. */
export function canElicit(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as { form?: unknown; url?: unknown } | undefined;
  if (elicitation === undefined) return false;
  // An empty object is the older spelling of form support.
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** What the user did with a form: accepted it with its content, declined or dismissed it. */
export interface FormAnswer {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, unknown>>;
}

/** One choice of a form: the value the client sends back and the words the user sees. */
interface Choice {
  readonly value: string;
  readonly title: string;
}

/**
 * A single choice as a form field: titled `oneOf` options (MCP 2025-11-25), or for clients
 * of an older protocol version the legacy `enum` with `enumNames`.
 */
function singleChoice(field: { title: string; description?: string }, choices: readonly Choice[], protocolVersion: string): FieldSchema {
  const values = choices.map((choice) => choice.value);
  return isLegacyProtocol(protocolVersion)
    ? { type: 'string', ...field, enum: values, enumNames: choices.map((choice) => choice.title) }
    : { type: 'string', ...field, oneOf: choices.map((choice) => ({ const: choice.value, title: choice.title })) };
}

/** The form that asks whether a call may run: allow once, always (when it can be remembered), deny. */
export function approvalForm(request: ApprovalRequest, protocolVersion: string): ElicitRequestFormParams {
  const choices: Choice[] = [
    { value: 'approve', title: 'Allow once' },
    ...(request.canAlwaysApprove ? [{ value: 'always', title: `Always allow ${request.toolName} calls like this` }] : []),
    { value: 'deny', title: 'Deny' },
  ];
  return {
    mode: 'form',
    message: `The agent wants to run ${request.toolName}:\n${request.description}`,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: singleChoice({ title: 'Decision' }, choices, protocolVersion),
        reason: { type: 'string', title: 'Reason', description: 'Optional; the agent reads it when you deny.' },
      },
      required: ['decision'],
    },
  };
}

/** The user's answer to {@link approvalForm}: declining, dismissing or an answer it did not offer is a denial. */
export function approvalDecision(result: FormAnswer, request: ApprovalRequest): ApprovalDecision {
  const decision = result.action === 'accept' ? result.content?.decision : undefined;
  const reason = typeof result.content?.reason === 'string' ? result.content.reason : undefined;
  if (decision === 'approve' || (decision === 'always' && request.canAlwaysApprove)) return decision;
  return { type: 'deny', reason };
}

/**
 * Asks the user through the client whether a call may run (the 2025 era: a request from the
 * server). Declining, dismissing or not answering the form in time is a denial.
 */
export async function elicitApproval(
  server: Server,
  request: ApprovalRequest,
  signal: AbortSignal,
  timeoutMs: number,
  protocolVersion: string,
): Promise<ApprovalDecision> {
  return approvalDecision(await elicit(server, approvalForm(request, protocolVersion), signal, timeoutMs), request);
}

/** One question of `ask_user_question`, as the design fixes its input. */
interface Question {
  readonly question: string;
  readonly header?: string;
  readonly options: ReadonlyArray<{ readonly label: string; readonly description?: string }>;
  readonly multi_select?: boolean;
}

/** An option as the user sees it: its label, then its description when it has one. */
function optionChoices(question: Question): Choice[] {
  return question.options.map((option) => ({ value: option.label, title: option.description ? `${option.label}: ${option.description}` : option.label }));
}

/** The answers in the shape the tool's `answeredByClient.toResult` reads. */
export interface QuestionAnswers {
  readonly answers: Array<{ selected: string[] }>;
}

/**
 * `ask_user_question`'s questions as one form. A multiple choice is an array of titled
 * options; forms before 2025-11-25 had no arrays, so those clients get one checkbox per option.
 */
export function questionsForm(input: Record<string, unknown>, protocolVersion: string): ElicitRequestFormParams {
  const questions = input.questions as readonly Question[];
  const legacy = isLegacyProtocol(protocolVersion);
  const properties: RequestedSchema['properties'] = {};
  questions.forEach((question, index) => {
    const field = { title: question.header ?? `Question ${index + 1}`, description: question.question };
    const choices = optionChoices(question);
    if (!question.multi_select) properties[`q${index + 1}`] = singleChoice(field, choices, protocolVersion);
    else if (!legacy) properties[`q${index + 1}`] = { type: 'array', ...field, items: { anyOf: choices.map((choice) => ({ const: choice.value, title: choice.title })) } };
    else {
      choices.forEach((choice, option) => {
        properties[`q${index + 1}_${option + 1}`] = { type: 'boolean', title: `${field.title}: ${choice.title}`, description: question.question, default: false };
      });
    }
  });
  const required = Object.entries(properties).filter(([, field]) => field.type !== 'boolean').map(([key]) => key);
  return { mode: 'form', message: questions.map((question) => question.question).join('\n'), requestedSchema: { type: 'object', properties, required } };
}

/** The user's answer to {@link questionsForm}, or `undefined` when the user dismissed the form. */
export function questionAnswers(result: FormAnswer, input: Record<string, unknown>, protocolVersion: string): QuestionAnswers | undefined {
  if (result.action !== 'accept') return undefined;
  const questions = input.questions as readonly Question[];
  const legacy = isLegacyProtocol(protocolVersion);
  const content = result.content ?? {};
  return {
    answers: questions.map((question, index) => {
      if (question.multi_select && legacy) {
        return { selected: question.options.filter((_option, option) => content[`q${index + 1}_${option + 1}`] === true).map((option) => option.label) };
      }
      const value = content[`q${index + 1}`];
      return { selected: Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)] };
    }),
  };
}

/** Shows the questions as a form sent by the server (the 2025 era), or `undefined` when dismissed. */
export async function elicitAnswers(
  server: Server,
  input: Record<string, unknown>,
  signal: AbortSignal,
  timeoutMs: number,
  protocolVersion: string,
): Promise<QuestionAnswers | undefined> {
  return questionAnswers(await elicit(server, questionsForm(input, protocolVersion), signal, timeoutMs), input, protocolVersion);
}
