/**
 * @module The scratch tools' alias tables: the names other memory and note tools give a note's
 * name and text, and a log entry (one text field, so every other name for text is certain).
 * A path (Anthropic's memory tool says `/memories/plan.md`) is refused: notes are named, and
 * reading a folder into a name would be a guess. The core applies the tables to every call.
 */
import type { InputAliases } from '../../model-inputs/aliases.js';

const NOT_A_PATH = {
  refuse: 'Notes are named, not found by path: send `name`, such as "plan" (a note is kept as .toolbelt/notes/<name>.md)',
};

/** Names for a note's name. */
const NAME_ALIASES: InputAliases = { note_name: 'name', title: 'name', key: 'name', path: NOT_A_PATH, file_path: NOT_A_PATH };

/** note_write's table. */
export const NOTE_WRITE_ALIASES: InputAliases = {
  ...NAME_ALIASES,
  text: 'content',
  body: 'content',
  value: 'content',
  // Anthropic's memory tool (`create`).
  file_text: 'content',
};

/** note_read's table. */
export const NOTE_READ_ALIASES: InputAliases = NAME_ALIASES;

/** log_append's table: the one text field. */
export const LOG_APPEND_ALIASES: InputAliases = { message: 'entry', text: 'entry', content: 'entry', note: 'entry', log: 'entry' };

/** log_read's table: `last` is the count of newest entries; a `limit` could count from either end. */
export const LOG_READ_ALIASES: InputAliases = {
  last: 'tail',
  last_n: 'tail',
  limit: { refuse: 'log_read reads the newest entries: send `tail` with the number of newest entries to read, such as 20 (leave it out for the whole log)' },
};
