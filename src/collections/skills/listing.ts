import type { DiscoveredSkill, SkillCatalog } from './discover.js';
import { MORE_SKILLS_NAMED, NO_SKILLS_NOTE, SKILLS_INTRODUCTION, WARNINGS_HEADING } from './descriptions.js';
import { describedLines, oneLine } from './described-lines.js';

/** Characters of one problem's line in the listing. */
const MAX_PROBLEM_LINE_CHARACTERS = 300;
/** Room kept for the closing notes (how many were left out). */
const NOTES_RESERVE = 320;
/** The names of skills without a line take at most this part of the skills' room. */
const NAMES_SHARE = 0.5;

/**
 * The skills part of the system prompt, within `budget` characters: one line per skill in
 * name order (so the prompt stays the same from run to run), each keeping what tells it apart
 * from the others ({@link describedLines}); the names of the skills that get no line; then the
 * skills loaded with a warning and those that could not be loaded, and why. What does not fit
 * is counted, never silently dropped. Warnings and problems get at most a quarter of the
 * budget, so skills come first.
 */
export function skillListing(catalog: SkillCatalog, folders: readonly string[], budget: number): string {
  const lines: string[] = [SKILLS_INTRODUCTION];
  let length = SKILLS_INTRODUCTION.length;
  const add = (line: string) => {
    lines.push(line);
    length += line.length + 1;
  };
  if (catalog.skills.length === 0) add(`${NO_SKILLS_NOTE} in ${folders.map((folder) => `\`${folder}\``).join(', ')}.`);

  const warningLines = catalog.warnings.map((warning) => oneLine(`- \`${warning.where}\`: ${warning.warning}`, MAX_PROBLEM_LINE_CHARACTERS));
  const problemLines = catalog.skipped.map((skipped) => oneLine(`- \`${skipped.where}\`: ${skipped.problem}`, MAX_PROBLEM_LINE_CHARACTERS));
  const noticeCharacters = [...warningLines, ...problemLines].reduce((sum, line) => sum + line.length + 1, 0);
  const noticeRoom = Math.min(Math.floor(budget / 4), noticeCharacters + (warningLines.length > 0 ? 160 : 0) + (problemLines.length > 0 ? 80 : 0));
  const skillRoom = budget - noticeRoom - NOTES_RESERVE;

  const described = describedLines(catalog.skills, {
    room: skillRoom - length,
    reserveFor: (rest) => Math.min(namesCost(rest), Math.floor((skillRoom - length) * NAMES_SHARE)),
  });
  for (const line of described.lines) add(line);
  const rest = described.rest;
  const named = rest.length === 0 ? 0 : addNames(rest, skillRoom - length, add);
  const unlisted = rest.length - named;
  if (unlisted > 0) {
    add(`${unlisted} more skill${unlisted === 1 ? ' is' : 's are'} not listed here, to keep this prompt short; load_skill with a name that is not listed answers with every skill's name.`);
  }
  if (catalog.unscanned > 0) add(`${catalog.unscanned} more folders were not looked at: there are too many.`);

  addNotices('These skills could not be loaded (tell the user if one of them is needed):', problemLines, budget - 80, () => length, add);
  addNotices(WARNINGS_HEADING, warningLines, budget - 80, () => length, add);
  return lines.join('\n');
}

/** Characters a line naming `skills` takes. */
function namesCost(skills: readonly DiscoveredSkill[]): number {
  if (skills.length === 0) return 0;
  return MORE_SKILLS_NAMED.length + 2 + skills.reduce((sum, skill) => sum + skill.name.length + 2, 0);
}

/** One line naming as many of `skills` as fit in `room`; returns how many it named. */
function addNames(skills: readonly DiscoveredSkill[], room: number, add: (line: string) => void): number {
  let line = `${MORE_SKILLS_NAMED} `;
  let named = 0;
  for (const skill of skills) {
    const next = `${line}${named === 0 ? '' : ', '}${skill.name}`;
    if (next.length + 2 > room) break;
    line = next;
    named += 1;
  }
  if (named > 0) add(`${line}.`);
  return named;
}

/** A heading and as many of `notices` as fit before `limit`, counting the rest. */
function addNotices(heading: string, notices: readonly string[], limit: number, length: () => number, add: (line: string) => void): void {
  if (notices.length === 0) return;
  add(heading);
  let shown = 0;
  for (const line of notices) {
    if (length() + line.length + 1 > limit) break;
    add(line);
    shown += 1;
  }
  if (shown < notices.length) add(`- and ${notices.length - shown} more.`);
}
