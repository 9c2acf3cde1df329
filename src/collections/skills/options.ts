import type { Workspace } from '../../workspace/workspace.js';

/** Where skills are looked for when `folders` is left out: the places agents that load skills use. */
export const DEFAULT_SKILL_FOLDERS: readonly string[] = ['.agents/skills', '.claude/skills', 'skills'];
/**
 * Default size of the skill listing in the collection's instructions, about 1,600 tokens. A
 * few dozen skills take less; 100 skills get a line each with enough of their own words to be
 * told apart (measured in `described-lines.ts`), where 4,000 characters gave a line to fewer
 * than half of them.
 */
export const DEFAULT_MAX_SKILL_LISTING_CHARACTERS = 8_000;
/** Default size of one `load_skill` reply. */
export const DEFAULT_MAX_SKILL_CHARACTERS = 30_000;

/** Options of {@link createSkillTools}. */
export interface SkillToolsOptions {
  /** The workspace whose folders hold the skills; every path goes through its jail. */
  readonly workspace: Workspace;
  /**
   * Folders, relative to the workspace root, whose sub-folders are skills (each with a
   * `SKILL.md`). A folder that does not exist is skipped. When two folders hold a skill of
   * the same name, the one in the earlier folder is used and the listing names both.
   * @default ['.agents/skills', '.claude/skills', 'skills']
   */
  readonly folders?: readonly string[];
  /**
   * Characters the listing of skills in `instructions` may take. Skills past it are named
   * without a description, then counted; `load_skill` still loads them by name.
   * @default 8_000
   */
  readonly maxListingCharacters?: number;
  /** Characters of one `load_skill` reply; a longer body is cut, saying how to read the rest. @default 30_000 */
  readonly maxSkillCharacters?: number;
}

/** The options after validation, with defaults applied. */
export interface ResolvedSkillToolsOptions {
  readonly workspace: Workspace;
  readonly folders: readonly string[];
  readonly maxListingCharacters: number;
  readonly maxSkillCharacters: number;
}

/** Checks the options once, when the collection is created; a message names the option at fault. */
export function resolveSkillToolsOptions(options: SkillToolsOptions): ResolvedSkillToolsOptions {
  const workspace = (options as Partial<SkillToolsOptions> | undefined)?.workspace;
  if (typeof workspace !== 'object' || workspace === null || typeof workspace.resolve !== 'function') {
    throw new TypeError(`Expected the \`workspace\` option to be a Workspace, got ${describeValue(workspace)}.`);
  }
  const folders = options.folders ?? DEFAULT_SKILL_FOLDERS;
  if (!Array.isArray(folders) || folders.length === 0 || folders.some((folder) => typeof folder !== 'string' || folder.trim() === '')) {
    throw new TypeError(
      `Expected the \`folders\` option to be a non-empty array of folder paths relative to the workspace root (such as ['.agents/skills']), got ${describeValue(folders)}.`,
    );
  }
  return {
    workspace,
    folders: [...new Set(folders as string[])],
    maxListingCharacters: atLeast('maxListingCharacters', options.maxListingCharacters, DEFAULT_MAX_SKILL_LISTING_CHARACTERS, 500),
    maxSkillCharacters: atLeast('maxSkillCharacters', options.maxSkillCharacters, DEFAULT_MAX_SKILL_CHARACTERS, 1_000),
  };
}

function atLeast(name: string, value: unknown, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw new TypeError(`Expected the \`${name}\` option to be an integer of at least ${minimum.toLocaleString('en-US')}, got ${describeValue(value)}.`);
  }
  return value;
}

function describeValue(value: unknown): string {
  if (value === null) return '`null`';
  if (typeof value === 'string') return `\`${JSON.stringify(value)}\` (string)`;
  if (Array.isArray(value)) return `\`${JSON.stringify(value)}\` (array)`;
  if (typeof value === 'object') return `\`${Object.prototype.toString.call(value)}\` (object)`;
  return `\`${String(value)}\` (${typeof value})`;
}
