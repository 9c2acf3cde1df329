/** System-prompt text of the date and time collection. */
export const DATE_TIME_INSTRUCTIONS = `The current date, time and time zone are given to you before each turn. For date arithmetic (a date some days or hours away, the days between two dates, the day of the week of a date), call the date tools rather than working it out yourself: they follow the calendar and each time zone's daylight-saving rules.`;

export const GET_DATE_TIME_AFTER_DESCRIPTION = `Adds days, hours and minutes to a date-time (or to now) and gives the resulting date, time, weekday and UTC offset. Days are calendar days: the wall-clock time stays the same across a daylight-saving change (1 day after 09:00 is 09:00). Hours and minutes are elapsed time (24 hours after 09:00 can be 08:00 or 10:00 across a change). A wall-clock time the clocks skip is moved forward by the gap; one that happens twice is taken the first time; the reply says so when either happens.`;

export const GET_DAY_OF_WEEK_DESCRIPTION = `Gives the day of the week of a date (YYYY-MM-DD), and how many days it is from today in the time zone.`;

export const GET_DAYS_BETWEEN_DESCRIPTION = `Counts the calendar days from one date to another (YYYY-MM-DD), e.g. "2026-12-01 is 92 days after 2026-08-31 (13 weeks and 1 day)". A later "to" is after "from", an earlier one before it.`;
