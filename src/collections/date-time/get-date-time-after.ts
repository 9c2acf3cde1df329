import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import { defineTool } from '../../tool.js';
import { addDays, civilToSeconds, formatDate, formatTime, MAX_YEAR, MIN_YEAR, type CivilDateTime } from './civil.js';
import { adjustmentNote, describeDate, describeInstant, nowSeconds, plural, zoneFor, type Clock } from './clock.js';
import { GET_DATE_TIME_AFTER_DESCRIPTION } from './descriptions.js';
import { DATE_TIME_AFTER_ALIASES } from './input-aliases.js';
import { dateTimeField, timeZoneField } from './fields.js';
import { parseMoment } from './parse.js';
import { resolveWallClock, wallClockAt } from './zone.js';

/** The largest count of days one call may add: a little over 10,000 years. */
export const MAX_DAYS = 3_660_000;
const MAX_HOURS = MAX_DAYS * 24;
const MAX_MINUTES = MAX_HOURS * 60;

/**
 * `get_date_time_after`: adds days, hours and minutes to a date-time or to now. Days keep the
 * wall-clock time across daylight-saving changes; hours and minutes count elapsed time.
 */
export function createGetDateTimeAfter(clock: Clock) {
  return defineTool({
    name: 'get_date_time_after',
    description: GET_DATE_TIME_AFTER_DESCRIPTION,
    kind: 'other',
    effects: { readOnly: true, openWorld: false },
    aliases: DATE_TIME_AFTER_ALIASES,
    input: z.object({
      from: dateTimeField('Where to start', 'now').optional(),
      days: z.number().int().min(-MAX_DAYS).max(MAX_DAYS).optional().describe('Calendar days to add (negative goes back); keeps the wall-clock time; default 0'),
      hours: z.number().int().min(-MAX_HOURS).max(MAX_HOURS).optional().describe('Hours of elapsed time to add (negative goes back); default 0'),
      minutes: z.number().int().min(-MAX_MINUTES).max(MAX_MINUTES).optional().describe('Minutes of elapsed time to add (negative goes back); default 0'),
      time_zone: timeZoneField(clock.timeZone),
    }),
    execute: ({ from, days, hours, minutes, time_zone }) => {
      if (days === undefined && hours === undefined && minutes === undefined) {
        throw new ToolError('Give days, hours or minutes to add (negative numbers go back in time), and call get_date_time_after again.');
      }
      const zone = zoneFor(clock, time_zone);
      const notes: string[] = [];
      const moment = from === undefined ? undefined : parseMoment(from);
      if (moment !== undefined && 'problem' in moment) throw new ToolError(`Could not read from: ${moment.problem}.`);

      let start: number;
      if (moment === undefined) start = nowSeconds(clock);
      else if (moment.kind === 'date-time' && moment.offsetSeconds !== undefined) start = civilToSeconds(moment.time) - moment.offsetSeconds;
      else {
        const wall: CivilDateTime = moment.kind === 'date' ? { ...moment.date, hour: 0, minute: 0, second: 0 } : moment.time;
        const resolved = resolveWallClock(wall, zone);
        const note = adjustmentNote(resolved, `${formatDate(wall)}T${formatTime(wall).slice(0, 5)}`, zone);
        if (note !== undefined) notes.push(note);
        start = resolved.epochSeconds;
      }

      let result = start;
      const startWall = wallClockAt(start, zone);
      if (days !== undefined && days !== 0) {
        const target: CivilDateTime = { ...startWall, ...addDays(startWall, days) };
        if (target.year < MIN_YEAR || target.year > MAX_YEAR) throw outOfRange();
        const resolved = resolveWallClock(target, zone);
        const note = adjustmentNote(resolved, `${formatDate(target)}T${formatTime(target).slice(0, 5)}`, zone);
        if (note !== undefined) notes.push(note);
        result = resolved.epochSeconds;
      }
      result += (hours ?? 0) * 3600 + (minutes ?? 0) * 60;
      const resultWall = wallClockAt(result, zone);
      if (resultWall.year < MIN_YEAR || resultWall.year > MAX_YEAR) throw outOfRange();

      const amount = describeAmount(days ?? 0, hours ?? 0, minutes ?? 0);
      if (moment?.kind === 'date' && !hours && !minutes) {
        return `${amount} ${describeDate(moment.date)} is ${describeDate(resultWall)}.`;
      }
      const startText = moment === undefined ? `now (${describeInstant(start, zone)})` : describeInstant(start, zone);
      return [`${amount} ${startText} is ${describeInstant(result, zone)} (${zone}).`, ...notes].join(' ');
    },
  });
}

/** `3 days and 2 hours after`, `90 minutes before`, `1 day and -2 hours after`. */
function describeAmount(days: number, hours: number, minutes: number): string {
  const given = [
    [days, 'day'],
    [hours, 'hour'],
    [minutes, 'minute'],
  ] as const;
  const nonZero = given.filter(([count]) => count !== 0);
  if (nonZero.length === 0) return '0 minutes after';
  const backwards = nonZero.every(([count]) => count < 0);
  const parts = nonZero.map(([count, unit]) => plural(backwards ? -count : count, unit));
  const joined = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `${joined} ${backwards ? 'before' : 'after'}`;
}

function outOfRange(): ToolError {
  return new ToolError(`The result falls outside the years ${String(MIN_YEAR).padStart(4, '0')} to ${MAX_YEAR}, which these tools handle. Use a smaller number.`);
}
