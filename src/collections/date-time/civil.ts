/** A date on the calendar, without a time zone: the proleptic Gregorian calendar of ISO 8601. */
export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/** A wall-clock date and time in some time zone, to the second. */
export interface CivilDateTime extends CivilDate {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** Years the tools accept and answer with: four digits, as ISO 8601 writes them without a sign. */
export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;

const SECONDS_PER_DAY = 86_400;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/**
 * Days since 1970-01-01 (negative before it), by Howard Hinnant's `days_from_civil`: exact
 * for every year, unlike `Date.UTC`, which maps years 0–99 to the 1900s.
 */
export function daysFromCivil({ year, month, day }: CivilDate): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const monthFromMarch = (month + 9) % 12;
  const dayOfYear = Math.floor((153 * monthFromMarch + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The date `days` days after 1970-01-01: the inverse of {@link daysFromCivil}. */
export function civilFromDays(days: number): CivilDate {
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** The day of the week: 0 is Sunday. */
export function weekdayOf(date: CivilDate): number {
  return (((daysFromCivil(date) + 4) % 7) + 7) % 7;
}

/** The date `days` days later (earlier when negative). */
export function addDays(date: CivilDate, days: number): CivilDate {
  return civilFromDays(daysFromCivil(date) + days);
}

/** Seconds since the epoch if the wall-clock time were UTC. */
export function civilToSeconds(time: CivilDateTime): number {
  return daysFromCivil(time) * SECONDS_PER_DAY + time.hour * 3600 + time.minute * 60 + time.second;
}

/** The wall-clock time `seconds` after the epoch, read as UTC. */
export function secondsToCivil(seconds: number): CivilDateTime {
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  const rest = seconds - days * SECONDS_PER_DAY;
  return { ...civilFromDays(days), hour: Math.floor(rest / 3600), minute: Math.floor((rest % 3600) / 60), second: rest % 60 };
}

/** `2026-09-24`. */
export function formatDate({ year, month, day }: CivilDate): string {
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
}

/** `14:30:00`. */
export function formatTime({ hour, minute, second }: CivilDateTime): string {
  return `${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

/** `+02:00`, `-04:00`, `+00:17:30` for the odd historic offset with seconds. */
export function formatOffset(offsetSeconds: number): string {
  const sign = offsetSeconds < 0 ? '-' : '+';
  const total = Math.abs(offsetSeconds);
  const seconds = total % 60;
  return `${sign}${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}${seconds === 0 ? '' : `:${pad(seconds)}`}`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
