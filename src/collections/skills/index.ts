import type { ToolCollection } from '../../tool.js';
import { discoverSkills, type SkillCatalog } from './discover.js';
import { skillListing } from './listing.js';
import { createLoadSkillTool } from './load-skill.js';
import { resolveSkillToolsOptions, type SkillToolsOptions } from './options.js';

/** The skills collection, with what discovery found. */
export interface SkillCollection extends ToolCollection {
  /** The skills found and the folders skipped, as the listing shows them. */
  readonly catalog: SkillCatalog;
}

/**
 * Skills in the Agent Skills format (a folder with a `SKILL.md` whose YAML front matter has
 * `name` and `description`, plus any files the skill needs), found under the workspace's
 * `.agents/skills`, `.claude/skills` and `skills` folders (or the `folders` given). The
 * collection's `instructions` list each skill in one short line within a character budget;
 * `load_skill` returns a skill's instructions and its files' paths for `read_file`. A
 * malformed `SKILL.md`, a name used twice and a folder that links out of the workspace are
 * reported in the listing, never thrown. Discovery runs once, here, so the prompt stays the
 * same for the whole conversation; `load_skill` reads the file fresh each time.
 *
 * @throws {TypeError} for a wrong option, naming it.
 *
 * @example
 * const skills = await createSkillTools({ workspace });
 * const belt = toAiSdk([files, skills], { session });
 */
export async function createSkillTools(options: SkillToolsOptions): Promise<SkillCollection> {
  const resolved = resolveSkillToolsOptions(options);
  const catalog = await discoverSkills(resolved.workspace, resolved.folders);
  return {
    name: 'skills',
    tools: [createLoadSkillTool(resolved, catalog.skills)],
    instructions: skillListing(catalog, resolved.folders, resolved.maxListingCharacters),
    catalog,
  };
}

export type { DiscoveredSkill, SkillCatalog, SkillWarning, SkippedSkill } from './discover.js';
export type { LoadedSkillData } from './load-skill.js';
export type { SkillToolsOptions } from './options.js';
