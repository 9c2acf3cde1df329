/**
 * The text the model reads for the writing file tools: descriptions, field descriptions and
 * the collection's instructions. Kept together so they can be read and tuned as one.
 */

/** What the model reads about `create_file`. */
export const CREATE_FILE_DESCRIPTION = `Create a new file; missing parent folders are made. Never overwrites: if the path exists the call fails and nothing changes. .toolbelt/ cannot be written.`;

/** What the model reads about `write_file`. */
export const WRITE_FILE_DESCRIPTION = `Replace the whole content of an existing file. You must have read all of it with read_file in this session (paging is fine); refused if it changed since: read it again. Permissions, byte order mark and CRLF line endings are kept. Asks the user for approval by default.`;

/** What the model reads about `edit_file`. */
export const EDIT_FILE_DESCRIPTION = `Replace exact text in a file. old_string must occur exactly once, whitespace included (copy from read_file, without the \`N: \` prefix); add surrounding lines to make it unique, or set replace_all. Read the file (at least that part) in this session first; refused if it changed since: read it again. Line endings (LF or CRLF, matched either way), byte order mark and permissions are kept. If not found, the reply shows the closest lines. Binary and non-UTF-8 files cannot be edited.`;

/** What the model reads about `move_file`. */
export const MOVE_FILE_DESCRIPTION = `Move or rename a file, folder or symbolic link (a link moves itself, not its target). Never overwrites: if destination exists the call fails and nothing moves. Missing parent folders are made.`;

/** What the model reads about `delete_file`. */
export const DELETE_FILE_DESCRIPTION = `Delete one file or symbolic link (a link is removed, not its target). Folders are refused. Asks the user for approval by default.`;

/** Descriptions of the writing tools' input fields. */
export const WRITE_FIELDS = {
  path: 'File path.',
  createContent: 'The whole content of the new file.',
  writeContent: 'The whole new content.',
  oldString: 'Exact text to replace; not empty.',
  newString: 'Replacement, taken literally; must differ. Empty deletes old_string.',
  replaceAll: 'Replace every occurrence. Default false.',
  source: 'File, folder or symbolic link to move.',
  destination: 'Its full new path, name included (e.g. "src/utils/date.ts"), not just a folder. Must not exist yet.',
  deletePath: 'File or symbolic link to delete.',
} as const;

/** What the writing tools add to the collection's instructions. */
export const WRITE_TOOLS_INSTRUCTIONS = `You can change files with edit_file (exact text replacement: the usual way), create_file (new files only), write_file (replace a whole file you have read in full), move_file and delete_file. Read a file before you change it, and read it again when a tool says it changed. create_file and move_file never overwrite an existing path. Keep your own notes with the scratch notes tools, not in .toolbelt/.`;
