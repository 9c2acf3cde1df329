import { civilToSeconds, formatDate, formatOffset, formatTime, WEEKDAYS, weekdayOf, type CivilDate } from './civil.js';
import type { ParsedMoment } from './parse.js';
import { canonicalTimeZone, offsetAt, wallClockAt, type ResolvedWallClock } from './zone.js';

/** The clock and zone a collection answers with. */
export interface Clock {
  readonly now: () => Date;
  /** Canonical IANA name. */
  readonly timeZone: string;
}

/** The zone a call asked for, or the collection's. */
export function zoneFor(clock: Clock, requested: string | undefined): string {
  return requested === undefined ? clock.timeZone : (canonicalTimeZone(requested) ?? clock.timeZone);
}

/** The current instant, in whole seconds since the epoch. */
export function nowSeconds(clock: Clock): number {
  const now = clock.now();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new TypeError(`Expected the \`now\` option to return a valid Date, got ${String(now)}.`);
  }
  return Math.floor(now.getTime() / 1000);
}

/** `Thursday, 2026-09-24T14:30:00+02:00`. */
export function describeInstant(epochSeconds: number, zone: string): string {
  const wall = wallClockAt(epochSeconds, zone);
  return `${WEEKDAYS[weekdayOf(wall)]}, ${formatDate(wall)}T${formatTime(wall)}${formatOffset(offsetAt(epochSeconds, zone))}`;
}

/** `Thursday, 2026-09-24`. */
export function describeDate(date: CivilDate): string {
  return `${WEEKDAYS[weekdayOf(date)]}, ${formatDate(date)}`;
}

/** The date a parsed date or date-time stands for in `zone` (a date-time with an offset is converted). */
export function dateOf(moment: ParsedMoment, zone: string): CivilDate {
  if (moment.kind === 'date') return moment.date;
  if (moment.offsetSeconds === undefined) return moment.time;
  return wallClockAt(civilToSeconds(moment.time) - moment.offsetSeconds, zone);
}

/** A sentence about a wall-clock time the clocks skip or repeat, or nothing. */
export function adjustmentNote(resolved: ResolvedWallClock, asked: string, zone: string): string | undefined {
  const { adjustment } = resolved;
  if (adjustment === undefined) return undefined;
  const wall = wallClockAt(resolved.epochSeconds, zone);
  if (adjustment.kind === 'skipped') {
    return `${asked} does not exist in ${zone}: the clocks jump forward over it, so it was moved forward by ${duration(adjustment.movedSeconds)}, to ${formatTime(wall).slice(0, 5)}.`;
  }
  return (
    `${asked} happens twice in ${zone} because the clocks go back; this is the first time, at ${formatOffset(offsetAt(resolved.epochSeconds, zone))} ` +
    `(the second is at ${formatOffset(adjustment.laterOffsetSeconds)}).`
  );
}

/** `1 hour`, `30 minutes`, `1 hour 30 minutes`. */
function duration(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  const parts = [hours > 0 ? plural(hours, 'hour') : '', minutes > 0 ? plural(minutes, 'minute') : ''].filter(Boolean);
  return parts.length === 0 ? plural(seconds, 'second') : parts.join(' ');
}

/** `1 day`, `2 days`. */
export function plural(count: number, unit: string): string {
  return `${count} ${unit}${Math.abs(count) === 1 ? '' : 's'}`;
}
