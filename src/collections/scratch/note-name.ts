import { z } from 'zod';

/** Characters a note name may have (without the `.md` suffix). */
export const MAX_NOTE_NAME_LENGTH = 64;

const NOTE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/**
 * A note's name as the model gives it: letters, digits, `-`, `_` and `.` but not first (so no
 * hidden files, no `..`, no path separators), at most {@link MAX_NOTE_NAME_LENGTH} characters.
 * A trailing `.md` is optional and dropped: `plan` and `plan.md` are one note.
 */
export const noteNameSchema = z
  .string()
  .transform((name) => name.trim().replace(/\.md$/i, ''))
  .refine(
    (name) => name.length > 0 && name.length <= MAX_NOTE_NAME_LENGTH && NOTE_NAME.test(name),
    `A note name uses letters, digits, "-", "_" and "." (not first), at most ${MAX_NOTE_NAME_LENGTH} characters, such as "plan" or "api-findings"`,
  )
  .describe('The note\'s name, e.g. "plan" or "api-findings"; a trailing ".md" is optional.');

/** The file a note is kept in, inside the notes folder. */
export function noteFileName(name: string): string {
  return `${name}.md`;
}

/** The note name of a file in the notes folder, or `undefined` for a file that is not a note. */
export function noteNameOf(fileName: string): string | undefined {
  if (!fileName.endsWith('.md')) return undefined;
  const name = fileName.slice(0, -'.md'.length);
  return name.length <= MAX_NOTE_NAME_LENGTH && NOTE_NAME.test(name) ? name : undefined;
}
