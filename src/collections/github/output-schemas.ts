import { z } from 'zod';

const url = z.string().optional().describe('The address GitHub gave, when gh printed one.');

/** `gh_create_pr`'s data. */
export const createPullRequestOutput = z.object({ url, draft: z.boolean() });

/** `gh_comment`'s data. */
export const commentOutput = z.object({ number: z.number(), url });
