import type { ToolCollection, ToolDefinition } from '../../tool.js';
import { defineTool } from '../../tool.js';
import { replyFromAnswers, replyFromClientAnswer, type UserAnswer } from './answers.js';
import { ASK_USER_INSTRUCTIONS, ASK_USER_QUESTION_DESCRIPTION, CANNOT_ASK_TEXT } from './descriptions.js';
import { askUserInput, toUserQuestions, type UserQuestion } from './questions.js';
import { askUserOutput } from './output-schema.js';
import { ASK_USER_ALIASES } from './input-aliases.js';

/**
 * Shows the questions and waits for the user's answers: one {@link UserAnswer} per question,
 * in order. Rejecting (or the signal aborting) ends the call with an error for the model.
 */
export type AskUserFunction = (questions: readonly UserQuestion[], signal: AbortSignal) => Promise<readonly UserAnswer[]>;

/** Options of {@link createAskUserTools}. */
export interface AskUserToolsOptions {
  /**
   * Asks the user and waits (a CLI or desktop host). Left out, the tool is answered by the
   * user interface: adapters hand the call to the client (AI SDK: a tool without `execute`,
   * answered with `addToolOutput`; LangGraph: `interrupt()`; OpenAI: a pending call) and turn
   * the client's `{ answers: [{ selected: string[] }] }` into the result.
   */
  readonly ask?: AskUserFunction;
}

/** The ask-the-user collection. */
export interface AskUserCollection extends ToolCollection {
  readonly name: 'ask-user';
  readonly tools: readonly [ToolDefinition<typeof askUserInput>];
}

/**
 * Creates `ask_user_question`: 1 to 4 multiple-choice questions, checked in full (header
 * length, option count, distinct labels and questions) before anyone is asked.
 *
 * @example
 * // A CLI host that can wait:
 * const askUser = createAskUserTools({ ask: async (questions) => questions.map((q) => ({ selected: [q.options[0]!.label] })) });
 * // A web host: the adapter hands the call to the user interface.
 * const askInBrowser = createAskUserTools();
 */
export function createAskUserTools(options: AskUserToolsOptions = {}): AskUserCollection {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected createAskUserTools to get an options object or nothing, got ${String(options)}.`);
  }
  const { ask } = options;
  if (ask !== undefined && typeof ask !== 'function') {
    throw new TypeError(`Expected the \`ask\` option to be a function (questions, signal) => Promise<UserAnswer[]>, got ${describeValue(ask)}.`);
  }

  // One tool either way; only who answers differs: the client (the adapter hands the call to the user interface) or `ask`.
  const shared = {
    name: 'ask_user_question',
    description: ASK_USER_QUESTION_DESCRIPTION,
    kind: 'other',
    effects: { readOnly: true, openWorld: false },
    output: askUserOutput,
    input: askUserInput,
    aliases: ASK_USER_ALIASES,
    describeCall: describeQuestions,
  } as const;
  const tool =
    ask === undefined
      ? defineTool({
          ...shared,
          execute: () => ({ text: CANNOT_ASK_TEXT, isError: true }),
          answeredByClient: { toResult: (input, answer) => replyFromClientAnswer(toUserQuestions(input), answer) },
        })
      : defineTool({
          ...shared,
          execute: async (input, { signal }) => {
            const questions = toUserQuestions(input);
            let answers: unknown;
            try {
              answers = await untilAborted(ask(questions, signal), signal);
            } catch (error) {
              if (signal.aborted) return { text: 'The questions were cancelled before the user answered. Do not guess what the user would choose.', isError: true };
              const message = error instanceof Error ? error.message : String(error);
              return { text: `Asking the user failed: ${message}. Do not guess what the user would choose: go on without the answers and say so.`, isError: true };
            }
            return replyFromAnswers(questions, answers);
          },
        });

  return { name: 'ask-user', tools: [tool], instructions: ASK_USER_INSTRUCTIONS };
}

/** The callback's answers, or a rejection as soon as the call is cancelled, even if the callback ignores the signal. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return `\`${value}\` (string)`;
  if (value === null) return '`null`';
  if (typeof value === 'object') return 'an object';
  return `\`${String(value)}\` (${typeof value})`;
}

/** The call in a person's words: `Ask: Tabs or spaces?`, `Ask 2 questions: …`. */
function describeQuestions({ questions }: { questions: ReadonlyArray<{ question: string }> }): string {
  return questions.length === 1 ? `Ask: ${questions[0]!.question}` : `Ask ${questions.length} questions: ${questions.map((question) => question.question).join(' ')}`;
}
