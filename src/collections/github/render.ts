/** Compact, readable text for gh's JSON: what the model reads (the JSON itself goes to `data`). */

/** A GitHub account as gh's `--json` output names it. */
export interface GhActor {
  readonly login: string;
}

/** Fields `gh issue list --json` is asked for. */
export const ISSUE_LIST_FIELDS = 'number,title,state,author,labels,updatedAt';
/** Fields `gh issue view --json` is asked for. */
export const ISSUE_VIEW_FIELDS = 'number,title,state,url,author,createdAt,labels,assignees,body,comments';
/** Fields `gh pr list --json` is asked for. */
export const PR_LIST_FIELDS = 'number,title,state,isDraft,author,headRefName,baseRefName,updatedAt';
/** Fields `gh pr view --json` is asked for. */
export const PR_VIEW_FIELDS =
  'number,title,state,isDraft,url,author,createdAt,baseRefName,headRefName,additions,deletions,changedFiles,reviewDecision,body,files,reviews,comments';

export interface GhIssueSummary {
  readonly number: number;
  readonly title: string;
  readonly state: string;
  readonly author?: GhActor | null;
  readonly labels?: readonly { readonly name: string }[];
  readonly updatedAt?: string;
}

export interface GhComment {
  readonly author?: GhActor | null;
  readonly body: string;
  readonly createdAt?: string;
}

export interface GhIssue extends GhIssueSummary {
  readonly url?: string;
  readonly createdAt?: string;
  readonly assignees?: readonly GhActor[];
  readonly body?: string;
  readonly comments?: readonly GhComment[];
}

export interface GhPullRequestSummary {
  readonly number: number;
  readonly title: string;
  readonly state: string;
  readonly isDraft?: boolean;
  readonly author?: GhActor | null;
  readonly headRefName?: string;
  readonly baseRefName?: string;
  readonly updatedAt?: string;
}

export interface GhPullRequest extends GhPullRequestSummary {
  readonly url?: string;
  readonly createdAt?: string;
  readonly additions?: number;
  readonly deletions?: number;
  readonly changedFiles?: number;
  readonly reviewDecision?: string | null;
  readonly body?: string;
  readonly files?: readonly { readonly path: string; readonly additions?: number; readonly deletions?: number }[];
  readonly reviews?: readonly { readonly author?: GhActor | null; readonly state?: string; readonly body?: string; readonly submittedAt?: string }[];
  readonly comments?: readonly GhComment[];
}

/** A line-level review comment, as the REST API (`gh api …/pulls/N/comments`) returns it. */
export interface GhReviewComment {
  readonly user?: GhActor | null;
  readonly path?: string;
  readonly line?: number | null;
  readonly original_line?: number | null;
  readonly body: string;
  readonly created_at?: string;
}

export function renderIssueList(issues: readonly GhIssueSummary[], filter: { state: string; label?: string; limit: number }): string {
  const state = filter.state === 'all' ? '' : `${filter.state} `;
  const labelled = filter.label === undefined ? '' : ` labelled \`${filter.label}\``;
  if (issues.length === 0) return `No ${state}issues${labelled}.`;
  const lines = issues.map((issue) => {
    const labels = issue.labels !== undefined && issue.labels.length > 0 ? ` [${issue.labels.map((label) => label.name).join(', ')}]` : '';
    const state = filter.state === 'open' ? '' : ` (${lower(issue.state)})`;
    return `#${issue.number} ${oneLine(issue.title)}${state}${labels}${by(issue.author)}${updated(issue.updatedAt)}`;
  });
  return `${count(issues.length, `${state}issue`)}${labelled}:\n${lines.join('\n')}${moreHint(issues.length, filter.limit)}`;
}

export function renderIssue(issue: GhIssue): string {
  const details = [
    `opened${by(issue.author)}${on(issue.createdAt)}`,
    list('labels', issue.labels?.map((label) => label.name)),
    list('assignees', issue.assignees?.map((assignee) => `@${assignee.login}`)),
  ].filter((part) => part !== '');
  const comments = issue.comments ?? [];
  return [
    `#${issue.number} ${oneLine(issue.title)} (${lower(issue.state)})`,
    ...(issue.url === undefined ? [] : [issue.url]),
    details.join(' · '),
    '',
    body(issue.body),
    '',
    comments.length === 0 ? 'No comments.' : `${count(comments.length, 'comment')}:\n${comments.map(renderComment).join('\n')}`,
  ].join('\n');
}

export function renderPullRequestList(prs: readonly GhPullRequestSummary[], filter: { state: string; limit: number }): string {
  const what = `${filter.state === 'all' ? '' : `${filter.state} `}pull request`;
  if (prs.length === 0) return `No ${what}s.`;
  const lines = prs.map((pr) => {
    const flags = [filter.state === 'open' ? '' : lower(pr.state), pr.isDraft ? 'draft' : ''].filter((flag) => flag !== '');
    const branches = pr.headRefName === undefined ? '' : ` ${pr.headRefName} → ${pr.baseRefName ?? '?'}`;
    return `#${pr.number} ${oneLine(pr.title)}${flags.length > 0 ? ` (${flags.join(', ')})` : ''}${branches}${by(pr.author)}${updated(pr.updatedAt)}`;
  });
  return `${count(prs.length, what)}:\n${lines.join('\n')}${moreHint(prs.length, filter.limit)}`;
}

export function renderPullRequest(pr: GhPullRequest, reviewComments: readonly GhReviewComment[] | string): string {
  const state = [lower(pr.state), pr.isDraft ? 'draft' : ''].filter((part) => part !== '').join(', ');
  const size =
    pr.additions === undefined ? '' : `+${pr.additions} −${pr.deletions ?? 0} in ${count(pr.changedFiles ?? pr.files?.length ?? 0, 'file')}`;
  const details = [
    `${pr.headRefName ?? '?'} → ${pr.baseRefName ?? '?'}`,
    `opened${by(pr.author)}${on(pr.createdAt)}`,
    size,
    pr.reviewDecision ? `review decision: ${lower(pr.reviewDecision).replace(/_/g, ' ')}` : '',
  ].filter((part) => part !== '');
  const files = pr.files ?? [];
  const reviews = (pr.reviews ?? []).filter((review) => (review.body ?? '').trim() !== '' || review.state !== 'COMMENTED');
  const comments = pr.comments ?? [];
  const sections = [
    `#${pr.number} ${oneLine(pr.title)} (${state})`,
    ...(pr.url === undefined ? [] : [pr.url]),
    details.join(' · '),
    '',
    body(pr.body),
  ];
  if (files.length > 0) {
    sections.push('', `Files (${files.length}):`, ...files.map((file) => `  ${file.path} +${file.additions ?? 0} −${file.deletions ?? 0}`));
  }
  sections.push('', reviews.length === 0 ? 'No reviews.' : `${count(reviews.length, 'review')}:`);
  for (const review of reviews) {
    sections.push(`--- @${review.author?.login ?? 'ghost'} ${lower(review.state ?? '').replace(/_/g, ' ')}${on(review.submittedAt)}:`);
    if ((review.body ?? '').trim() !== '') sections.push(review.body!.trim());
  }
  if (typeof reviewComments === 'string') {
    sections.push('', `Review comments could not be loaded: ${reviewComments}`);
  } else {
    sections.push('', reviewComments.length === 0 ? 'No review comments on lines.' : `${count(reviewComments.length, 'review comment')} on lines:`);
    for (const comment of reviewComments) {
      const line = comment.line ?? comment.original_line;
      const where = comment.path === undefined ? '' : ` on ${comment.path}${line == null ? '' : `:${line}`}`;
      sections.push(`--- @${comment.user?.login ?? 'ghost'}${where}${on(comment.created_at)}:`, comment.body.trim());
    }
  }
  sections.push('', comments.length === 0 ? 'No comments.' : `${count(comments.length, 'comment')}:`);
  sections.push(...comments.map(renderComment));
  return sections.join('\n');
}

function renderComment(comment: GhComment): string {
  return `--- @${comment.author?.login ?? 'ghost'}${on(comment.createdAt)}:\n${comment.body.trim()}`;
}

function body(text: string | undefined): string {
  return text === undefined || text.trim() === '' ? '(no description)' : text.trim();
}

function by(author: GhActor | null | undefined): string {
  return author?.login ? ` by @${author.login}` : '';
}

function on(timestamp: string | undefined): string {
  return timestamp ? ` on ${timestamp.slice(0, 10)}` : '';
}

function updated(timestamp: string | undefined): string {
  return timestamp ? `, updated ${timestamp.slice(0, 10)}` : '';
}

function list(name: string, items: readonly string[] | undefined): string {
  return items !== undefined && items.length > 0 ? `${name}: ${items.join(', ')}` : '';
}

function count(n: number, singular: string): string {
  return `${n} ${singular}${n === 1 ? '' : 's'}`;
}

function moreHint(shown: number, limit: number): string {
  return shown >= limit ? `\nShowing the first ${limit}; there may be more (raise \`limit\`, at most 100).` : '';
}

function lower(state: string): string {
  return state.toLowerCase();
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
