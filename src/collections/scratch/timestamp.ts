/** A time as the scratch tools show it: ISO 8601 in UTC, to the second (`2026-11-30T06:10:00Z`). */
export function formatTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
