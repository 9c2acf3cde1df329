import { civilToSeconds, type CivilDateTime } from './civil.js';

const formatters = new Map<string, Intl.DateTimeFormat>();
const SECONDS_PER_DAY = 86_400;

/**
 * The IANA name Node.js knows a zone by (`europe/amsterdam` → `Europe/Amsterdam`,
 * `us/eastern` → `America/New_York`; `Asia/Kolkata` stays as given, though ICU calls it `Asia/Calcutta`), or `undefined` for a zone it does not know.
 */
export function canonicalTimeZone(zone: string): string | undefined {
  if (typeof zone !== 'string' || zone.trim() === '') return undefined;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone.trim() }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  const given = zone.trim();
  const listed = knownZones().find((known) => known.toLowerCase() === given.toLowerCase());
  if (listed !== undefined) return listed;
  // ICU resolves current names to old ones (Asia/Kolkata → Asia/Calcutta): keep a name the
  // caller spelled with care, and use ICU's for one typed in lower case (us/eastern).
  return given !== given.toLowerCase() ? given : resolved;
}

let zoneList: readonly string[] | undefined;
/** The zones Node.js lists, in their current names, plus `UTC`. */
function knownZones(): readonly string[] {
  zoneList ??= [...Intl.supportedValuesOf('timeZone'), 'UTC'];
  return zoneList;
}

/** The zone this process runs in, from the system's settings (`TZ` included). */
export function systemTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The known zone closest to a mistyped one (`Europe/Amsterdm`, `Amsterdam`), if one is close enough to suggest. */
export function suggestTimeZone(zone: string): string | undefined {
  const wanted = zone.trim().toLowerCase().replace(/ /g, '_');
  if (wanted === '') return undefined;
  const zones = knownZones();
  const byCity = zones.find((candidate) => candidate.toLowerCase().split('/').pop() === wanted);
  if (byCity !== undefined) return byCity;
  let best: { zone: string; distance: number } | undefined;
  for (const candidate of zones) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (best === undefined || distance < best.distance) best = { zone: candidate, distance };
  }
  return best !== undefined && best.distance <= Math.max(2, Math.floor(wanted.length / 6)) ? best.zone : undefined;
}

/** The offset from UTC, in seconds, that `zone` has at the instant `epochSeconds`. */
export function offsetAt(epochSeconds: number, zone: string): number {
  return civilToSeconds(wallClockAt(epochSeconds, zone)) - epochSeconds;
}

/** The wall-clock time in `zone` at the instant `epochSeconds`. */
export function wallClockAt(epochSeconds: number, zone: string): CivilDateTime {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  const date = new Date(0);
  date.setTime(epochSeconds * 1000);
  const parts = Object.fromEntries(formatter.formatToParts(date).map((part) => [part.type, part.value]));
  const year = Number(parts.year);
  return {
    year: parts.era === 'BC' || parts.era === 'B' ? 1 - year : year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** An instant found for a wall-clock time, and what had to be decided on the way. */
export interface ResolvedWallClock {
  readonly epochSeconds: number;
  /**
   * `skipped`: the time does not exist (the clocks jumped over it) and was moved forward by
   * the length of the jump. `repeated`: it happens twice (the clocks went back) and this is
   * the first time.
   */
  readonly adjustment?: { readonly kind: 'skipped'; readonly movedSeconds: number } | { readonly kind: 'repeated'; readonly laterOffsetSeconds: number };
}

/**
 * The instant a wall-clock time in `zone` stands for. A time the clocks skip moves forward by
 * the length of the gap (02:30 on the day clocks jump from 02:00 to 03:00 is 03:30); a time
 * they repeat is taken the first time it happens. That is what Temporal calls `compatible`.
 */
export function resolveWallClock(time: CivilDateTime, zone: string): ResolvedWallClock {
  const asUtc = civilToSeconds(time);
  const offsets = new Set([offsetAt(asUtc - SECONDS_PER_DAY, zone), offsetAt(asUtc, zone), offsetAt(asUtc + SECONDS_PER_DAY, zone)]);
  const instants = [...offsets]
    .map((offset) => asUtc - offset)
    .filter((instant) => civilToSeconds(wallClockAt(instant, zone)) === asUtc)
    .sort((a, b) => a - b);
  const unique = [...new Set(instants)];
  if (unique.length === 1) return { epochSeconds: unique[0]! };
  if (unique.length > 1) {
    return { epochSeconds: unique[0]!, adjustment: { kind: 'repeated', laterOffsetSeconds: offsetAt(unique[unique.length - 1]!, zone) } };
  }
  const instant = asUtc - offsetAt(asUtc - SECONDS_PER_DAY, zone);
  return { epochSeconds: instant, adjustment: { kind: 'skipped', movedSeconds: civilToSeconds(wallClockAt(instant, zone)) - asUtc } };
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Number.POSITIVE_INFINITY;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
