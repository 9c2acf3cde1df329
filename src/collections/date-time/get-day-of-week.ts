import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { daysFromCivil, formatDate, WEEKDAYS, weekdayOf } from './civil.js';
import { dateOf, nowSeconds, plural, zoneFor, type Clock } from './clock.js';
import { GET_DAY_OF_WEEK_DESCRIPTION } from './descriptions.js';
import { DAY_OF_WEEK_ALIASES } from './input-aliases.js';
import { dateField, timeZoneField } from './fields.js';
import { parseMoment, type ParsedMoment } from './parse.js';
import { wallClockAt } from './zone.js';

/** `get_day_of_week`: the weekday of a date, and how far it is from today. */
export function createGetDayOfWeek(clock: Clock) {
  return defineTool({
    name: 'get_day_of_week',
    description: GET_DAY_OF_WEEK_DESCRIPTION,
    kind: 'other',
    effects: { readOnly: true, openWorld: false },
    aliases: DAY_OF_WEEK_ALIASES,
    input: z.object({
      date: dateField('The date'),
      time_zone: timeZoneField(clock.timeZone),
    }),
    execute: ({ date, time_zone }) => {
      const zone = zoneFor(clock, time_zone);
      const day = dateOf(parseMoment(date) as ParsedMoment, zone);
      const today = wallClockAt(nowSeconds(clock), zone);
      const distance = daysFromCivil(day) - daysFromCivil(today);
      const relative =
        distance === 0 ? 'today' : distance === 1 ? 'tomorrow' : distance === -1 ? 'yesterday' : distance > 0 ? `in ${plural(distance, 'day')}` : `${plural(-distance, 'day')} ago`;
      return `${formatDate(day)} is a ${WEEKDAYS[weekdayOf(day)]} (${relative}).`;
    },
  });
}
