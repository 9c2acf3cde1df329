import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { daysFromCivil, formatDate } from './civil.js';
import { dateOf, plural, zoneFor, type Clock } from './clock.js';
import { GET_DAYS_BETWEEN_DESCRIPTION } from './descriptions.js';
import { DAYS_BETWEEN_ALIASES } from './input-aliases.js';
import { dateField, timeZoneField } from './fields.js';
import { parseMoment, type ParsedMoment } from './parse.js';

/** `get_days_between`: calendar days from one date to another. */
export function createGetDaysBetween(clock: Clock) {
  return defineTool({
    name: 'get_days_between',
    description: GET_DAYS_BETWEEN_DESCRIPTION,
    kind: 'other',
    effects: { readOnly: true, openWorld: false },
    aliases: DAYS_BETWEEN_ALIASES,
    input: z.object({
      from: dateField('The first date'),
      to: dateField('The second date'),
      time_zone: timeZoneField(clock.timeZone),
    }),
    execute: ({ from, to, time_zone }) => {
      const zone = zoneFor(clock, time_zone);
      const first = dateOf(parseMoment(from) as ParsedMoment, zone);
      const second = dateOf(parseMoment(to) as ParsedMoment, zone);
      const days = daysFromCivil(second) - daysFromCivil(first);
      if (days === 0) return `${formatDate(second)} is the same day as ${formatDate(first)}.`;
      const count = Math.abs(days);
      const weeks = Math.floor(count / 7);
      const inWeeks = weeks === 0 ? '' : ` (${plural(weeks, 'week')}${count % 7 === 0 ? '' : ` and ${plural(count % 7, 'day')}`})`;
      return `${formatDate(second)} is ${plural(count, 'day')} ${days > 0 ? 'after' : 'before'} ${formatDate(first)}${inWeeks}.`;
    },
  });
}
