import { describe, expect, it } from 'vitest';
import { skillText, skillWorkspace, writeSkill } from '../../src/collections/skills/test-support/skill-folders.js';
import { createReadOnlyFileTools, createSession, createSkillTools } from '../../src/index.js';
import { aiSdkDriver } from '../conformance/drivers/ai-sdk.js';
import { langChainDriver } from '../conformance/drivers/langchain.js';
import { mcpDriver } from '../conformance/drivers/mcp.js';
import { openAiDriver } from '../conformance/drivers/openai.js';
import { toAnthropic } from '../../adapters/anthropic/index.js';

/** load_skill, then read_file on a file it listed, through every adapter's real framework. */
describe.each([aiSdkDriver, langChainDriver, openAiDriver, mcpDriver].map((driver) => driver('callback')))('skills through $name', (driver) => {
  it('loads a skill and reads one of its files; the listing reaches the prompt', async () => {
    const workspace = await skillWorkspace();
    await writeSkill(workspace, '.agents/skills', 'release-notes', skillText('release-notes', 'Write release notes from the git log.', '# Release notes\n\nGroup the changes by kind; see the template.\n'), {
      'template.md': '## Added\n## Fixed\n',
    });
    const skills = await createSkillTools({ workspace });
    const files = createReadOnlyFileTools({ workspace });
    const view = await driver.run({
      collections: [files, skills],
      session: createSession(),
      turns: [[{ tool: 'load_skill', input: { name: 'release-notes' } }], [{ tool: 'read_file', input: { path: '.agents/skills/release-notes/template.md' } }], [{ tool: 'load_skill', input: { name: 'nope' } }]],
    });
    const [loaded, read, unknown] = view.results;
    expect(loaded).toMatchObject({ tool: 'load_skill', isError: false });
    expect(loaded!.text).toContain('Group the changes by kind');
    expect(loaded!.text).toContain('- .agents/skills/release-notes/template.md');
    expect(read).toMatchObject({ tool: 'read_file', isError: false });
    expect(read!.text).toContain('## Fixed');
    expect(unknown).toMatchObject({ tool: 'load_skill', isError: true });
    expect(unknown!.text).toContain('The 1 skill is: release-notes.');
    if (driver.hasPrompt) expect(view.lastPrompt!.join('\n')).toContain('- release-notes: Write release notes from the git log.');
  });
});

describe('skills through toAnthropic', () => {
  it('lists the skills in its instructions and answers a load_skill tool use', async () => {
    const workspace = await skillWorkspace();
    await writeSkill(workspace, 'skills', 'triage', skillText('triage', 'Sort new issues by severity.'));
    const belt = toAnthropic([await createSkillTools({ workspace })], { session: createSession() });
    expect(belt.instructions).toContain('- triage: Sort new issues by severity.');
    expect(belt.tools.map((tool) => tool.name)).toContain('load_skill');
    const { content } = await belt.handleToolUses([{ type: 'tool_use', id: 'toolu_1', name: 'load_skill', input: { name: 'triage' } }]);
    expect(content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });
    expect(JSON.stringify(content[0])).toContain('Do the triage thing step by step.');
  });
});
