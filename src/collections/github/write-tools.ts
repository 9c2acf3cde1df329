import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { GH_COMMENT_DESCRIPTION, GH_CREATE_PR_DESCRIPTION } from './descriptions.js';
import type { ResolvedGitHubToolsOptions } from './options.js';
import { runGh } from './run-gh.js';
import { gitHubAliases } from './input-aliases.js';
import { commentOutput, createPullRequestOutput } from './output-schemas.js';

/** Characters of a comment an approval prompt quotes. */
const PROMPT_QUOTE_CHARACTERS = 120;

const nonBlank = (what: string) => z.string().refine((text) => text.trim() !== '', `The ${what} is blank`);
const branchField = (what: string) =>
  z
    .string()
    .refine((name) => name.trim() !== '' && !/\s/.test(name), 'A branch name has no spaces')
    .optional()
    .describe(what);

/** `gh_create_pr` and `gh_comment`: kind `other`, each asks for approval by default. */
export function createGitHubWriteTools(options: ResolvedGitHubToolsOptions) {
  const repoArgs = options.repo === undefined ? [] : ['--repo', options.repo];

  const createPullRequest = defineTool({
    name: 'gh_create_pr',
    description: GH_CREATE_PR_DESCRIPTION,
    kind: 'other',
    effects: { destructive: false },
    output: createPullRequestOutput,
    needsApproval: true,
    aliases: gitHubAliases(options.repo).gh_create_pr,
    input: z.object({
      title: nonBlank('title').describe('The pull request\'s title: one line.'),
      body: z.string().describe('The description, in markdown: what changed and why.'),
      base: branchField('The branch to merge into; by default the repository\'s default branch.'),
      head: branchField('The pushed branch with the changes; by default the current branch.'),
      draft: z.boolean().optional().describe('Open it as a draft; default false.'),
    }),
    describeCall: ({ title, base, head, draft }) =>
      `Open a${draft ? ' draft' : ''} pull request "${oneLine(title)}" (${head ?? 'current branch'} → ${base ?? 'default branch'})`,
    async execute({ title, body, base, head, draft }, { signal }) {
      // `--flag=value` keeps a value that starts with "-" a value.
      const args = [
        'pr', 'create',
        `--title=${oneLine(title)}`,
        `--body=${body}`,
        ...(base === undefined ? [] : [`--base=${base}`]),
        ...(head === undefined ? [] : [`--head=${head}`]),
        ...(draft ? ['--draft'] : []),
        ...repoArgs,
      ];
      const stdout = await runGh(options, args, { signal, shown: 'gh pr create' });
      const url = lastUrl(stdout);
      return {
        text: url === undefined ? `Created the pull request. gh said: ${stdout.trim()}` : `Created ${draft ? 'draft ' : ''}pull request ${url}`,
        data: { url, draft: draft ?? false },
      };
    },
  });

  const comment = defineTool({
    name: 'gh_comment',
    description: GH_COMMENT_DESCRIPTION,
    kind: 'other',
    effects: { destructive: false },
    output: commentOutput,
    needsApproval: true,
    aliases: gitHubAliases(options.repo).gh_comment,
    input: z.object({
      number: z.number().int().positive().describe('The issue or pull request number, e.g. 42.'),
      body: nonBlank('comment').describe('The comment, in markdown.'),
    }),
    describeCall: ({ number, body }) => {
      const text = oneLine(body);
      return `Comment on #${number}: "${text.length > PROMPT_QUOTE_CHARACTERS ? `${text.slice(0, PROMPT_QUOTE_CHARACTERS - 1)}…` : text}"`;
    },
    async execute({ number, body }, { signal }) {
      const shown = `gh issue comment ${number}`;
      const stdout = await runGh(options, ['issue', 'comment', String(number), `--body=${body}`, ...repoArgs], { signal, shown });
      const url = lastUrl(stdout);
      return { text: url === undefined ? `Commented on #${number}.` : `Commented on #${number}: ${url}`, data: { number, url } };
    },
  });

  return [createPullRequest, comment];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The last URL gh printed: the new pull request or comment. */
function lastUrl(stdout: string): string | undefined {
  return stdout.match(/https?:\/\/\S+/g)?.at(-1);
}
