// Type tests for the public types of the ask-the-user collection, checked by `npm run typecheck`.
import { expectTypeOf } from 'vitest';
import type { ToolOutput } from '../../tool.js';
import type { ClientAnswer, UserAnswer } from './answers.js';
import { createAskUserTools, type AskUserFunction } from './index.js';
import type { UserQuestion } from './questions.js';

// The callback gets the questions as the tool input names them and returns one answer per question.
expectTypeOf<AskUserFunction>().parameters.toEqualTypeOf<[readonly UserQuestion[], AbortSignal]>();
expectTypeOf<AskUserFunction>().returns.toEqualTypeOf<Promise<readonly UserAnswer[]>>();
expectTypeOf<UserQuestion['multi_select']>().toEqualTypeOf<boolean>();
expectTypeOf<UserAnswer>().toEqualTypeOf<{ readonly selected: readonly string[] }>();
expectTypeOf<ClientAnswer>().toEqualTypeOf<{ readonly answers: readonly UserAnswer[] }>();

createAskUserTools({ ask: async (questions) => questions.map((question) => ({ selected: [question.options[0]!.label] })) });
// @ts-expect-error an answer is an object with `selected`, not a bare label
createAskUserTools({ ask: async () => ['OAuth'] });

const [tool] = createAskUserTools().tools;
expectTypeOf(tool.answeredByClient).toEqualTypeOf<{ readonly toResult: (input: ReturnType<typeof tool.input.parse>, answer: unknown) => ToolOutput } | undefined>();
