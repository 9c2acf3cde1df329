import { describe, expect, it } from 'vitest';
import { createSession, createSkillTools, runTool } from '../../index.js';
import { skillText, skillWorkspace, writeSkill } from './test-support/skill-folders.js';

describe('load_skill called as Claude Code’s Skill tool', () => {
  it('reads `skill` as `name`, and refuses `args` with what to send', async () => {
    const workspace = await skillWorkspace();
    await writeSkill(workspace, 'skills', 'release-notes', skillText('release-notes', 'Write release notes from the git log.'));
    const [loadSkill] = (await createSkillTools({ workspace })).tools;
    const loaded = await runTool(loadSkill!, { skill: 'release-notes' }, { session: createSession() });
    expect(loaded.isError).toBe(false);
    expect(loaded.text).toMatch(/^Skill `release-notes`/);
    expect(loaded.text).toContain('(Read `skill` as `name`: send the fields by these names next time.)');
    const withArgs = await runTool(loadSkill!, { skill: 'release-notes', args: 'v2.0' }, { session: createSession() });
    expect(withArgs.text).toMatch(/^load_skill only loads the skill's instructions: send the call without `args`/);
  });
});
