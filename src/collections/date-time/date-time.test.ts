import { describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import { civilFromDays, daysFromCivil, weekdayOf } from './civil.js';
import { createDateTimeTools } from './index.js';

const session = createSession();
/** Thursday 2026-09-24, 12:30 UTC. */
const NOW = new Date('2026-09-24T12:30:00Z');

function tools(timeZone = 'Europe/Amsterdam', now = () => NOW) {
  const collection = createDateTimeTools({ now, timeZone });
  const [after, dayOfWeek, between] = collection.tools;
  const text = async (tool: typeof after, input: unknown) => {
    const result = await runTool(tool!, input, { session });
    return result.isError ? `ERROR ${result.text}` : result.text;
  };
  return { collection, after: (input: unknown) => text(after, input), dayOfWeek: (input: unknown) => text(dayOfWeek, input), between: (input: unknown) => text(between, input) };
}

describe('context', () => {
  it('gives the current day, date, time, offset and zone from the injected clock', async () => {
    expect(await tools().collection.context!(session)).toBe('Current date and time: Thursday, 2026-09-24T14:30:00+02:00 (Europe/Amsterdam)');
    expect(await tools('America/New_York').collection.context!(session)).toBe('Current date and time: Thursday, 2026-09-24T08:30:00-04:00 (America/New_York)');
    expect(await tools('Asia/Kolkata').collection.context!(session)).toBe('Current date and time: Thursday, 2026-09-24T18:00:00+05:30 (Asia/Kolkata)');
  });

  it('reads the clock at every call', async () => {
    let now = NOW;
    const { collection } = tools('UTC', () => now);
    expect(await collection.context!(session)).toBe('Current date and time: Thursday, 2026-09-24T12:30:00+00:00 (UTC)');
    now = new Date('2026-09-25T00:00:01Z');
    expect(await collection.context!(session)).toBe('Current date and time: Friday, 2026-09-25T00:00:01+00:00 (UTC)');
  });
});

describe('get_date_time_after', () => {
  it('adds to now when no start is given', async () => {
    expect(await tools().after({ days: 3, hours: 2 })).toBe(
      '3 days and 2 hours after now (Thursday, 2026-09-24T14:30:00+02:00) is Sunday, 2026-09-27T16:30:00+02:00 (Europe/Amsterdam).',
    );
    expect(await tools().after({ minutes: -90 })).toBe(
      '90 minutes before now (Thursday, 2026-09-24T14:30:00+02:00) is Thursday, 2026-09-24T13:00:00+02:00 (Europe/Amsterdam).',
    );
  });

  it('answers a date with a date when only days are added', async () => {
    expect(await tools().after({ from: '2026-08-31', days: 92 })).toBe('92 days after Monday, 2026-08-31 is Tuesday, 2026-12-01.');
    expect(await tools().after({ from: '2026-01-01', days: -1 })).toBe('1 day before Thursday, 2026-01-01 is Wednesday, 2025-12-31.');
  });

  it('reads a start with an offset as an exact instant and shows it in the zone', async () => {
    expect(await tools().after({ from: '2026-09-24T12:30:00Z', hours: 1 })).toBe(
      '1 hour after Thursday, 2026-09-24T14:30:00+02:00 is Thursday, 2026-09-24T15:30:00+02:00 (Europe/Amsterdam).',
    );
    expect(await tools().after({ from: '2026-09-24T08:30-04:00', hours: 1, time_zone: 'America/New_York' })).toBe(
      '1 hour after Thursday, 2026-09-24T08:30:00-04:00 is Thursday, 2026-09-24T09:30:00-04:00 (America/New_York).',
    );
  });

  describe.each([
    {
      zone: 'Europe/Amsterdam',
      springDay: '2026-03-29', dayBeforeSpring: '2026-03-28', before: '+01:00', after: '+02:00',
      fallDay: '2026-10-25', dayBeforeFall: '2026-10-24', gapTime: '02:30', repeatTime: '02:30',
    },
    {
      zone: 'America/New_York',
      springDay: '2026-03-08', dayBeforeSpring: '2026-03-07', before: '-05:00', after: '-04:00',
      fallDay: '2026-11-01', dayBeforeFall: '2026-10-31', gapTime: '02:30', repeatTime: '01:30',
    },
  ])('daylight saving in $zone', ({ zone, springDay, dayBeforeSpring, before, after, fallDay, dayBeforeFall, gapTime, repeatTime }) => {
    const { after: add } = tools(zone);
    const weekday = (date: string) => ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][new Date(`${date}T12:00:00Z`).getUTCDay()];

    it('keeps the wall-clock time when adding days across the spring change, and counts elapsed time for hours', async () => {
      expect(await add({ from: `${dayBeforeSpring}T09:00`, days: 1, time_zone: zone })).toBe(
        `1 day after ${weekday(dayBeforeSpring)}, ${dayBeforeSpring}T09:00:00${before} is ${weekday(springDay)}, ${springDay}T09:00:00${after} (${zone}).`,
      );
      expect(await add({ from: `${dayBeforeSpring}T09:00`, hours: 24, time_zone: zone })).toBe(
        `24 hours after ${weekday(dayBeforeSpring)}, ${dayBeforeSpring}T09:00:00${before} is ${weekday(springDay)}, ${springDay}T10:00:00${after} (${zone}).`,
      );
    });

    it('keeps the wall-clock time when adding days across the autumn change, and counts elapsed time for hours', async () => {
      expect(await add({ from: `${dayBeforeFall}T09:00`, days: 1, time_zone: zone })).toBe(
        `1 day after ${weekday(dayBeforeFall)}, ${dayBeforeFall}T09:00:00${after} is ${weekday(fallDay)}, ${fallDay}T09:00:00${before} (${zone}).`,
      );
      expect(await add({ from: `${dayBeforeFall}T09:00`, hours: 24, time_zone: zone })).toBe(
        `24 hours after ${weekday(dayBeforeFall)}, ${dayBeforeFall}T09:00:00${after} is ${weekday(fallDay)}, ${fallDay}T08:00:00${before} (${zone}).`,
      );
    });

    it('moves a skipped wall-clock time forward by the gap and says so', async () => {
      expect(await add({ from: `${dayBeforeSpring}T${gapTime}`, days: 1, time_zone: zone })).toBe(
        `1 day after ${weekday(dayBeforeSpring)}, ${dayBeforeSpring}T${gapTime}:00${before} is ${weekday(springDay)}, ${springDay}T03:30:00${after} (${zone}). ` +
          `${springDay}T${gapTime} does not exist in ${zone}: the clocks jump forward over it, so it was moved forward by 1 hour, to 03:30.`,
      );
    });

    it('takes the first of a repeated wall-clock time and says so', async () => {
      expect(await add({ from: `${dayBeforeFall}T${repeatTime}`, days: 1, time_zone: zone })).toBe(
        `1 day after ${weekday(dayBeforeFall)}, ${dayBeforeFall}T${repeatTime}:00${after} is ${weekday(fallDay)}, ${fallDay}T${repeatTime}:00${after} (${zone}). ` +
          `${fallDay}T${repeatTime} happens twice in ${zone} because the clocks go back; this is the first time, at ${after} (the second is at ${before}).`,
      );
      expect(await add({ from: `${fallDay}T${repeatTime}`, hours: 1, time_zone: zone })).toBe(
        `1 hour after ${weekday(fallDay)}, ${fallDay}T${repeatTime}:00${after} is ${weekday(fallDay)}, ${fallDay}T${repeatTime}:00${before} (${zone}). ` +
          `${fallDay}T${repeatTime} happens twice in ${zone} because the clocks go back; this is the first time, at ${after} (the second is at ${before}).`,
      );
    });
  });

  it('handles leap years', async () => {
    const { after } = tools('UTC');
    expect(await after({ from: '2024-02-28', days: 1 })).toBe('1 day after Wednesday, 2024-02-28 is Thursday, 2024-02-29.');
    expect(await after({ from: '2100-02-28', days: 1 })).toBe('1 day after Sunday, 2100-02-28 is Monday, 2100-03-01.');
    expect(await after({ from: '2000-02-28', days: 1 })).toBe('1 day after Monday, 2000-02-28 is Tuesday, 2000-02-29.');
    expect(await after({ from: '2024-02-29T23:00', hours: 2 })).toBe('2 hours after Thursday, 2024-02-29T23:00:00+00:00 is Friday, 2024-03-01T01:00:00+00:00 (UTC).');
  });

  it.each([
    [{ from: '31/08/2026', days: 1 }, '`from`: Expected YYYY-MM-DD or YYYY-MM-DDTHH:mm[:ss], for example 2026-09-24T14:30, optionally with an offset such as +02:00 or Z; got "31/08/2026"'],
    [{ from: '2026-02-29', days: 1 }, '`from`: "2026-02-29" is not a valid date: February 2026 has 28 days. Write YYYY-MM-DD or YYYY-MM-DDTHH:mm[:ss], for example 2026-09-24T14:30, optionally with an offset such as +02:00 or Z'],
    [{ from: '2026-09-24T24:00', days: 1 }, '`from`: "2026-09-24T24:00" is not a valid date: hours run from 00 to 23. Write YYYY-MM-DD or YYYY-MM-DDTHH:mm[:ss], for example 2026-09-24T14:30, optionally with an offset such as +02:00 or Z'],
    [{ days: 1, time_zone: 'Europe/Amsterdm' }, '`time_zone`: Unknown time zone "Europe/Amsterdm" (did you mean Europe/Amsterdam?). Use an IANA name such as Europe/Amsterdam, America/New_York or UTC'],
    [{ days: 1, time_zone: 'Mars/Olympus_Mons' }, '`time_zone`: Unknown time zone "Mars/Olympus_Mons". Use an IANA name such as Europe/Amsterdam, America/New_York or UTC'],
    [{ days: 1.5 }, '`days`: Invalid input: expected int, received number'],
  ])('refuses %j with the expected format', async (input, problem) => {
    expect(await tools().after(input)).toBe(`ERROR Invalid arguments for get_date_time_after: ${problem}. Fix the arguments and call get_date_time_after again.`);
  });

  it('asks for an amount when none is given, and refuses results past year 9999', async () => {
    expect(await tools().after({ from: '2026-09-24' })).toBe('ERROR Give days, hours or minutes to add (negative numbers go back in time), and call get_date_time_after again.');
    expect(await tools().after({ from: '9999-12-31', days: 1 })).toBe(
      'ERROR The result falls outside the years 0001 to 9999, which these tools handle. Use a smaller number.',
    );
  });
});

describe('get_day_of_week', () => {
  it('names the weekday and how far it is from today in the zone', async () => {
    const { dayOfWeek } = tools();
    expect(await dayOfWeek({ date: '2026-09-24' })).toBe('2026-09-24 is a Thursday (today).');
    expect(await dayOfWeek({ date: '2026-09-25' })).toBe('2026-09-25 is a Friday (tomorrow).');
    expect(await dayOfWeek({ date: '2026-09-23' })).toBe('2026-09-23 is a Wednesday (yesterday).');
    expect(await dayOfWeek({ date: '2028-02-29' })).toBe('2028-02-29 is a Tuesday (in 523 days).');
    expect(await dayOfWeek({ date: '2026-09-20' })).toBe('2026-09-20 is a Sunday (4 days ago).');
  });

  it('uses the zone of the call for today and for a date-time with an offset', async () => {
    const { dayOfWeek } = tools('UTC', () => new Date('2026-09-24T23:30:00Z'));
    expect(await dayOfWeek({ date: '2026-09-25' })).toBe('2026-09-25 is a Friday (tomorrow).');
    expect(await dayOfWeek({ date: '2026-09-25', time_zone: 'Europe/Amsterdam' })).toBe('2026-09-25 is a Friday (today).');
    expect(await dayOfWeek({ date: '2026-09-24T23:30:00Z', time_zone: 'Asia/Tokyo' })).toBe('2026-09-25 is a Friday (today).');
  });

  it('refuses a malformed date with the expected format', async () => {
    expect(await tools().dayOfWeek({ date: '2026-9-24' })).toBe(
      'ERROR Invalid arguments for get_day_of_week: `date`: Expected YYYY-MM-DD, for example 2026-09-24; got "2026-9-24". Fix the arguments and call get_day_of_week again.',
    );
    expect(await tools().dayOfWeek({ date: '1900-02-29' })).toBe(
      'ERROR Invalid arguments for get_day_of_week: `date`: "1900-02-29" is not a valid date: February 1900 has 28 days. Write YYYY-MM-DD, for example 2026-09-24. Fix the arguments and call get_day_of_week again.',
    );
  });
});

describe('get_days_between', () => {
  it('counts calendar days after, before and on the same day', async () => {
    const { between } = tools();
    expect(await between({ from: '2026-08-31', to: '2026-12-01' })).toBe('2026-12-01 is 92 days after 2026-08-31 (13 weeks and 1 day).');
    expect(await between({ from: '2026-08-31', to: '2026-08-30' })).toBe('2026-08-30 is 1 day before 2026-08-31.');
    expect(await between({ from: '2026-08-31', to: '2026-08-31' })).toBe('2026-08-31 is the same day as 2026-08-31.');
    expect(await between({ from: '2026-09-14', to: '2026-08-31' })).toBe('2026-08-31 is 14 days before 2026-09-14 (2 weeks).');
  });

  it('counts leap days and whole days across daylight-saving changes', async () => {
    const { between } = tools();
    expect(await between({ from: '2024-01-01', to: '2025-01-01' })).toBe('2025-01-01 is 366 days after 2024-01-01 (52 weeks and 2 days).');
    expect(await between({ from: '2026-03-28', to: '2026-03-30' })).toBe('2026-03-30 is 2 days after 2026-03-28.');
  });

  it('refuses an unknown zone and a malformed date', async () => {
    expect(await tools().between({ from: '2026-08-31', to: 'next friday' })).toBe(
      'ERROR Invalid arguments for get_days_between: `to`: Expected YYYY-MM-DD, for example 2026-09-24; got "next friday". Fix the arguments and call get_days_between again.',
    );
    expect(await tools().between({ from: '2026-08-31', to: '2026-09-01', time_zone: 'amsterdam' })).toBe(
      'ERROR Invalid arguments for get_days_between: `time_zone`: Unknown time zone "amsterdam" (did you mean Europe/Amsterdam?). Use an IANA name such as Europe/Amsterdam, America/New_York or UTC. Fix the arguments and call get_days_between again.',
    );
  });
});

describe('createDateTimeTools options', () => {
  it('validates the zone and the clock when the collection is created', () => {
    expect(() => createDateTimeTools({ timeZone: 'Europe/Amsterdm' })).toThrow(
      'Expected the `timeZone` option to be an IANA time zone such as `Europe/Amsterdam`, got `Europe/Amsterdm` (string). Did you mean `Europe/Amsterdam`?',
    );
    expect(() => createDateTimeTools({ timeZone: 42 as never })).toThrow(
      'Expected the `timeZone` option to be an IANA time zone such as `Europe/Amsterdam`, got `42` (number).',
    );
    expect(() => createDateTimeTools({ now: new Date() as never })).toThrow('Expected the `now` option to be a function that returns a Date, got an object.');
  });

  it('defaults to the system zone and names zones canonically', async () => {
    const system = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(await createDateTimeTools({ now: () => NOW }).context!(session)).toMatch(new RegExp(`\\(${system.replace('/', '\\/')}\\)$`));
    expect(await createDateTimeTools({ now: () => NOW, timeZone: 'us/eastern' }).context!(session)).toBe(
      'Current date and time: Thursday, 2026-09-24T08:30:00-04:00 (America/New_York)',
    );
  });

  it('declares its tools with kind other', () => {
    expect(tools().collection.tools.map((tool) => [tool.name, tool.kind])).toEqual([
      ['get_date_time_after', 'other'],
      ['get_day_of_week', 'other'],
      ['get_days_between', 'other'],
    ]);
  });
});

describe('civil calendar arithmetic', () => {
  it('agrees with Date for every day from 1900 to 2200, and round-trips', () => {
    const start = daysFromCivil({ year: 1900, month: 1, day: 1 });
    const end = daysFromCivil({ year: 2200, month: 12, day: 31 });
    for (let day = start; day <= end; day++) {
      const date = new Date(day * 86_400_000);
      const civil = civilFromDays(day);
      expect(civil).toEqual({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
      if (weekdayOf(civil) !== date.getUTCDay()) throw new Error(`weekday of ${day}`);
      if (daysFromCivil(civil) !== day) throw new Error(`round trip of ${day}`);
    }
  });
});

describe('the README example', () => {
  it('answers as the README says', async () => {
    const dates = createDateTimeTools({ timeZone: 'Europe/Amsterdam', now: () => NOW });
    const [after, , between] = dates.tools;
    expect(await dates.context!(session)).toBe('Current date and time: Thursday, 2026-09-24T14:30:00+02:00 (Europe/Amsterdam)');
    expect((await runTool(after, { from: '2026-03-28T09:00', days: 1 }, { session })).text).toBe(
      '1 day after Saturday, 2026-03-28T09:00:00+01:00 is Sunday, 2026-03-29T09:00:00+02:00 (Europe/Amsterdam).',
    );
    expect((await runTool(after, { from: '2026-03-28T09:00', hours: 24 }, { session })).text).toBe(
      '24 hours after Saturday, 2026-03-28T09:00:00+01:00 is Sunday, 2026-03-29T10:00:00+02:00 (Europe/Amsterdam).',
    );
    expect((await runTool(between, { from: '2026-08-31', to: '2026-12-01' }, { session })).text).toBe('2026-12-01 is 92 days after 2026-08-31 (13 weeks and 1 day).');
  });
});
