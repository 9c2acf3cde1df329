/** The text the model reads about skills. */

export const SKILLS_INTRODUCTION =
  "Skills: folders of know-how for particular kinds of task. When a task matches a skill's description, call load_skill with its name before you start, then follow it; read the files it lists with read_file only when its instructions call for them.";

export const LOAD_SKILL_DESCRIPTION =
  "Loads a skill listed in the system prompt: returns its instructions (the body of its SKILL.md) and the paths of the files that come with it, which you read with read_file when the instructions call for them. Load a skill before starting a task it covers; there is no need to load it twice in one conversation.";

export const SKILL_NAME_DESCRIPTION = 'The skill\'s name, exactly as listed (lowercase, with hyphens), e.g. `pdf-processing`.';

export const NO_SKILLS_NOTE = 'No skills were found';

/** The heading of skills whose descriptions share an opening, which their lines leave out. */
export function sharedOpeningHeading(opening: string): string {
  return `Skills whose descriptions begin "${opening}" (each line goes on from there):`;
}

/** Before the names of the skills that did not get a line of their own. */
export const MORE_SKILLS_NAMED = 'More skills, named only to keep this prompt short (load_skill loads them the same way):';

/** Before the skills that were loaded although their SKILL.md has a fault. */
export const WARNINGS_HEADING = 'These skills were loaded, but their SKILL.md has a fault to fix (tell the user if you use one):';
