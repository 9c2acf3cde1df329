import * as path from 'node:path';
import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import { defineTool, type ToolDefinition } from '../../tool.js';
import type { Workspace } from '../../workspace/workspace.js';
import { LOAD_SKILL_DESCRIPTION, SKILL_NAME_DESCRIPTION } from './descriptions.js';
import { loadSkillFile, type DiscoveredSkill } from './discover.js';
import type { ResolvedSkillToolsOptions } from './options.js';
import { traceSkillLoad } from '../../telemetry/skill-span.js';

/** Files of one skill named in a reply; more are counted. */
export const MAX_LISTED_SKILL_FILES = 100;
/** How deep the file list goes into a skill's folder. */
const MAX_FILE_DEPTH = 6;
/** Characters of the names in the answer to an unknown skill name. */
const MAX_NAMES_CHARACTERS = 3_000;

/** What `load_skill` returns as `data`. */
export interface LoadedSkillData {
  readonly name: string;
  readonly description: string;
  /** The skill's folder, relative to the workspace root. */
  readonly folder: string;
  /** Its files other than SKILL.md, relative to the workspace root (what read_file takes). */
  readonly files: readonly string[];
  /** The body was longer than the reply allows and was cut. */
  readonly truncated: boolean;
}

/** `load_skill`: a skill's body and its files, read fresh through the workspace's jail. */
export function createLoadSkillTool(options: ResolvedSkillToolsOptions, skills: readonly DiscoveredSkill[]): ToolDefinition<any> {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  return defineTool({
    name: 'load_skill',
    description: LOAD_SKILL_DESCRIPTION,
    kind: 'read',
    input: z.object({ name: z.string().min(1).describe(SKILL_NAME_DESCRIPTION) }),
    // Claude Code's Skill tool names the skill `skill`, and may pass `args`, which loading has no use for.
    aliases: {
      skill: 'name',
      skill_name: 'name',
      args: { refuse: 'load_skill only loads the skill\'s instructions: send the call without `args`, then follow the instructions with what you meant to pass' },
    },
    async execute({ name }) {
      const skill = byName.get(name.trim()) ?? byName.get(name.trim().toLowerCase());
      if (skill === undefined) return { text: unknownSkillText(name, skills), isError: true };
      const { file, files, more } = await traceSkillLoad(skill, async () => {
        const file = await loadSkillFile(options.workspace, skill.folder, path.posix.basename(skill.folder));
        if (file === undefined) throw new ToolError(`The skill \`${skill.name}\` has no SKILL.md any more (it was in \`${skill.folder}\`). Tell the user; go on without it.`);
        if ('problem' in file) throw new ToolError(`The skill \`${skill.name}\` cannot be loaded now: \`${skill.folder}/SKILL.md\`: ${file.problem}. Tell the user; go on without it.`);
        return { file, ...(await skillFiles(options.workspace, skill.folder)) };
      });

      const header = [`Skill \`${file.name}\` (\`${skill.folder}/SKILL.md\`): ${file.description}`];
      if (file.license !== undefined) header.push(`License: ${file.license}`);
      if (file.compatibility !== undefined) header.push(`Compatibility: ${file.compatibility}`);
      const fileLines =
        files.length === 0
          ? ['This skill has no other files.']
          : [
              'Its files (paths from the workspace root; read them with read_file when the instructions call for them):',
              ...files.map((file) => `- ${file}`),
              ...(more > 0 ? [`- and ${more} more in \`${skill.folder}\` (list them with list_directory)`] : []),
            ];
      const frame = `${header.join('\n')}\n\n\n\n${fileLines.join('\n')}`;
      const room = Math.max(0, options.maxSkillCharacters - frame.length - 200);
      const truncated = file.body.length > room;
      const body = truncated
        ? `${file.body.slice(0, room)}\n\n[The instructions were cut at ${room.toLocaleString('en-US')} of ${file.body.length.toLocaleString('en-US')} characters; read the rest with read_file on \`${skill.folder}/SKILL.md\`.]`
        : file.body.trimEnd();
      const data: LoadedSkillData = { name: file.name, description: file.description, folder: skill.folder, files, truncated };
      return { text: `${header.join('\n')}\n\n${body}\n\n${fileLines.join('\n')}`, data };
    },
  });
}

/** The answer to a name that is not a skill: every name, so the model can pick. */
function unknownSkillText(name: string, skills: readonly DiscoveredSkill[]): string {
  if (skills.length === 0) return `There is no skill named \`${name}\`: no skills are installed. Go on without one.`;
  let names = skills.map((skill) => skill.name).join(', ');
  if (names.length > MAX_NAMES_CHARACTERS) names = `${names.slice(0, names.lastIndexOf(', ', MAX_NAMES_CHARACTERS))}, …`;
  return `There is no skill named \`${name}\`. The ${skills.length} skill${skills.length === 1 ? ' is' : 's are'}: ${names}. Call load_skill with one of these names, or go on without a skill.`;
}

/**
 * The files of a skill folder other than its SKILL.md, breadth first and in name order, at
 * most {@link MAX_LISTED_SKILL_FILES}. Links are followed only to files inside the workspace;
 * linked folders are not entered (no loops, nothing outside).
 */
async function skillFiles(workspace: Workspace, folder: string): Promise<{ files: string[]; more: number }> {
  const files: string[] = [];
  let more = 0;
  const queue: Array<{ relative: string; depth: number }> = [{ relative: folder, depth: 0 }];
  while (queue.length > 0) {
    const { relative, depth } = queue.shift()!;
    const resolved = await workspace.resolve(relative).catch(() => undefined);
    if (resolved === undefined) continue;
    const entries = await workspace.list(resolved.absolute).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const child = path.posix.join(relative, entry.name);
      if (depth === 0 && entry.name === 'SKILL.md') continue;
      if (entry.isDirectory()) {
        if (entry.name !== '.git' && depth + 1 < MAX_FILE_DEPTH) queue.push({ relative: child, depth: depth + 1 });
        continue;
      }
      if (entry.isSymbolicLink()) {
        const target = await workspace.resolve(child).catch(() => undefined);
        const stats = target === undefined ? undefined : await workspace.statOrUndefined(target.absolute);
        if (stats === undefined || !stats.isFile()) continue;
      } else if (!entry.isFile()) continue;
      if (files.length < MAX_LISTED_SKILL_FILES) files.push(child);
      else more += 1;
    }
  }
  return { files, more };
}
