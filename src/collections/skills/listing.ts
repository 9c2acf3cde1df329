import type { SkillCatalog } from './discover.js';
import { NO_SKILLS_NOTE, SKILLS_INTRODUCTION } from './descriptions.js';

/** Characters of one skill's description in the listing: one short line. */
export const MAX_LISTED_DESCRIPTION_CHARACTERS = 200;
/** Descriptions are shortened down to this when many skills share the budget. */
export const MIN_LISTED_DESCRIPTION_CHARACTERS = 60;
/** Characters of one problem's line in the listing. */
const MAX_PROBLEM_LINE_CHARACTERS = 300;
/** Room kept for the closing notes (how many were left out). */
const NOTES_RESERVE = 320;

/**
 * The skills part of the system prompt: one short line per skill (name and description, in
 * name order so the prompt stays the same from run to run), then the skills that could not
 * be loaded and why, all within `budget` characters. What does not fit is counted, never
 * silently dropped. Problems get at most a quarter of the budget, so skills come first.
 */
export function skillListing(catalog: SkillCatalog, folders: readonly string[], budget: number): string {
  const lines: string[] = [SKILLS_INTRODUCTION];
  let length = SKILLS_INTRODUCTION.length;
  const add = (line: string) => {
    lines.push(line);
    length += line.length + 1;
  };
  if (catalog.skills.length === 0) add(`${NO_SKILLS_NOTE} in ${folders.map((folder) => `\`${folder}\``).join(', ')}.`);

  const problemLines = catalog.skipped.map((skipped) => oneLine(`- \`${skipped.where}\`: ${skipped.problem}`, MAX_PROBLEM_LINE_CHARACTERS));
  const problemRoom = Math.min(Math.floor(budget / 4), problemLines.reduce((sum, line) => sum + line.length + 1, 0) + 80);
  const skillRoom = budget - problemRoom - NOTES_RESERVE;

  // Many skills share the room: each description gets a fair part of it, so more skills are listed.
  const share = Math.floor((skillRoom - length) / Math.max(1, catalog.skills.length));
  let listed = 0;
  for (const skill of catalog.skills) {
    const room = Math.max(MIN_LISTED_DESCRIPTION_CHARACTERS, Math.min(MAX_LISTED_DESCRIPTION_CHARACTERS, share - skill.name.length - 4));
    const line = oneLine(`- ${skill.name}: ${skill.description}`, room + skill.name.length + 4);
    if (length + line.length + 1 > skillRoom) break;
    add(line);
    listed += 1;
  }
  const unlisted = catalog.skills.length - listed;
  if (unlisted > 0) {
    add(`${unlisted} more skill${unlisted === 1 ? ' is' : 's are'} not listed here, to keep this prompt short; load_skill with a name that is not listed answers with every skill's name.`);
  }
  if (catalog.unscanned > 0) add(`${catalog.unscanned} more folders were not looked at: there are too many.`);

  if (problemLines.length > 0) {
    add('These skills could not be loaded (tell the user if one of them is needed):');
    let shown = 0;
    for (const line of problemLines) {
      if (length + line.length + 1 > budget - 80) break;
      add(line);
      shown += 1;
    }
    if (shown < problemLines.length) add(`- and ${problemLines.length - shown} more.`);
  }
  return lines.join('\n');
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
