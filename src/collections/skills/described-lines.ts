/**
 * The skills' lines of the listing, cut so that each keeps what tells it apart. Cutting every
 * description to the same head keeps the opening a family of skills shares and drops the
 * words that differ ("Use this skill when the user asks about area 039 of the pla…"), so
 * openings shared by several skills are written once as a heading ({@link groupBySharedOpening})
 * and every line gets at least {@link MIN_DISTINCT_DESCRIPTION_CHARACTERS} of its own words.
 *
 * How the numbers were chosen. A listing serves a model that must pick the skill a task needs,
 * so it was measured as a reader picks: for each skill, the first four of its words that at
 * most a quarter of the skills use, taken after the longest opening it shares with another
 * skill, stand for the task; the skill counts as found when its line (with its name) holds
 * more of those words than any other line. On 100 generated skills that share a 45-character
 * opening ("Use this skill when the user asks about area 039 of the platform: exporting
 * invoices. …") and on 100 real Salesforce skills (`admin/*` of a public collection, 489
 * characters of description at the median, most opening "Use this skill when" or "Use when"):
 *
 * | listing | generated, 4,000 / 8,000 characters | Salesforce, 4,000 / 8,000 |
 * | --- | --- | --- |
 * | before: 60-character heads, the rest counted | 0 / 0 found | 29 / 67 |
 * | shared openings as headings, 48 own characters, the rest named | 39 / 98 | 46 / 82 |
 * | every description in full (no budget) | 100 | 96 |
 *
 * With 8,000 characters a minimum of 24, 32, 40, 48, 60 or 80 own characters found 98, 98,
 * 98, 98, 98, 78 generated and 79, 79, 79, 82, 76, 70 Salesforce skills; at 4,000, 0, 0, 18,
 * 38, 37, 27 and 51, 52, 51, 51, 50, 48. Below 40 the words that differ are often not reached
 * yet; above 60 too few skills get a line. Naming the skills that get no line is worth more
 * than longer lines for a few: at 4,000 characters 22 Salesforce skills get a line (36
 * before) and 60 more are named, and 46 are found instead of 29. On the 47 public skills of
 * two vendors, whose openings differ, the listing finds 40 at 4,000 characters (34 before)
 * and 41 at 8,000 (40), the same as without a budget.
 * @module
 */
import { sharedOpeningHeading } from './descriptions.js';
import type { DiscoveredSkill } from './discover.js';
import { groupBySharedOpening, normalized } from './shared-openings.js';

/** Characters of one skill's description in the listing when there is room: one short line. */
export const MAX_LISTED_DESCRIPTION_CHARACTERS = 200;
/**
 * The fewest characters of a listed skill's own words (after a shared opening). When the
 * budget cannot give every skill this many, the first skills get a line and the rest are
 * named. 48 found the most skills in the measurements above.
 */
export const MIN_DISTINCT_DESCRIPTION_CHARACTERS = 48;

/** A heading line or a skill's line, in the order the listing shows them. */
type Entry = { readonly heading: string } | { readonly skill: DiscoveredSkill; readonly text: string };

/** What {@link describedLines} makes. */
export interface DescribedLines {
  /** Headings and `- name: description` lines, in order. */
  readonly lines: readonly string[];
  /** The skills that got a line, in the order shown. */
  readonly described: readonly DiscoveredSkill[];
  /** The skills that did not, in the order they would have been shown. */
  readonly rest: readonly DiscoveredSkill[];
}

/**
 * Lines for as many of `skills` as fit in `room` characters: first the skills whose
 * description shares no opening with others, then each group under its heading. Each line's
 * own words get an even part of what is left (at least `minimum`, at most
 * {@link MAX_LISTED_DESCRIPTION_CHARACTERS}); `reserveFor(rest)` is kept free for the skills
 * after a line, which get no line of their own.
 */
export function describedLines(
  skills: readonly DiscoveredSkill[],
  options: {
    readonly room: number;
    readonly reserveFor: (rest: readonly DiscoveredSkill[]) => number;
    /** @default MIN_DISTINCT_DESCRIPTION_CHARACTERS (other values are for measuring) */
    readonly minimum?: number;
  },
): DescribedLines {
  const minimum = options.minimum ?? MIN_DISTINCT_DESCRIPTION_CHARACTERS;
  const entries = listingEntries(skills);
  const order = entries.flatMap((entry) => ('skill' in entry ? [entry.skill] : []));
  const lines: string[] = [];
  let used = 0;
  let described = 0;
  let pendingHeading: string | undefined;
  for (const entry of entries) {
    if ('heading' in entry) {
      pendingHeading = entry.heading;
      continue;
    }
    const heading = pendingHeading === undefined ? 0 : pendingHeading.length + 1;
    const share = Math.floor((options.room - used - heading) / (order.length - described));
    const width = Math.max(minimum, Math.min(MAX_LISTED_DESCRIPTION_CHARACTERS, share - entry.skill.name.length - 5));
    const line = `- ${entry.skill.name}: ${cutAtWord(entry.text, width)}`;
    if (used + heading + line.length + 1 + options.reserveFor(order.slice(described + 1)) > options.room) break;
    if (pendingHeading !== undefined) lines.push(pendingHeading);
    pendingHeading = undefined;
    lines.push(line);
    used += heading + line.length + 1;
    described += 1;
  }
  return { lines, described: order.slice(0, described), rest: order.slice(described) };
}

/** The skills sharing no opening, then each group under its heading, each with the words it shows. */
function listingEntries(skills: readonly DiscoveredSkill[]): Entry[] {
  const { groups, others } = groupBySharedOpening(skills);
  const entries: Entry[] = others.map((skill) => ({ skill, text: normalized(skill.description) }));
  for (const group of groups) {
    entries.push({ heading: sharedOpeningHeading(group.opening) });
    for (const skill of group.skills) entries.push({ skill, text: normalized(skill.description).slice(group.opening.length + 1) });
  }
  return entries;
}

/** `text` in at most `max` characters, cut after a whole word where one ends near the limit, with `…`. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  const cut = space >= max - 16 && space > 0 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.]+$/, '')}…`;
}

/** `text` on one line of at most `max` characters. */
export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
