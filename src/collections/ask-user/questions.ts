import { z } from 'zod';

/** Questions one call may ask. */
export const MAX_QUESTIONS = 4;
/** Options a question offers at least and at most; the user may always type an answer of their own. */
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 4;
/** Characters of a question's header: a chip-sized label. */
export const MAX_HEADER_CHARACTERS = 12;
/** Characters of a question. */
export const MAX_QUESTION_CHARACTERS = 500;
/** Characters of an option's label. */
export const MAX_LABEL_CHARACTERS = 60;
/** Characters of an option's description. */
export const MAX_OPTION_DESCRIPTION_CHARACTERS = 300;

/** One choice of a {@link UserQuestion}. */
export interface UserOption {
  /** What the user picks, e.g. `OAuth`; unique within the question. */
  readonly label: string;
  /** What choosing it means, shown beside the label. */
  readonly description?: string;
}

/**
 * A question for the user, as the model asked it and as the host's `ask` callback and the
 * user interface get it (field names as in the tool input, `multi_select` filled in).
 */
export interface UserQuestion {
  /** The full question, e.g. `Which login method should the app use?`. */
  readonly question: string;
  /** A short label of at most 12 characters, e.g. `Login`. */
  readonly header: string;
  /** 2 to 4 options; an "Other" free-text answer is always allowed besides them. */
  readonly options: readonly UserOption[];
  /** The user may pick several options. */
  readonly multi_select: boolean;
}

const isBlank = (text: string) => text.trim() === '';
const characters = (text: string) => [...text].length;

/** Some harnesses (Cline's ask_followup_question) send options as plain strings: the message says the object to send. */
const optionError = (issue: { readonly input?: unknown }) =>
  typeof issue.input === 'string' ? `send each option as an object: { "label": ${JSON.stringify(issue.input)} }` : undefined;

const optionSchema = z.object(
  {
    label: z
      .string()
      .max(MAX_LABEL_CHARACTERS)
      .superRefine((label, context) => {
        if (isBlank(label)) context.addIssue({ code: 'custom', message: 'The label is blank; give every option a short label' });
        else if (label.trim().toLowerCase() === 'other') {
          context.addIssue({ code: 'custom', message: 'Leave out an "Other" option: the user can always type an answer of their own' });
        }
      })
      .describe(`What the user picks, 1 to 5 words (at most ${MAX_LABEL_CHARACTERS} characters)`),
    description: z
      .string()
      .max(MAX_OPTION_DESCRIPTION_CHARACTERS)
      .optional()
      .describe('What choosing this option means or implies; default none'),
  },
  { error: optionError },
);

const questionSchema = z.object({
  question: z
    .string()
    .max(MAX_QUESTION_CHARACTERS)
    .refine((text) => !isBlank(text), 'The question is blank; write the full question')
    .describe('The full question, clear on its own, ending with "?"'),
  header: z
    .string()
    .superRefine((header, context) => {
      if (isBlank(header)) context.addIssue({ code: 'custom', message: 'The header is blank; give a short label such as "Login"' });
      else if (characters(header) > MAX_HEADER_CHARACTERS) {
        context.addIssue({
          code: 'custom',
          message: `The header "${header}" has ${characters(header)} characters; keep it to ${MAX_HEADER_CHARACTERS}, such as "Login"`,
        });
      }
    })
    .describe(`A very short label for the question, at most ${MAX_HEADER_CHARACTERS} characters, e.g. "Login" or "Database"`),
  options: z
    .array(optionSchema)
    .min(MIN_OPTIONS, `Give at least ${MIN_OPTIONS} options`)
    .max(MAX_OPTIONS, `Give at most ${MAX_OPTIONS} options; the user can always type an answer of their own`)
    .superRefine((options, context) => {
      const seen = new Map<string, number>();
      options.forEach((option, index) => {
        const key = option.label.trim().toLowerCase();
        const earlier = seen.get(key);
        if (key !== '' && earlier !== undefined) {
          context.addIssue({
            code: 'custom',
            path: [index, 'label'],
            message: `"${option.label.trim()}" is also the label of option ${earlier + 1}; give each option a different label`,
          });
        }
        if (earlier === undefined) seen.set(key, index);
      });
    })
    .describe(`${MIN_OPTIONS} to ${MAX_OPTIONS} distinct choices; do not add an "Other" option, the user can always type their own answer`),
  multi_select: z.boolean().optional().describe('Let the user pick more than one option; default false'),
});

/** The input of `ask_user_question`, checked in full before anyone is asked. */
export const askUserInput = z.object({
  questions: z
    .array(questionSchema)
    .min(1, 'Ask at least one question')
    .max(MAX_QUESTIONS, `Ask at most ${MAX_QUESTIONS} questions per call; ask the rest after these are answered`)
    .superRefine((questions, context) => {
      const seen = new Map<string, number>();
      questions.forEach((question, index) => {
        const key = question.question.trim().toLowerCase();
        if (key === '') return;
        const earlier = seen.get(key);
        if (earlier !== undefined) {
          context.addIssue({ code: 'custom', path: [index, 'question'], message: `This is the same question as question ${earlier + 1}; ask each question once` });
        }
        if (earlier === undefined) seen.set(key, index);
      });
    })
    .describe(`1 to ${MAX_QUESTIONS} questions, shown together`),
});

/** The parsed input of `ask_user_question`. */
export type AskUserInput = z.output<typeof askUserInput>;

/** The questions as the host and the user interface get them: trimmed, `multi_select` filled in. */
export function toUserQuestions(input: AskUserInput): UserQuestion[] {
  return input.questions.map((question) => ({
    question: question.question.trim(),
    header: question.header.trim(),
    options: question.options.map((option) => {
      const description = option.description?.trim();
      return description ? { label: option.label.trim(), description } : { label: option.label.trim() };
    }),
    multi_select: question.multi_select ?? false,
  }));
}
