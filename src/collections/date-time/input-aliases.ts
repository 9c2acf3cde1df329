/**
 * @module The date and time tools' alias tables: the names other clock tools give their fields
 * (the MCP time server's `timezone`, a range's `start_date`/`end_date`), and units converted
 * where the conversion is exact (a week is 7 calendar days, 60 seconds a minute). Months and
 * years have no fixed length, so they are refused with what to send. The core applies them.
 */
import type { InputAlias, InputAliases } from '../../model-inputs/aliases.js';

/** Names for `time_zone` (`timeZone` is read as it by the core). */
const ZONE_ALIASES: InputAliases = { timezone: 'time_zone', tz: 'time_zone', zone: 'time_zone' };

/** A count in another unit, read as `to` when `convert` makes it a whole number; otherwise refused with `accepted`. */
function wholeCount(to: string, convert: (count: number) => number, accepted: string): InputAlias {
  return {
    to,
    convert: (value) => {
      const count = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      const converted = typeof count === 'number' ? convert(count) : Number.NaN;
      if (!Number.isInteger(converted)) throw new TypeError(accepted);
      return converted;
    },
  };
}

const NO_FIXED_LENGTH = (unit: string) => ({
  refuse: `${unit} have no fixed number of days, so get_date_time_after does not add them: send \`days\` with the count of days you mean (get_days_between counts the days between two dates)`,
});

/** get_date_time_after's table. */
export const DATE_TIME_AFTER_ALIASES: InputAliases = {
  ...ZONE_ALIASES,
  start: 'from',
  start_date: 'from',
  date: 'from',
  datetime: 'from',
  date_time: 'from',
  weeks: wholeCount('days', (weeks) => weeks * 7, 'a whole number of weeks, such as 2 (or `days`)'),
  seconds: wholeCount('minutes', (seconds) => seconds / 60, 'a number of seconds that is whole minutes, such as 120, or `minutes` (the tool counts whole minutes)'),
  months: NO_FIXED_LENGTH('Months'),
  years: NO_FIXED_LENGTH('Years'),
};

/** get_day_of_week's table. */
export const DAY_OF_WEEK_ALIASES: InputAliases = { ...ZONE_ALIASES, datetime: 'date', date_time: 'date', day: 'date' };

/** get_days_between's table. */
export const DAYS_BETWEEN_ALIASES: InputAliases = {
  ...ZONE_ALIASES,
  start: 'from',
  start_date: 'from',
  from_date: 'from',
  end: 'to',
  end_date: 'to',
  to_date: 'to',
};
