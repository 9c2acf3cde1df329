import { z } from 'zod';
import type { ToolOutput } from '../../tool.js';
import type { UserQuestion } from './questions.js';

/**
 * The user's answer to one question. `selected` holds the labels they picked; a text that is
 * not one of the question's labels is an answer they typed themselves ("Other"); an empty
 * list means they gave no answer.
 */
export interface UserAnswer {
  readonly selected: readonly string[];
}

/**
 * What a user interface sends back for a client-answered `ask_user_question` call: one entry
 * per question, in the order asked. Adapters pass it to `answeredByClient.toResult`.
 *
 * @example
 * const answer: ClientAnswer = { answers: [{ selected: ['OAuth'] }, { selected: [] }] };
 */
export interface ClientAnswer {
  readonly answers: readonly UserAnswer[];
}

/** One answer as the reply and `data` give it. */
export interface AnsweredQuestion {
  readonly question: string;
  readonly header: string;
  /** Labels the user picked, in the order they came. */
  readonly selected: readonly string[];
  /** Answers the user typed themselves. */
  readonly typed: readonly string[];
}

const userAnswerSchema = z.object({ selected: z.array(z.string()) });
const clientAnswerSchema = z.object({ answers: z.array(userAnswerSchema) });

const DO_NOT_GUESS = 'Do not guess what the user chose: ask again, or go on without the answers and say so.';

/** The error for an answer list that does not match the questions one to one. */
export function wrongCountText(answers: number, questions: number): string {
  return (
    `The user interface returned ${answers} answer${answers === 1 ? '' : 's'} for ${questions} question${questions === 1 ? '' : 's'}, ` +
    `so the answers cannot be matched to the questions. ${DO_NOT_GUESS}`
  );
}

/** Checks answers from the host's `ask` callback and turns them into the reply. */
export function replyFromAnswers(questions: readonly UserQuestion[], answers: unknown): ToolOutput {
  const parsed = z.array(userAnswerSchema).safeParse(answers);
  if (!parsed.success) {
    return { text: `The answers from the host could not be read (${describeIssue(parsed.error)}); expected one { selected: [...] } per question. ${DO_NOT_GUESS}`, isError: true };
  }
  return reply(questions, parsed.data);
}

/** Checks a user interface's `{ answers: [{ selected }] }` (or that as JSON text) and turns it into the reply. */
export function replyFromClientAnswer(questions: readonly UserQuestion[], answer: unknown): ToolOutput {
  const parsed = clientAnswerSchema.safeParse(typeof answer === 'string' ? parseJson(answer) : answer);
  if (!parsed.success) {
    return {
      text: `The answer from the user interface could not be read (${describeIssue(parsed.error)}); expected { answers: [{ selected: [...] }] } with one entry per question. ${DO_NOT_GUESS}`,
      isError: true,
    };
  }
  return reply(questions, parsed.data.answers);
}

/**
 * The reply: every question with what the user chose, `(no answer)` for one they skipped,
 * and typed answers quoted. The same text whether a callback or a user interface answered.
 */
function reply(questions: readonly UserQuestion[], answers: readonly UserAnswer[]): ToolOutput {
  if (answers.length !== questions.length) return { text: wrongCountText(answers.length, questions.length), isError: true };
  const answered: AnsweredQuestion[] = questions.map((question, index) => {
    const labels = new Map(question.options.map((option) => [option.label.toLowerCase(), option.label]));
    const selected: string[] = [];
    const typed: string[] = [];
    for (const raw of answers[index]!.selected) {
      const text = raw.trim();
      if (text === '') continue;
      const label = labels.get(text.toLowerCase());
      if (label !== undefined) {
        if (!selected.includes(label)) selected.push(label);
      } else if (!typed.includes(text)) typed.push(text);
    }
    return { question: question.question, header: question.header, selected, typed };
  });

  const lines = answered.map((answer, index) => {
    const parts = [...answer.selected, ...answer.typed.map((text) => `${JSON.stringify(text)} (typed by the user)`)];
    return `${index + 1}. [${answer.header}] ${answer.question} → ${parts.length === 0 ? '(no answer)' : parts.join(', ')}`;
  });
  const skipped = answered.filter((answer) => answer.selected.length === 0 && answer.typed.length === 0).length;
  const heading = skipped === 0 ? 'The user answered:' : `The user answered ${answered.length - skipped} of ${answered.length} questions:`;
  const closing = skipped === 0 ? [] : ['The user gave no answer where it says (no answer); do not assume one.'];
  return { text: [heading, ...lines, ...closing].join('\n'), data: { answers: answered } };
}

/** Some transports hand the answer over as JSON text; anything else stays text and is refused as such. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.length === 0 ? 'the answer' : issue.path.map(String).join('.')}: ${issue.message}`;
}
