import type { ToolCollection } from '../../tool.js';
import { describeInstant, nowSeconds, type Clock } from './clock.js';
import { DATE_TIME_INSTRUCTIONS } from './descriptions.js';
import { createGetDateTimeAfter } from './get-date-time-after.js';
import { createGetDayOfWeek } from './get-day-of-week.js';
import { createGetDaysBetween } from './get-days-between.js';
import { canonicalTimeZone, suggestTimeZone, systemTimeZone } from './zone.js';

/** Options of {@link createDateTimeTools}. */
export interface DateTimeToolsOptions {
  /**
   * The clock: tests and replays pass a fixed one.
   * @default () => new Date()
   */
  readonly now?: () => Date;
  /**
   * The IANA time zone the tools and the injected date use when a call names none, e.g.
   * `Europe/Amsterdam`. Give the user's zone: a server's is often UTC.
   * @default the system's zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`)
   */
  readonly timeZone?: string;
}

/**
 * Creates the date and time tools: `get_date_time_after`, `get_day_of_week` and
 * `get_days_between`, and a context that tells the model the current day, date, time and
 * zone before each model call, e.g. `Current date and time: Thursday, 2026-09-24T14:30:00+02:00 (Europe/Amsterdam)`.
 * Zone arithmetic uses the time zone data of Node.js's `Intl`, with no extra dependency.
 *
 * @example
 * const dates = createDateTimeTools({ timeZone: 'Europe/Amsterdam' });
 * const fixed = createDateTimeTools({ now: () => new Date('2026-09-24T12:30:00Z'), timeZone: 'UTC' });
 */
export function createDateTimeTools(options: DateTimeToolsOptions = {}): ToolCollection {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected createDateTimeTools to get an options object or nothing, got ${String(options)}.`);
  }
  const { now = () => new Date(), timeZone } = options;
  if (typeof now !== 'function') {
    throw new TypeError(`Expected the \`now\` option to be a function that returns a Date, got ${describeValue(now)}.`);
  }
  let zone: string;
  if (timeZone === undefined) zone = systemTimeZone();
  else {
    const canonical = typeof timeZone === 'string' ? canonicalTimeZone(timeZone) : undefined;
    if (canonical === undefined) {
      const suggestion = typeof timeZone === 'string' ? suggestTimeZone(timeZone) : undefined;
      const detail = suggestion === undefined ? '' : ` Did you mean \`${suggestion}\`?`;
      throw new TypeError(`Expected the \`timeZone\` option to be an IANA time zone such as \`Europe/Amsterdam\`, got ${describeValue(timeZone)}.${detail}`);
    }
    zone = canonical;
  }
  const clock: Clock = { now, timeZone: zone };
  return {
    name: 'date-time',
    tools: [createGetDateTimeAfter(clock), createGetDayOfWeek(clock), createGetDaysBetween(clock)],
    instructions: DATE_TIME_INSTRUCTIONS,
    context: () => `Current date and time: ${describeInstant(nowSeconds(clock), zone)} (${zone})`,
  };
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return `\`${value}\` (string)`;
  if (value === null) return '`null`';
  if (typeof value === 'object') return 'an object';
  return `\`${String(value)}\` (${typeof value})`;
}
