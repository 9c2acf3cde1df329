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

/**
 * The one of `subjects` that `raw` names, by position: the same text (case and spacing
 * aside), else the only subject that contains it (three characters or more). For a model
 * that named a task by its subject where an id is wanted; the reply asks, it never guesses.
 */
export function subjectNamed(subjects: readonly string[], raw: string): number | undefined {
  const key = normalizeSubject(raw.replace(/^\s*#/, ''));
  if (key === '') return undefined;
  const keys = subjects.map(normalizeSubject);
  const same = keys.flatMap((subject, index) => (subject === key ? [index] : []));
  if (same.length > 0) return same.length === 1 ? same[0] : undefined;
  if (key.length < 3) return undefined;
  const containing = keys.flatMap((subject, index) => (subject.includes(key) ? [index] : []));
  return containing.length === 1 ? containing[0] : undefined;
}

/** `; did you mean #2 ("Write the parser")? Send its id, "2".` when `raw` names one task of `tasks` by its subject, else `fallback`. */
export function subjectHint(tasks: readonly { readonly id: string; readonly subject: string }[], raw: string, fallback: string, subjectLength = 80): string {
  const index = subjectNamed(
    tasks.map((task) => task.subject),
    raw,
  );
  if (index === undefined) return fallback;
  const task = tasks[index]!;
  return `; did you mean #${task.id} ("${oneLine(task.subject, subjectLength)}")? Send its id, "${task.id}".`;
}
