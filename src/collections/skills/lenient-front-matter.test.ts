import { describe, expect, it } from 'vitest';
import { createSession, createSkillTools, runTool } from '../../index.js';
import { readLenientFrontMatter } from './lenient-front-matter.js';
import { parseSkillFile } from './skill-file.js';
import { skillWorkspace, writeSkill } from './test-support/skill-folders.js';

const UNQUOTED = '---\nname: deploy\ndescription: Use this when deploying: checks, then tests, then the release.\nlicense: MIT\n---\n\n# Deploy\n\nRun the checks.\n';

describe('SKILL.md front matter that is not valid YAML', () => {
  it('loads a skill whose description holds an unquoted ": ", lists it, and warns naming the file and the fix', async () => {
    const workspace = await skillWorkspace();
    await writeSkill(workspace, 'skills', 'deploy', UNQUOTED);
    await writeSkill(workspace, 'skills', 'fine', '---\nname: fine\ndescription: "Quoted: as YAML wants it."\n---\nbody\n');

    const skills = await createSkillTools({ workspace });
    expect(skills.catalog.skills).toEqual([
      { name: 'deploy', description: 'Use this when deploying: checks, then tests, then the release.', folder: 'skills/deploy' },
      { name: 'fine', description: 'Quoted: as YAML wants it.', folder: 'skills/fine' },
    ]);
    expect(skills.catalog.skipped).toEqual([]);
    const warning =
      'its front matter is not valid YAML (Nested mappings are not allowed in compact mappings): the value of `description` holds an unquoted `: `. ' +
      'The skill was loaded by reading each line as `key: value`; put the value in double quotes so that YAML readers load it too: ' +
      'description: "Use this when deploying: checks, then tests, then the release."';
    expect(skills.catalog.warnings).toEqual([{ where: 'skills/deploy/SKILL.md', warning }]);
    expect(skills.instructions).toContain('\n- deploy: Use this when deploying: checks, then tests, then the release.\n- fine: Quoted: as YAML wants it.\n');
    expect(skills.instructions).toContain(
      `\nThese skills were loaded, but their SKILL.md has a fault to fix (tell the user if you use one):\n- \`skills/deploy/SKILL.md\`: ${warning.slice(0, 200)}`,
    );

    const loaded = await runTool(skills.tools[0]!, { name: 'deploy' }, { session: createSession() });
    expect(loaded.isError).toBe(false);
    expect(loaded.text).toContain('Skill `deploy` (`skills/deploy/SKILL.md`): Use this when deploying: checks, then tests, then the release.\nLicense: MIT');
    expect(loaded.text).toContain('# Deploy\n\nRun the checks.');
  });

  it('names every unquoted value, and keeps what the valid lines mean in YAML', () => {
    const parsed = parseSkillFile('---\nname: ship\ndescription: Ship it: fast\ncompatibility: Needs git: 2.40 or later\nlicense: "Apache-2.0"\n---\n', 'ship');
    expect(parsed).toMatchObject({ name: 'ship', description: 'Ship it: fast', compatibility: 'Needs git: 2.40 or later', license: 'Apache-2.0' });
    expect((parsed as { warning: string }).warning).toContain('the values of `description` and `compatibility` hold an unquoted `: `');
    expect((parsed as { warning: string }).warning).toContain('put each of them in double quotes');
    expect((parsed as { warning: string }).warning.endsWith('description: "Ship it: fast"')).toBe(true);
  });

  it('shortens a long value in the example of the fix', () => {
    const description = `Use this when: ${'x'.repeat(200)}`;
    const parsed = parseSkillFile(`---\nname: long\ndescription: ${description}\n---\n`, 'long') as { description: string; warning: string };
    expect(parsed.description).toBe(description);
    expect(parsed.warning.endsWith(`description: "${description.slice(0, 119)}…"`)).toBe(true);
  });

  it.each([
    ['a nested field', 'name: a\ndescription: Deploy: now\nmetadata:\n  owner: me'],
    ['an indented continuation', 'name: a\ndescription: Deploy: now\n  and more'],
    ['a list item', 'name: a\ndescription: Deploy: now\n- item'],
    ['an unknown key', 'name: a\ndescription: Deploy: now\nowner: me'],
    ['a repeated key', 'name: a\ndescription: Deploy: now\ndescription: again'],
    ['a quoted value that does not close', 'name: a\ndescription: "Deploy: now'],
    ['a flow list', 'name: a\ndescription: [Deploy: now'],
    ['a block scalar indicator', 'name: a\ndescription: > Deploy: now'],
    ['an alias', 'name: a\ndescription: *Deploy: now'],
    ['" #" (a comment in YAML)', 'name: a\ndescription: Deploy: run step #1 first'],
    ['an empty value', 'name: a\ndescription:\nlicense: Deploy: x'],
    ['a line that is not key: value', 'name: a\ndescription: Deploy: now\njust text'],
  ])('does not guess at %s: the skill stays unloaded with the YAML error', (_what, frontMatter) => {
    expect(readLenientFrontMatter(frontMatter)).toBeUndefined();
    const parsed = parseSkillFile(`---\n${frontMatter}\n---\nbody\n`, 'a');
    expect(parsed).toEqual({ problem: expect.stringMatching(/^its front matter is not valid YAML \(.+\)$/) });
  });

  it('passes over blank lines and comments, and leaves valid YAML to the YAML reader', () => {
    expect(readLenientFrontMatter('# written by hand\nname: a\n\ndescription: Deploy: now\n')).toEqual({ fields: { name: 'a', description: 'Deploy: now' }, unquoted: ['description'] });
    // Every line is valid alone: the fault is elsewhere, and reading line by line would not fix it.
    expect(readLenientFrontMatter('name: a\ndescription: fine')).toBeUndefined();
    expect(parseSkillFile('---\nname: a\ndescription: a #comment: not part of it\n---\n', 'a')).toEqual({ name: 'a', description: 'a', body: '' });
  });
});
