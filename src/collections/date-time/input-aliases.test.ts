import { describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import { createDateTimeTools } from './index.js';

const [after, dayOfWeek, between] = createDateTimeTools({ now: () => new Date('2026-09-24T12:30:00Z'), timeZone: 'UTC' }).tools;
const text = async (tool: typeof after, input: unknown) => (await runTool(tool!, input, { session: createSession() })).text;

describe('the date and time tools with other clock tools’ field names', () => {
  it('reads the MCP time server’s `timezone` and a range’s `start_date`/`end_date`', async () => {
    expect(await text(dayOfWeek, { date: '2026-09-24', timezone: 'Asia/Tokyo' })).toMatch(/^2026-09-24 is a Thursday \(today\)\.\n\n\(Read `timezone` as `time_zone`/);
    expect(await text(between, { start_date: '2026-09-01', end_date: '2026-09-24' })).toMatch(/^2026-09-24 is 23 days after 2026-09-01/);
  });

  it('converts weeks to days and seconds to whole minutes exactly, refusing what does not convert', async () => {
    expect(await text(after, { from: '2026-09-24', weeks: 2 })).toMatch(/2026-10-08/);
    expect(await text(after, { from: '2026-09-24T10:00', seconds: 5400 })).toMatch(/2026-09-24T11:30/);
    expect(await text(after, { from: '2026-09-24T10:00', seconds: 90 })).toMatch(
      /^You sent `seconds`, which stands for `minutes` but could not be read as it: send a number of seconds that is whole minutes, such as 120, or `minutes`/,
    );
    expect(await text(after, { from: '2026-09-24', days: 1, weeks: 1 })).toMatch(/You sent both `weeks` and `days`, which mean the same; send only `days`/);
  });

  it('refuses months and years, which have no fixed number of days', async () => {
    expect(await text(after, { months: 1 })).toMatch(/^Months have no fixed number of days, so get_date_time_after does not add them: send `days` with the count of days you mean/);
  });
});
