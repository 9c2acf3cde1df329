import { describe, expect, it } from 'vitest';
import type { DiscoveredSkill, SkillCatalog } from './discover.js';
import { MIN_DISTINCT_DESCRIPTION_CHARACTERS } from './described-lines.js';
import { skillListing } from './listing.js';
import { groupBySharedOpening } from './shared-openings.js';

const VERBS = ['exporting', 'importing', 'auditing', 'archiving', 'reconciling', 'forecasting', 'migrating', 'validating', 'scheduling', 'refunding'];
const NOUNS = ['invoices', 'payroll runs', 'shipping labels', 'tax returns', 'customer tickets', 'warehouse stock', 'ad campaigns', 'loan applications', 'clinic bookings', 'fleet telemetry'];
const OPENING = 'Use this skill when the user asks about area';

/** 100 skills whose descriptions share a 45-character opening; what tells them apart comes after `area NNN of the platform:`. */
function platformAreas(): Array<DiscoveredSkill & { topic: string }> {
  return Array.from({ length: 100 }, (_, index) => {
    const number = String(index).padStart(3, '0');
    const topic = `${VERBS[index % 10]} ${NOUNS[Math.floor(index / 10)]}`;
    const description = `${OPENING} ${number} of the platform: ${topic}. It explains the steps, the checks to run and the reports to write afterwards.`;
    return { name: `area-${number}`, description, folder: `skills/area-${number}`, topic };
  });
}

const catalogOf = (skills: readonly DiscoveredSkill[]): SkillCatalog => ({ skills, skipped: [], warnings: [], unscanned: 0 });
const lineOf = (listing: string, name: string) => listing.split('\n').find((line) => line.startsWith(`- ${name}: `));
const namedOnly = (listing: string) =>
  listing
    .split('\n')
    .find((line) => line.startsWith('More skills, named only'))
    ?.replace(/^[^:]+: /, '')
    .replace(/\.$/, '')
    .split(', ') ?? [];

describe('the skill listing: 100 skills sharing a long opening', () => {
  it('writes the shared opening once and gives every skill a line that holds what tells it apart', () => {
    const skills = platformAreas();
    const listing = skillListing(catalogOf(skills), ['skills'], 8_000);
    expect(listing.length).toBeLessThanOrEqual(8_000);
    expect(listing.split('\n').filter((line) => line.startsWith('Skills whose descriptions begin'))).toEqual([
      `Skills whose descriptions begin "${OPENING}" (each line goes on from there):`,
    ]);
    expect(lineOf(listing, 'area-039')).toBe('- area-039: 039 of the platform: refunding tax returns. It explains the…');
    const told = skills.filter((skill) => lineOf(listing, skill.name)?.includes(skill.topic));
    // Each of the 98 lines names its topic; the 2 that do not fit are named, none is only counted.
    expect(told).toHaveLength(98);
    expect(namedOnly(listing)).toEqual(['area-098', 'area-099']);
    expect(listing).not.toContain('not listed here');
  });

  it('under a small budget gives fewer skills a line, never less than the minimum of their own words, and names the rest', () => {
    const skills = platformAreas();
    const listing = skillListing(catalogOf(skills), ['skills'], 4_000);
    expect(listing.length).toBeLessThanOrEqual(4_000);
    const lines = skills.map((skill) => lineOf(listing, skill.name)).filter((line) => line !== undefined);
    expect(lines.length).toBeGreaterThanOrEqual(45);
    for (const line of lines) expect(line.slice(line.indexOf(': ') + 2).length).toBeGreaterThanOrEqual(MIN_DISTINCT_DESCRIPTION_CHARACTERS - 16);
    // Before, the same budget cut each description to "Use this skill when the user asks about area 039 of the pla…".
    expect(skills.filter((skill) => lineOf(listing, skill.name)?.includes(skill.topic)).length).toBeGreaterThanOrEqual(30);
    expect(lines.length + namedOnly(listing).length).toBe(100);
  });

  it('is the same from run to run, and groups only openings that save room', () => {
    const skills = platformAreas();
    expect(skillListing(catalogOf(skills), ['skills'], 8_000)).toBe(skillListing(catalogOf([...skills]), ['skills'], 8_000));
    const two = groupBySharedOpening(skills.slice(0, 2));
    expect(two.groups).toEqual([]);
    const mixed = groupBySharedOpening([
      ...skills.slice(0, 3),
      { name: 'pdf', description: 'Extract text and tables from PDF files.', folder: 'skills/pdf' },
      { name: 'release-notes', description: 'Use this skill when writing release notes.', folder: 'skills/release-notes' },
    ]);
    expect(mixed.groups.map((group) => [group.opening, group.skills.map((skill) => skill.name)])).toEqual([[OPENING, ['area-000', 'area-001', 'area-002']]]);
    expect(mixed.others.map((skill) => skill.name)).toEqual(['pdf', 'release-notes']);
  });

  it('lists few skills in full, as before', () => {
    const skills = [
      { name: 'code-review', description: 'Review a change for bugs and style.', folder: 'skills/code-review' },
      { name: 'pdf', description: 'Extract text and tables from PDF files. Use when the user mentions PDFs.', folder: 'skills/pdf' },
    ];
    expect(skillListing(catalogOf(skills), ['skills'], 8_000).split('\n').slice(1)).toEqual([
      '- code-review: Review a change for bugs and style.',
      '- pdf: Extract text and tables from PDF files. Use when the user mentions PDFs.',
    ]);
  });
});
