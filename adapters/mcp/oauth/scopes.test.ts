import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectTools,
  createAskUserTools,
  createDateTimeTools,
  createFileTools,
  createGitHubTools,
  createScratchTools,
  createShellTools,
  createSkillTools,
  createTaskListTools,
  withBackground,
  Workspace,
  type ToolCollection,
} from '../../../src/index.js';
import { defaultScopeNeed } from './scopes.js';

let base: string;
let collections: ToolCollection[];

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-scopes-'));
  const workspace = new Workspace(base);
  collections = withBackground(
    [
      createFileTools({ workspace }),
      createShellTools({ workspace }),
      createTaskListTools(),
      createScratchTools({ workspace }),
      createDateTimeTools(),
      createAskUserTools(),
      createGitHubTools({ workspace }),
      await createSkillTools({ workspace }),
    ],
    { tools: ['run_shell'] },
  );
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('the scope each built-in tool needs', () => {
  it('is the one the README table gives', async () => {
    const needs: Record<string, string[]> = { read: [], write: [], shell: [] };
    for (const tool of collectTools(collections).values()) needs[defaultScopeNeed(tool)]!.push(tool.name);
    const readme = (await import('node:fs')).readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const row = (scope: string) => readme.split('\n').find((line) => line.startsWith(`| \`toolbelt:${scope}\` |`))!.split(' | ')[1]!;
    const named = (cell: string) => [...cell.matchAll(/`(\w+)`/g)].map((match) => match[1]!);
    const gitHubReads = needs.read!.filter((name) => name.startsWith('gh_'));
    const dateTools = needs.read!.filter((name) => name.startsWith('get_'));
    expect(gitHubReads.length).toBeGreaterThan(2);
    expect(dateTools).toEqual(['get_date_time_after', 'get_day_of_week', 'get_days_between']);
    expect(named(row('read')).sort()).toEqual(needs.read!.filter((name) => !gitHubReads.includes(name) && !dateTools.includes(name)).sort());
    expect(row('read')).toContain('the date tools');
    expect(row('read')).toContain('the GitHub reads');
    expect(named(row('write')).sort()).toEqual([...needs.write!].sort());
    expect(named(row('shell'))).toEqual(needs.shell);
  });
});
