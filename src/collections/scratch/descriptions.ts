/** The text the model reads about the scratch collection. */

/** Description of `note_write`. */
export const NOTE_WRITE_DESCRIPTION = `Saves a named markdown note in the workspace's private folder (.toolbelt/notes/<name>.md), creating it or replacing the whole note. Use notes to keep plans, findings and decisions you want to come back to later in this or a later session.
- name: letters, digits, "-", "_" and "." (not first), at most {maxName} characters.
- content: at most {maxContent} characters. To add to a note, read it with note_read and write it back whole.
Needs no approval: notes are private to the agent.`;

/** Description of `note_read`. */
export const NOTE_READ_DESCRIPTION = `Reads a note saved with note_write, by name. note_list shows which notes exist.`;

/** Description of `note_list`. */
export const NOTE_LIST_DESCRIPTION = `Lists the saved notes with their size, when each was last updated and its first line.`;

/** Description of `log_append`. */
export const LOG_APPEND_DESCRIPTION = `Appends a timestamped entry to the session log (.toolbelt/session.log): a running record of what you did, decided or found, that survives across turns and sessions. Keep entries short; at most {maxEntry} characters.`;

/** Description of `log_read`. */
export const LOG_READ_DESCRIPTION = `Reads the session log written with log_append, oldest entry first. Give tail to read only the last N entries.`;

/** The collection's instructions for the system prompt. */
export const SCRATCH_INSTRUCTIONS = `You have a private scratch area in the workspace: named notes (note_write, note_read, note_list) and a timestamped session log (log_append, log_read), kept in .toolbelt/. Use them to remember plans and findings across turns; they need no approval.`;
