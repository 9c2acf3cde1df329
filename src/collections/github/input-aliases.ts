/**
 * @module The GitHub tools' alias tables: the names the GitHub MCP server and others give the
 * same fields (`issue_number`, `pullNumber`, `labels`, `perPage`), and `owner`/`repo`, which
 * have no place here (the host picks the repository) and are refused with the call to send.
 * The core applies the tables to every call.
 */
import type { InputAliases } from '../../model-inputs/aliases.js';

/** `owner` and `repo`: the repository is the host's choice, not the call's. */
function repositoryAliases(repo: string | undefined): InputAliases {
  const which = repo === undefined ? "the repository of the workspace's git remote" : `the repository ${repo}`;
  const refuse = (key: string) => ({ refuse: `The GitHub tools work on ${which}, chosen by the host: send the call without \`${key}\`` });
  return { owner: refuse('owner'), repo: refuse('repo'), repository: refuse('repository') };
}

const ISSUE_NUMBER: InputAliases = { issue_number: 'number', issueNumber: 'number', issue: 'number' };
const PULL_NUMBER: InputAliases = { pull_number: 'number', pullNumber: 'number', pr_number: 'number', prNumber: 'number', pr: 'number' };

/** One label, from a list of one (the GitHub MCP server's `labels`). */
const ONE_LABEL = {
  to: 'label',
  convert: (value: unknown) => {
    const labels = typeof value === 'string' ? [value] : value;
    if (Array.isArray(labels) && labels.length === 1 && typeof labels[0] === 'string') return labels[0];
    throw new TypeError('`label` with one label, such as "bug" (gh_list_issues filters by one label: call it once per label)');
  },
};

type GitHubToolName = 'gh_list_issues' | 'gh_view_issue' | 'gh_list_prs' | 'gh_view_pr' | 'gh_diff' | 'gh_create_pr' | 'gh_comment';

/** The tables, by tool name, for a collection working on `repo` (or the workspace's repository). */
export function gitHubAliases(repo: string | undefined): Readonly<Record<GitHubToolName, InputAliases>> {
  const repository = repositoryAliases(repo);
  const paging = {
    per_page: 'limit',
    perPage: 'limit',
    page: { refuse: 'The list tools show the newest items and have no pages: send the call without `page`, with a larger `limit` (at most 100)' },
  };
  return {
    gh_list_issues: { ...repository, ...paging, labels: ONE_LABEL },
    gh_view_issue: { ...repository, ...ISSUE_NUMBER },
    gh_list_prs: { ...repository, ...paging },
    gh_view_pr: { ...repository, ...PULL_NUMBER },
    gh_diff: { ...repository, ...PULL_NUMBER },
    gh_create_pr: { ...repository, description: 'body', head_branch: 'head', base_branch: 'base', is_draft: 'draft', isDraft: 'draft' },
    gh_comment: { ...repository, ...ISSUE_NUMBER, ...PULL_NUMBER, comment: 'body', text: 'body', message: 'body' },
  };
}
