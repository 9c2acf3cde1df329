import * as path from 'node:path';
import { ToolError } from '../../errors/tool-error.js';
import type { Workspace } from '../../workspace/workspace.js';
import { parseSkillFile, type SkillFile } from './skill-file.js';

/** A `SKILL.md` larger than this is not read: a skill's body is meant to fit in a prompt. */
export const MAX_SKILL_FILE_BYTES = 1_000_000;
/** Skill folders looked at in all, so a huge folder cannot stall the start. */
export const MAX_SKILL_FOLDERS = 1_000;

/** A skill that can be loaded. */
export interface DiscoveredSkill {
  readonly name: string;
  readonly description: string;
  /** The skill's folder, relative to the workspace root, canonical (links resolved). */
  readonly folder: string;
}

/** A folder that looked like a skill but cannot be loaded, and why. */
export interface SkippedSkill {
  /** Relative to the workspace root, as it was found. */
  readonly where: string;
  readonly problem: string;
}

/** A skill that was loaded although its `SKILL.md` has a fault its author should fix. */
export interface SkillWarning {
  /** The `SKILL.md`, relative to the workspace root. */
  readonly where: string;
  /** What is wrong and the fix, e.g. the value to put in quotes. */
  readonly warning: string;
}

/** What discovery found: loadable skills sorted by name, and what was skipped. */
export interface SkillCatalog {
  readonly skills: readonly DiscoveredSkill[];
  readonly skipped: readonly SkippedSkill[];
  /** Skills loaded with a fault in their `SKILL.md` (front matter read line by line), in the order found. */
  readonly warnings: readonly SkillWarning[];
  /** Folders that were not looked at because of {@link MAX_SKILL_FOLDERS}. */
  readonly unscanned: number;
}

/**
 * Finds the skills in `folders` (each sub-folder with a `SKILL.md`), every path through the
 * workspace's jail: a folder or `SKILL.md` that is a link out of the workspace is skipped
 * with the jail's message. Folders without a `SKILL.md` are not skills and are passed over
 * quietly. Never throws for what it finds; only a broken workspace does.
 */
export async function discoverSkills(workspace: Workspace, folders: readonly string[]): Promise<SkillCatalog> {
  const byName = new Map<string, DiscoveredSkill>();
  const skipped: SkippedSkill[] = [];
  const warnings: SkillWarning[] = [];
  const seen = new Set<string>();
  let looked = 0;
  let unscanned = 0;

  for (const folder of folders) {
    const root = await jailed(workspace, folder, skipped);
    if (root === undefined || !(await workspace.statOrUndefined(root.absolute))?.isDirectory()) continue;
    const entries = (await workspace.list(root.absolute))
      .filter((entry) => !entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink()))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (looked >= MAX_SKILL_FOLDERS) {
        unscanned += 1;
        continue;
      }
      looked += 1;
      const where = path.posix.join(root.relative, entry.name);
      const read = await readSkill(workspace, where, entry.name, skipped);
      if (read === undefined || seen.has(read.skill.folder)) continue;
      const found = read.skill;
      seen.add(found.folder);
      const earlier = byName.get(found.name);
      if (earlier !== undefined) {
        skipped.push({ where, problem: `its name \`${found.name}\` is also the name of \`${earlier.folder}\`, which is the one loaded; rename one of them` });
        continue;
      }
      byName.set(found.name, found);
      if (read.warning !== undefined) warnings.push({ where: `${where}/SKILL.md`, warning: read.warning });
    }
  }
  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, skipped, warnings, unscanned };
}

/** Reads and checks one skill folder's `SKILL.md`, with its warning if any; `undefined` when it is not a skill or cannot be loaded. */
async function readSkill(
  workspace: Workspace,
  where: string,
  folderName: string,
  skipped: SkippedSkill[],
): Promise<{ skill: DiscoveredSkill; warning?: string } | undefined> {
  const folder = await jailed(workspace, where, skipped);
  if (folder === undefined || !(await workspace.statOrUndefined(folder.absolute))?.isDirectory()) return undefined;
  const loaded = await loadSkillFile(workspace, folder.relative, folderName);
  if (loaded === undefined) return undefined;
  if ('problem' in loaded) {
    skipped.push({ where: `${where}/SKILL.md`, problem: loaded.problem });
    return undefined;
  }
  const skill = { name: loaded.name, description: loaded.description, folder: folder.relative };
  return loaded.warning === undefined ? { skill } : { skill, warning: loaded.warning };
}

/**
 * The `SKILL.md` of a skill folder, parsed; `undefined` when there is none, or the reason it
 * cannot be loaded. `load_skill` calls it again, so a file changed since the start is read fresh.
 */
export async function loadSkillFile(workspace: Workspace, folder: string, folderName: string): Promise<SkillFile | { problem: string } | undefined> {
  let file;
  try {
    file = await workspace.resolve(`${folder}/SKILL.md`);
  } catch (error) {
    if (error instanceof ToolError) return { problem: error.message };
    throw error;
  }
  if (!file.exists) return undefined;
  const stats = await workspace.statOrUndefined(file.absolute);
  if (stats === undefined) return undefined;
  if (!stats.isFile()) return { problem: 'it is not a regular file' };
  if (stats.size > MAX_SKILL_FILE_BYTES) {
    return { problem: `it is ${stats.size.toLocaleString('en-US')} bytes, over the ${MAX_SKILL_FILE_BYTES.toLocaleString('en-US')} bytes a SKILL.md may have; move detail into files beside it` };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await workspace.readFile(file.absolute));
  } catch (error) {
    if (error instanceof TypeError) return { problem: 'it is not UTF-8 text' };
    throw error;
  }
  return parseSkillFile(text, folderName);
}

/** The path through the jail, or `undefined` with the refusal recorded. */
async function jailed(workspace: Workspace, where: string, skipped: SkippedSkill[]) {
  try {
    return await workspace.resolve(where);
  } catch (error) {
    if (error instanceof ToolError) {
      skipped.push({ where, problem: error.message });
      return undefined;
    }
    throw error;
  }
}
