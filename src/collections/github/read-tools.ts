import { z } from 'zod';
import { errorResult } from '../../run-tool.js';
import { defineTool, type ToolOutput } from '../../tool.js';
import {
  GH_DIFF_DESCRIPTION,
  GH_LIST_ISSUES_DESCRIPTION,
  GH_LIST_PRS_DESCRIPTION,
  GH_VIEW_ISSUE_DESCRIPTION,
  GH_VIEW_PR_DESCRIPTION,
} from './descriptions.js';
import type { ResolvedGitHubToolsOptions } from './options.js';
import { limitOutput } from './output-limit.js';
import {
  ISSUE_LIST_FIELDS,
  ISSUE_VIEW_FIELDS,
  PR_LIST_FIELDS,
  PR_VIEW_FIELDS,
  renderIssue,
  renderIssueList,
  renderPullRequest,
  renderPullRequestList,
  type GhIssue,
  type GhIssueSummary,
  type GhPullRequest,
  type GhPullRequestSummary,
  type GhReviewComment,
} from './render.js';
import { parseGhJson, runGh } from './run-gh.js';
import { gitHubAliases } from './input-aliases.js';

/** Items a list call returns when the model gives no `limit`. */
export const DEFAULT_GH_LIST_LIMIT = 30;
/** The most items one list call may ask for. */
export const MAX_GH_LIST_LIMIT = 100;

const numberField = (what: string) => z.number().int().positive().describe(`The ${what} number, e.g. 42 (without "#").`);
const limitField = z
  .number()
  .int()
  .min(1)
  .max(MAX_GH_LIST_LIMIT)
  .optional()
  .describe(`How many to list, newest first; default ${DEFAULT_GH_LIST_LIMIT}, at most ${MAX_GH_LIST_LIMIT}.`);

/** What the read tools share: the options, gh's `--repo` arguments, and the reply that saves long output to a file. */
interface GitHubReader {
  readonly options: ResolvedGitHubToolsOptions;
  readonly repoArgs: readonly string[];
  reply(text: string, data: unknown, name: string): Promise<ToolOutput>;
}

/** `gh_list_issues`, `gh_view_issue`, `gh_list_prs`, `gh_view_pr` and `gh_diff`: kind `fetch`, no approval. */
export function createGitHubReadTools(options: ResolvedGitHubToolsOptions) {
  const repoArgs = options.repo === undefined ? [] : ['--repo', options.repo];
  const reply = async (text: string, data: unknown, name: string): Promise<ToolOutput> => {
    const limited = await limitOutput(options.workspace, text, options.maxOutputCharacters, name);
    return { text: limited.text, data: limited.savedTo === undefined ? data : { ...(data as object), savedTo: limited.savedTo } };
  };
  const reader: GitHubReader = { options, repoArgs, reply };
  return [listIssuesTool(reader), viewIssueTool(reader), listPullRequestsTool(reader), viewPullRequestTool(reader), diffTool(reader)];
}

function listIssuesTool({ options, repoArgs, reply }: GitHubReader) {
  return defineTool({
    name: 'gh_list_issues',
    description: GH_LIST_ISSUES_DESCRIPTION,
    kind: 'fetch',
    aliases: gitHubAliases(options.repo).gh_list_issues,
    input: z.object({
      state: z.enum(['open', 'closed', 'all']).optional().describe('Which issues: open (default), closed or all.'),
      label: z.string().min(1).optional().describe('Only issues with this label, e.g. "bug".'),
      limit: limitField,
    }),
    async execute({ state = 'open', label, limit = DEFAULT_GH_LIST_LIMIT }, { signal }) {
      const args = ['issue', 'list', '--state', state, '--limit', String(limit), ...(label === undefined ? [] : [`--label=${label}`]), '--json', ISSUE_LIST_FIELDS, ...repoArgs];
      const issues = parseGhJson<GhIssueSummary[]>(await runGh(options, args, { signal, shown: 'gh issue list' }), 'gh issue list');
      return reply(renderIssueList(issues, { state, label, limit }), { issues }, 'gh-issue-list');
    },
  });
}

function viewIssueTool({ options, repoArgs, reply }: GitHubReader) {
  return defineTool({
    name: 'gh_view_issue',
    description: GH_VIEW_ISSUE_DESCRIPTION,
    kind: 'fetch',
    aliases: gitHubAliases(options.repo).gh_view_issue,
    input: z.object({ number: numberField('issue') }),
    async execute({ number }, { signal }) {
      const shown = `gh issue view ${number}`;
      const args = ['issue', 'view', String(number), '--json', ISSUE_VIEW_FIELDS, ...repoArgs];
      const issue = parseGhJson<GhIssue>(await runGh(options, args, { signal, shown }), shown);
      return reply(renderIssue(issue), { issue }, `gh-issue-${number}`);
    },
  });
}

function listPullRequestsTool({ options, repoArgs, reply }: GitHubReader) {
  return defineTool({
    name: 'gh_list_prs',
    description: GH_LIST_PRS_DESCRIPTION,
    kind: 'fetch',
    aliases: gitHubAliases(options.repo).gh_list_prs,
    input: z.object({
      state: z.enum(['open', 'closed', 'merged', 'all']).optional().describe('Which pull requests: open (default), closed, merged or all.'),
      limit: limitField,
    }),
    async execute({ state = 'open', limit = DEFAULT_GH_LIST_LIMIT }, { signal }) {
      const args = ['pr', 'list', '--state', state, '--limit', String(limit), '--json', PR_LIST_FIELDS, ...repoArgs];
      const prs = parseGhJson<GhPullRequestSummary[]>(await runGh(options, args, { signal, shown: 'gh pr list' }), 'gh pr list');
      return reply(renderPullRequestList(prs, { state, limit }), { pullRequests: prs }, 'gh-pr-list');
    },
  });
}

function viewPullRequestTool({ options, repoArgs, reply }: GitHubReader) {
  return defineTool({
    name: 'gh_view_pr',
    description: GH_VIEW_PR_DESCRIPTION,
    kind: 'fetch',
    aliases: gitHubAliases(options.repo).gh_view_pr,
    input: z.object({ number: numberField('pull request') }),
    async execute({ number }, { signal }) {
      const shown = `gh pr view ${number}`;
      const args = ['pr', 'view', String(number), '--json', PR_VIEW_FIELDS, ...repoArgs];
      const pullRequest = parseGhJson<GhPullRequest>(await runGh(options, args, { signal, shown }), shown);
      // Comments on lines of the diff are only in the REST API.
      let reviewComments: GhReviewComment[] | string;
      try {
        const apiShown = `gh api …/pulls/${number}/comments`;
        reviewComments = parseGhJson<GhReviewComment[]>(await runGh(options, reviewCommentsArgs(options.repo, number), { signal, shown: apiShown }), apiShown);
      } catch (error) {
        if (signal.aborted) throw error;
        reviewComments = errorResult('gh_view_pr', error).text;
      }
      return reply(renderPullRequest(pullRequest, reviewComments), { pullRequest, reviewComments }, `gh-pr-${number}`);
    },
  });
}

function diffTool({ options, repoArgs, reply }: GitHubReader) {
  return defineTool({
    name: 'gh_diff',
    description: GH_DIFF_DESCRIPTION,
    kind: 'fetch',
    aliases: gitHubAliases(options.repo).gh_diff,
    input: z.object({ number: numberField('pull request') }),
    async execute({ number }, { signal }) {
      const shown = `gh pr diff ${number}`;
      const text = await runGh(options, ['pr', 'diff', String(number), '--color=never', ...repoArgs], { signal, shown });
      if (text.trim() === '') return { text: `Pull request #${number} has no changes.`, data: { number, diff: '' } };
      return reply(text, { number }, `gh-pr-${number}-diff`);
    },
  });
}

/** `gh api` arguments for a pull request's line comments; `{owner}/{repo}` is gh's own placeholder for the current repository. */
export function reviewCommentsArgs(repo: string | undefined, number: number): string[] {
  if (repo === undefined) return ['api', `repos/{owner}/{repo}/pulls/${number}/comments?per_page=100`];
  const parts = repo.split('/');
  const [ownerAndName, host] = parts.length === 3 ? [parts.slice(1).join('/'), parts[0]!] : [repo, undefined];
  return ['api', `repos/${ownerAndName}/pulls/${number}/comments?per_page=100`, ...(host === undefined ? [] : ['--hostname', host])];
}
