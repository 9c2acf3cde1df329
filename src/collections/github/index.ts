import type { ToolCollection } from '../../tool.js';
import { GITHUB_INSTRUCTIONS } from './descriptions.js';
import { resolveGitHubToolsOptions, type GitHubToolsOptions } from './options.js';
import { createGitHubReadTools } from './read-tools.js';
import { createGitHubWriteTools } from './write-tools.js';

/**
 * The GitHub collection, through the GitHub CLI (`gh`, installed and logged in by the user):
 * `gh_list_issues`, `gh_view_issue`, `gh_list_prs`, `gh_view_pr` and `gh_diff` read (kind
 * `fetch`, never asking); `gh_create_pr` and `gh_comment` publish in the user's name (kind
 * `other`, asking for approval by default).
 *
 * `gh` runs with its arguments as an array, never through a shell, in the workspace root,
 * standard input closed and prompts off, within `timeoutMs`; `--json` output is rendered as
 * compact text for the model and passed whole as the result's `data`. A reply over
 * `maxOutputCharacters` is cut in the middle and kept whole in `.toolbelt/output/`. A missing
 * `gh`, a logged-out `gh`, a timeout and gh's own errors come back as text that says what to do.
 *
 * @throws {TypeError} when an option is wrong, naming it.
 * @example
 * const github = createGitHubTools({ workspace, repo: 'acme/widgets' });
 */
export function createGitHubTools(options: GitHubToolsOptions): ToolCollection {
  const resolved = resolveGitHubToolsOptions(options);
  return {
    name: 'github',
    tools: [...createGitHubReadTools(resolved), ...createGitHubWriteTools(resolved)],
    instructions: GITHUB_INSTRUCTIONS,
  };
}

export type { GitHubToolsOptions } from './options.js';
