import { z } from 'zod';
import { DATE_FORMAT, DATE_TIME_FORMAT, momentProblem, parseMoment } from './parse.js';
import { canonicalTimeZone, suggestTimeZone } from './zone.js';

/** Zones named in messages as examples. */
const EXAMPLE_ZONES = 'Europe/Amsterdam, America/New_York or UTC';

/** The message for a zone Node.js does not know, with the closest known one when there is one. */
export function unknownZoneMessage(zone: string): string {
  const suggestion = suggestTimeZone(zone);
  const hint = suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`;
  return `Unknown time zone ${JSON.stringify(zone)}${hint}. Use an IANA name such as ${EXAMPLE_ZONES}`;
}

/** An optional `time_zone` field, checked by the schema so the error names the field. */
export function timeZoneField(defaultZone: string) {
  return z
    .string()
    .max(64)
    .superRefine((value, context) => {
      if (canonicalTimeZone(value) === undefined) context.addIssue({ code: 'custom', message: unknownZoneMessage(value) });
    })
    .optional()
    .describe(`An IANA time zone such as Europe/Amsterdam; default ${defaultZone}`);
}

/** A date field (`YYYY-MM-DD`; a date-time is accepted too and its date used). */
export function dateField(description: string) {
  return z
    .string()
    .max(64)
    .superRefine((value, context) => {
      const parsed = parseMoment(value);
      if ('problem' in parsed) context.addIssue({ code: 'custom', message: momentProblem(value, parsed.problem, DATE_FORMAT) });
    })
    .describe(`${description}, as YYYY-MM-DD`);
}

/** A date or date-time field; `fallback` says what an omitted value means. */
export function dateTimeField(description: string, fallback: string) {
  return z
    .string()
    .max(64)
    .superRefine((value, context) => {
      const parsed = parseMoment(value);
      if ('problem' in parsed) context.addIssue({ code: 'custom', message: momentProblem(value, parsed.problem, DATE_TIME_FORMAT) });
    })
    .describe(
      `${description}, as YYYY-MM-DD or YYYY-MM-DDTHH:mm[:ss] (local time in time_zone unless it ends with an offset such as +02:00 or Z); default ${fallback}`,
    );
}
