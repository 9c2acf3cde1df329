import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReadOnlyFileTools, createSession, createSkillTools, runTool, type LoadedSkillData, type SkillCollection } from '../../index.js';
import { skillText, skillWorkspace, writeSkill } from './test-support/skill-folders.js';

const loadSkill = (collection: SkillCollection, name: string) => runTool(collection.tools[0]!, { name }, { session: createSession() });

describe('createSkillTools: discovery', () => {
  it('finds skills in .agents/skills, .claude/skills and skills, lists them by name, and loads one with its files', async () => {
    const workspace = await skillWorkspace();
    await writeSkill(workspace, '.agents/skills', 'pdf-processing', skillText('pdf-processing', 'Extract text and tables from PDF files. Use when the user mentions PDFs.'), {
      'scripts/extract.py': 'print("extract")\n',
      'references/forms.md': '# Forms\n',
    });
    await writeSkill(workspace, '.claude/skills', 'code-review', skillText('code-review', 'Review a change for bugs and style.'));
    await writeSkill(workspace, 'skills', 'release-notes', skillText('release-notes', 'Write release notes from the git log.'));
    // A folder without SKILL.md is not a skill, and says nothing.
    await mkdir(path.join(workspace.root, 'skills', 'helpers'), { recursive: true });

    const skills = await createSkillTools({ workspace });
    expect(skills.name).toBe('skills');
    expect(skills.tools.map((tool) => tool.name)).toEqual(['load_skill']);
    expect(skills.catalog.skills.map((skill) => [skill.name, skill.folder])).toEqual([
      ['code-review', '.claude/skills/code-review'],
      ['pdf-processing', '.agents/skills/pdf-processing'],
      ['release-notes', 'skills/release-notes'],
    ]);
    expect(skills.instructions).toContain('call load_skill with its name');
    expect(skills.instructions).toContain('\n- code-review: Review a change for bugs and style.\n- pdf-processing: Extract text and tables from PDF files. Use when the user mentions PDFs.\n- release-notes: ');
    expect(skills.instructions).not.toContain('helpers');
    expect(skills.catalog.skipped).toEqual([]);

    const result = await loadSkill(skills, 'pdf-processing');
    expect(result.isError).toBe(false);
    expect(result.text).toContain('Skill `pdf-processing` (`.agents/skills/pdf-processing/SKILL.md`): Extract text and tables');
    expect(result.text).toContain('# pdf-processing\n\nDo the pdf-processing thing step by step.');
    expect(result.text).not.toContain('name: pdf-processing');
    const data = result.data as LoadedSkillData;
    expect(data.files).toEqual(['.agents/skills/pdf-processing/references/forms.md', '.agents/skills/pdf-processing/scripts/extract.py']);
    expect(data.truncated).toBe(false);
    // The paths are what read_file takes.
    const readFile = createReadOnlyFileTools({ workspace }).tools.find((tool) => tool.name === 'read_file')!;
    const read = await runTool(readFile, { path: data.files[1] }, { session: createSession() });
    expect(read.text).toContain('print("extract")');
  });

  it('looks only in the folders given, and lists none when there are none', async () => {
    const workspace = await skillWorkspace();
    await writeSkill(workspace, 'skills', 'ignored', skillText('ignored', 'Not in the folders asked for.'));
    await writeSkill(workspace, 'team/skills', 'deploy', skillText('deploy', 'Deploy the app.'));
    const skills = await createSkillTools({ workspace, folders: ['team/skills', 'missing'] });
    expect(skills.catalog.skills.map((skill) => skill.name)).toEqual(['deploy']);

    const none = await createSkillTools({ workspace, folders: ['missing'] });
    expect(none.instructions).toContain('No skills were found in `missing`.');
    const answer = await loadSkill(none, 'deploy');
    expect(answer).toMatchObject({ isError: true, text: 'There is no skill named `deploy`: no skills are installed. Go on without one.' });
  });

  it('answers an unknown name with every skill name', async () => {
    const workspace = await skillWorkspace();
    await writeSkill(workspace, 'skills', 'alpha', skillText('alpha', 'A.'));
    await writeSkill(workspace, 'skills', 'beta', skillText('beta', 'B.'));
    const answer = await loadSkill(await createSkillTools({ workspace }), 'gamma');
    expect(answer).toEqual({ isError: true, text: 'There is no skill named `gamma`. The 2 skills are: alpha, beta. Call load_skill with one of these names, or go on without a skill.' });
  });

  it('reads SKILL.md again at each load, and cuts a long body saying how to read the rest', async () => {
    const workspace = await skillWorkspace();
    const folder = await writeSkill(workspace, 'skills', 'long', skillText('long', 'Long.'));
    const skills = await createSkillTools({ workspace, maxSkillCharacters: 2_000 });
    await writeFile(path.join(folder, 'SKILL.md'), skillText('long', 'Long.', `${'step\n'.repeat(1_000)}`));
    const result = await loadSkill(skills, 'long');
    expect(result.text.length).toBeLessThanOrEqual(2_000);
    expect(result.text).toContain('[The instructions were cut at');
    expect(result.text).toContain('read the rest with read_file on `skills/long/SKILL.md`');
    expect((result.data as LoadedSkillData).truncated).toBe(true);
  });
});

describe('createSkillTools: the listing budget', () => {
  it('keeps the listing of 100 skills within its budget: a short line each while they fit, then names, saying how many were left out', async () => {
    const workspace = await skillWorkspace();
    for (let index = 0; index < 100; index += 1) {
      const name = `skill-${String(index).padStart(3, '0')}`;
      await writeSkill(workspace, 'skills', name, skillText(name, `Handles case ${index}. ${'Use it when the task needs this exact procedure. '.repeat(8)}`));
    }
    for (const budget of [8_000, 4_000, 1_500]) {
      const skills = await createSkillTools({ workspace, maxListingCharacters: budget });
      const instructions = skills.instructions!;
      expect(instructions.length).toBeLessThanOrEqual(budget);
      const lines = instructions.split('\n').filter((line) => line.startsWith('- skill-'));
      // Descriptions share the room, so many skills get a line, each shortened after a whole word.
      expect(lines.length).toBeGreaterThanOrEqual({ 8_000: 95, 4_000: 45, 1_500: 6 }[budget]!);
      expect(lines.every((line) => line.length <= 220)).toBe(true);
      expect(lines[0]!).toMatch(/^- skill-000: 0\. Use it when the task needs this exact[\w. ]*…$/);
      const named = /^More skills, named only[^:]*: (.*)\.$/m.exec(instructions)?.[1]?.split(', ') ?? [];
      const left = Number(/(\d+) more skills? (?:is|are) not listed here/.exec(instructions)?.[1] ?? 0);
      expect(lines.length + named.length + left).toBe(100);
      // Every skill still loads, listed or not.
      expect((await loadSkill(skills, 'skill-099')).isError).toBe(false);
    }
  });

  it('gives the same listing from run to run', async () => {
    const workspace = await skillWorkspace();
    for (const name of ['zeta', 'alpha', 'mid']) await writeSkill(workspace, 'skills', name, skillText(name, `${name} skill.`));
    const first = await createSkillTools({ workspace });
    const second = await createSkillTools({ workspace });
    expect(first.instructions).toBe(second.instructions);
    expect(first.catalog.skills.map((skill) => skill.name)).toEqual(['alpha', 'mid', 'zeta']);
  });
});

describe('createSkillTools: malformed, duplicate and escaping skills', () => {
  it('reports each malformed SKILL.md in the listing and loads the rest', async () => {
    const workspace = await skillWorkspace();
    await writeSkill(workspace, 'skills', 'good', skillText('good', 'Works.'));
    await writeSkill(workspace, 'skills', 'no-front-matter', '# Just markdown\n');
    await writeSkill(workspace, 'skills', 'bad-yaml', '---\nname: bad-yaml\ndescription: [unclosed\n---\nbody\n');
    await writeSkill(workspace, 'skills', 'unclosed', '---\nname: unclosed\ndescription: x\n');
    await writeSkill(workspace, 'skills', 'no-name', '---\ndescription: Has no name.\n---\n');
    await writeSkill(workspace, 'skills', 'Upper-Case', skillText('Upper-Case', 'Wrong case.'));
    await writeSkill(workspace, 'skills', 'double--hyphen', skillText('double--hyphen', 'Two hyphens.'));
    await writeSkill(workspace, 'skills', 'other-folder', skillText('not-the-folder', 'Mismatch.'));
    await writeSkill(workspace, 'skills', 'no-description', '---\nname: no-description\n---\n');
    await writeSkill(workspace, 'skills', 'long-description', skillText('long-description', 'x'.repeat(1_025)));
    await writeSkill(workspace, 'skills', 'list-front', '---\n- a\n- b\n---\n');
    const binary = await writeSkill(workspace, 'skills', 'latin1', '');
    await writeFile(path.join(binary, 'SKILL.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0xff, 0x0a]));

    const skills = await createSkillTools({ workspace });
    expect(skills.catalog.skills.map((skill) => skill.name)).toEqual(['good']);
    const problems = Object.fromEntries(skills.catalog.skipped.map((skipped) => [skipped.where, skipped.problem]));
    expect(problems).toEqual({
      'skills/Upper-Case/SKILL.md': 'its `name` `Upper-Case` is not lowercase letters, digits and single hyphens (not at the start or end)',
      'skills/bad-yaml/SKILL.md': expect.stringMatching(/^its front matter is not valid YAML \(.+\)$/),
      'skills/double--hyphen/SKILL.md': 'its `name` `double--hyphen` is not lowercase letters, digits and single hyphens (not at the start or end)',
      'skills/latin1/SKILL.md': 'it is not UTF-8 text',
      'skills/list-front/SKILL.md': 'its front matter is not a set of `key: value` fields',
      'skills/long-description/SKILL.md': 'its `description` is 1,025 characters long; the most is 1,024',
      'skills/no-description/SKILL.md': 'its front matter has no `description`',
      'skills/no-front-matter/SKILL.md': 'it does not start with YAML front matter (a `---` line, `name:` and `description:`, another `---` line)',
      'skills/no-name/SKILL.md': 'its front matter has no `name`',
      'skills/other-folder/SKILL.md': "its `name` `not-the-folder` differs from its folder's name `other-folder`; the two must match",
      'skills/unclosed/SKILL.md': 'its front matter has no closing `---` line',
    });
    expect(skills.instructions).toContain('These skills could not be loaded (tell the user if one of them is needed):');
    expect(skills.instructions).toContain('- `skills/no-name/SKILL.md`: its front matter has no `name`');
    expect((await loadSkill(skills, 'bad-yaml')).isError).toBe(true);
  });

  it('keeps names unique: the earlier folder wins and the listing names both', async () => {
    const workspace = await skillWorkspace();
    await writeSkill(workspace, '.agents/skills', 'deploy', skillText('deploy', 'Deploy, the team version.'));
    await writeSkill(workspace, 'skills', 'deploy', skillText('deploy', 'Deploy, the old version.'));
    const skills = await createSkillTools({ workspace });
    expect(skills.catalog.skills).toEqual([{ name: 'deploy', description: 'Deploy, the team version.', folder: '.agents/skills/deploy' }]);
    expect(skills.instructions).toContain('- `skills/deploy`: its name `deploy` is also the name of `.agents/skills/deploy`, which is the one loaded; rename one of them');
    expect((await loadSkill(skills, 'deploy')).text).toContain('the team version');
  });

  it('counts a folder linked inside the workspace once', async () => {
    const workspace = await skillWorkspace();
    await writeSkill(workspace, '.agents/skills', 'shared', skillText('shared', 'Shared by two agents.'));
    await mkdir(path.join(workspace.root, '.claude/skills'), { recursive: true });
    await symlink('../../.agents/skills/shared', path.join(workspace.root, '.claude/skills/shared'));
    const skills = await createSkillTools({ workspace });
    expect(skills.catalog.skills.map((skill) => skill.folder)).toEqual(['.agents/skills/shared']);
    expect(skills.catalog.skipped).toEqual([]);
  });

  it('refuses a skill folder, a SKILL.md or a skills folder that links out of the workspace', async () => {
    const workspace = await skillWorkspace();
    const outside = await mkdtemp(path.join(tmpdir(), 'toolbelt-skills-outside-'));
    await writeSkill({ root: outside } as never, '.', 'evil', skillText('evil', 'Lives outside.'));
    await writeSkill({ root: outside } as never, '.', 'linked', skillText('linked', 'Lives outside.'));
    await mkdir(path.join(workspace.root, 'skills', 'half'), { recursive: true });
    await symlink(path.join(outside, 'evil'), path.join(workspace.root, 'skills', 'evil'));
    await symlink(path.join(outside, 'linked', 'SKILL.md'), path.join(workspace.root, 'skills', 'half', 'SKILL.md'));
    await mkdir(path.join(workspace.root, '.claude'), { recursive: true });
    await symlink(outside, path.join(workspace.root, '.claude', 'skills'));
    await writeSkill(workspace, 'skills', 'fine', skillText('fine', 'Inside.'));

    const skills = await createSkillTools({ workspace });
    expect(skills.catalog.skills.map((skill) => skill.name)).toEqual(['fine']);
    const where = skills.catalog.skipped.map((skipped) => skipped.where).sort();
    expect(where).toEqual(['.claude/skills', 'skills/evil', 'skills/half/SKILL.md']);
    for (const skipped of skills.catalog.skipped) expect(skipped.problem).toMatch(/outside the workspace|out of the workspace/);
    expect(skills.instructions).not.toContain('Lives outside');
    expect((await loadSkill(skills, 'evil')).isError).toBe(true);
  });
});

describe('createSkillTools: options', () => {
  it('names the option at fault', async () => {
    const workspace = await skillWorkspace();
    await expect(createSkillTools({} as never)).rejects.toThrow('Expected the `workspace` option to be a Workspace, got `undefined` (undefined).');
    await expect(createSkillTools({ workspace, folders: [] })).rejects.toThrow(
      "Expected the `folders` option to be a non-empty array of folder paths relative to the workspace root (such as ['.agents/skills']), got `[]` (array).",
    );
    await expect(createSkillTools({ workspace, maxListingCharacters: 10 })).rejects.toThrow('Expected the `maxListingCharacters` option to be an integer of at least 500, got `10` (number).');
  });
});
