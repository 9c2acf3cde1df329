/**
 * Openings that many skills' descriptions share ("Use this skill when", "Use this skill when
 * the user asks about area"), found so that the listing writes each one once, as a heading,
 * and spends each skill's characters on the words that tell it apart. Deterministic: the same
 * skills give the same groups, so the prompt stays the same from run to run.
 * @module
 */
import { sharedOpeningHeading } from './descriptions.js';
import type { DiscoveredSkill } from './discover.js';

/** A shorter opening is not worth a heading. */
const MIN_OPENING_CHARACTERS = 8;
/** A longer opening is cut back to a whole word before it: a heading should read at a glance. */
const MAX_OPENING_CHARACTERS = 100;
/** Skills an opening must start to get a heading. */
const MIN_GROUP_SKILLS = 3;
/** Headings at most: past a few, the reader spends more on finding its group than it saves. */
const MAX_GROUPS = 6;

/** Skills whose descriptions begin with `opening` and a space, in name order. */
export interface OpeningGroup {
  readonly opening: string;
  readonly skills: readonly DiscoveredSkill[];
}

/** The skills split by shared opening: the groups, ordered by opening, and the skills in none. */
export interface SharedOpenings {
  readonly groups: readonly OpeningGroup[];
  readonly others: readonly DiscoveredSkill[];
}

/**
 * Groups `skills` (in name order) by the openings that save the most characters: each round
 * takes the whole-word opening of at least {@link MIN_GROUP_SKILLS} of the remaining skills
 * whose heading saves most (skills × its length, less the heading), until none saves
 * anything or {@link MAX_GROUPS} are taken. A skill is in one group at most.
 */
export function groupBySharedOpening(skills: readonly DiscoveredSkill[]): SharedOpenings {
  const texts = new Map(skills.map((skill) => [skill, normalized(skill.description)]));
  let remaining = [...skills];
  const groups: OpeningGroup[] = [];
  while (groups.length < MAX_GROUPS) {
    const best = bestOpening(remaining, texts);
    if (best === undefined) break;
    const members = remaining.filter((skill) => texts.get(skill)!.startsWith(`${best} `));
    groups.push({ opening: best, skills: members });
    remaining = remaining.filter((skill) => !members.includes(skill));
  }
  groups.sort((a, b) => (a.opening < b.opening ? -1 : a.opening > b.opening ? 1 : 0));
  return { groups, others: remaining };
}

/** The opening of `skills` whose heading saves the most characters, if one saves any. */
function bestOpening(skills: readonly DiscoveredSkill[], texts: ReadonlyMap<DiscoveredSkill, string>): string | undefined {
  const counts = new Map<string, number>();
  for (const skill of skills) {
    const text = texts.get(skill)!;
    for (let space = text.indexOf(' ', MIN_OPENING_CHARACTERS); space !== -1 && space <= MAX_OPENING_CHARACTERS; space = text.indexOf(' ', space + 1)) {
      const opening = text.slice(0, space);
      counts.set(opening, (counts.get(opening) ?? 0) + 1);
    }
  }
  let best: string | undefined;
  let bestSaving = 0;
  for (const [opening, count] of counts) {
    if (count < MIN_GROUP_SKILLS) continue;
    const saving = count * (opening.length + 1) - (sharedOpeningHeading(opening).length + 1);
    const better = saving > bestSaving || (saving === bestSaving && best !== undefined && (opening.length > best.length || (opening.length === best.length && opening < best)));
    if (better) {
      best = opening;
      bestSaving = saving;
    }
  }
  return best;
}

/** A description on one line, as the listing shows it. */
export function normalized(description: string): string {
  return description.replace(/\s+/g, ' ').trim();
}
