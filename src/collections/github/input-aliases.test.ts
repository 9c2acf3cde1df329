import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import { Workspace } from '../../workspace/workspace.js';
import { createGitHubTools, type GitHubToolsOptions } from './index.js';

const fakeGh = fileURLToPath(new URL('../../../fixtures/gh/gh', import.meta.url));

let base: string;
let workspace: Workspace;
let log: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolbelt-gh-aliases-')));
  await mkdir(path.join(base, 'repo'));
  workspace = new Workspace(path.join(base, 'repo'));
  log = path.join(base, 'gh-calls.jsonl');
  const wrapper = path.join(base, 'gh');
  await writeFile(wrapper, `#!/bin/sh\nexport FAKE_GH_LOG='${log}'\nexec '${fakeGh}' "$@"\n`);
  await chmod(wrapper, 0o755);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function tools(options: Partial<GitHubToolsOptions> = {}) {
  const byName = new Map(createGitHubTools({ workspace, gh: path.join(base, 'gh'), ...options }).tools.map((tool) => [tool.name, tool]));
  return (name: string, input: unknown) => runTool(byName.get(name)!, input, { session: createSession(), mode: 'auto' });
}

/** The arguments of every gh call so far. */
async function argvs(): Promise<string[][]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { argv: string[] }).argv);
}

describe('the GitHub tools with the GitHub MCP server’s field names', () => {
  it('reads `issue_number`, `pullNumber`, `labels` of one and `perPage`', async () => {
    const call = tools();
    expect((await call('gh_view_issue', { issue_number: 12 })).isError).toBe(false);
    expect((await call('gh_diff', { pullNumber: 42 })).isError).toBe(false);
    expect((await call('gh_list_issues', { labels: ['bug'], perPage: 5 })).isError).toBe(false);
    const [view, diff, list] = await argvs();
    expect(view!.slice(0, 3)).toEqual(['issue', 'view', '12']);
    expect(diff!.slice(0, 3)).toEqual(['pr', 'diff', '42']);
    expect(list).toContain('--label=bug');
    expect(list!.slice(list!.indexOf('--limit'), list!.indexOf('--limit') + 2)).toEqual(['--limit', '5']);
  });

  it('posts a comment sent as `comment`, not dropping it as a remark', async () => {
    const call = tools();
    const result = await call('gh_comment', { issue_number: 12, comment: 'Fixed in #43.' });
    expect(result.text).toMatch(/^Commented on #12: /);
    expect(await argvs()).toEqual([['issue', 'comment', '12', '--body=Fixed in #43.']]);
  });

  it('refuses `owner`/`repo`, naming the repository the host chose, and several labels, running no gh', async () => {
    const call = tools({ repo: 'acme/widgets' });
    expect((await call('gh_view_pr', { owner: 'acme', repo: 'widgets', pullNumber: 42 })).text).toMatch(
      /^The GitHub tools work on the repository acme\/widgets, chosen by the host: send the call without `owner`\. The GitHub tools work on the repository acme\/widgets, chosen by the host: send the call without `repo`\. Nothing was run\./,
    );
    expect((await call('gh_list_issues', { labels: ['bug', 'parser'] })).text).toMatch(
      /^You sent `labels`, which stands for `label` but could not be read as it: send `label` with one label, such as "bug" \(gh_list_issues filters by one label: call it once per label\)/,
    );
    expect(await argvs()).toEqual([]);
  });
});
