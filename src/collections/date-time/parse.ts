import { daysInMonth, MAX_YEAR, MIN_YEAR, MONTHS, type CivilDate, type CivilDateTime } from './civil.js';

/** How a date is written, for messages. */
export const DATE_FORMAT = 'YYYY-MM-DD, for example 2026-09-24';
/** How a date and time is written, for messages. */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD or YYYY-MM-DDTHH:mm[:ss], for example 2026-09-24T14:30, optionally with an offset such as +02:00 or Z';

/** A date or date-time as the model wrote it. */
export type ParsedMoment =
  | { readonly kind: 'date'; readonly date: CivilDate }
  /** `offsetSeconds` is set when the text named its offset (`Z`, `+02:00`): then it is an exact instant. */
  | { readonly kind: 'date-time'; readonly time: CivilDateTime; readonly offsetSeconds?: number };

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * Reads `2026-09-24`, `2026-09-24T14:30`, `2026-09-24T14:30:15`, `2026-09-24 14:30` and those
 * with an offset (`Z`, `+02:00`, `-0400`). Returns what is wrong, in a phrase for the model,
 * when the text is not such a date or the date does not exist (2026-02-29, hour 24).
 */
export function parseMoment(text: string): ParsedMoment | { readonly problem: string } {
  const match = PATTERN.exec(text.trim());
  if (match === null) return { problem: 'malformed' };
  const [, y, mo, d, h, mi, s, offset] = match;
  const date = { year: Number(y), month: Number(mo), day: Number(d) };
  if (date.year < MIN_YEAR || date.year > MAX_YEAR) return { problem: `the year must be between 0001 and ${MAX_YEAR}` };
  if (date.month < 1 || date.month > 12) return { problem: `there is no month ${mo}; months run from 01 to 12` };
  const length = daysInMonth(date.year, date.month);
  if (date.day < 1 || date.day > length) return { problem: `${MONTHS[date.month - 1]} ${date.year} has ${length} days` };
  if (h === undefined) return { kind: 'date', date };

  const time = { ...date, hour: Number(h), minute: Number(mi), second: s === undefined ? 0 : Number(s) };
  if (time.hour > 23) return { problem: 'hours run from 00 to 23' };
  if (time.minute > 59) return { problem: 'minutes run from 00 to 59' };
  if (time.second > 59) return { problem: 'seconds run from 00 to 59' };
  if (offset === undefined) return { kind: 'date-time', time };
  if (offset.toUpperCase() === 'Z') return { kind: 'date-time', time, offsetSeconds: 0 };
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return { problem: `the offset ${offset} does not exist` };
  return { kind: 'date-time', time, offsetSeconds: (offset.startsWith('-') ? -1 : 1) * (hours * 3600 + minutes * 60) };
}

/**
 * The message for a text that is not a date: the expected format with an example, and what
 * is wrong when the form was right but the date does not exist. No closing period: the input
 * error adds its own.
 */
export function momentProblem(text: string, problem: string, format: string): string {
  const shown = JSON.stringify(text);
  return problem === 'malformed' ? `Expected ${format}; got ${shown}` : `${shown} is not a valid date: ${problem}. Write ${format}`;
}
