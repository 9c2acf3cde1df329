import { ToolError } from '../../errors/tool-error.js';

/** An expected refusal of a changing call; the list stays as it was. */
export function refuse(message: string): ToolError {
  return new ToolError(`${message} Nothing was changed.`);
}

/** `"3"`, `"#3"` and `" 3 "` all name task 3; anything else is not an id. */
export function parseTaskId(raw: string): string | undefined {
  const match = /^#?0*(\d{1,9})$/.exec(raw.trim());
  return match === null || match[1] === '0' ? undefined : match[1];
}

/** `"@2"`: the second task of the same `task_add` call, as a 1-based position. */
export function parseCallReference(raw: string): number | undefined {
  const match = /^@(\d{1,4})$/.exec(raw.trim());
  return match === null ? undefined : Number(match[1]);
}

/** `1st`, `2nd`, `3rd`, `11th`, `22nd`. */
export function ordinal(position: number): string {
  const lastTwo = position % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${position}th`;
  const suffix = ['th', 'st', 'nd', 'rd'][position % 10] ?? 'th';
  return `${position}${suffix}`;
}

/** How a text is compared for duplicates: whitespace collapsed, case ignored. */
export function normalizeSubject(subject: string): string {
  return subject.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A text on one line, cut to `maxLength` characters with an ellipsis. */
export function oneLine(text: string, maxLength: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const characters = [...flat];
  return characters.length <= maxLength ? flat : `${characters.slice(0, Math.max(0, maxLength - 1)).join('').trimEnd()}…`;
}
