import { z } from 'zod';
import type { AnsweredQuestion } from './answers.js';

/** `ask_user_question`'s data: each question with what the user picked or typed. */
export const askUserOutput = z.object({
  answers: z.array(
    z.object({
      question: z.string(),
      header: z.string(),
      selected: z.array(z.string()).describe('Labels the user picked, in order.'),
      typed: z.array(z.string()).describe('Answers the user typed themselves.'),
    }),
  ),
}) satisfies z.ZodType<{ answers: AnsweredQuestion[] }>;
