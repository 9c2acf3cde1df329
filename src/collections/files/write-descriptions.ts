/**
 * The text the model reads for the writing file tools: descriptions, field descriptions and
 * the collection's instructions. Kept together so they can be read and tuned as one.
 */

/** What the model reads about `create_file`. */
export const CREATE_FILE_DESCRIPTION = `Create a new file with the given content; missing parent folders are made. Never overwrites: when the path already exists the call fails and nothing changes, so read the existing file and change it with edit_file (or write_file) instead. Paths are relative to the workspace root. The private folder .toolbelt/ cannot be written; keep notes with the scratch notes tools.`;

/** What the model reads about `write_file`. */
export const WRITE_FILE_DESCRIPTION = `Replace the whole content of an existing file. You must have read every line of it with read_file in this session (paging is fine), and the call is refused if the file changed since: read it again. Prefer edit_file for part of a file, create_file for a new one. Permissions, byte order mark and CRLF line endings are kept. Asks the user for approval by default.`;

/** What the model reads about `edit_file`. */
export const EDIT_FILE_DESCRIPTION = `Replace exact text in a file. old_string must occur exactly once, whitespace included (copy it from read_file without the \`N: \` prefix); add surrounding lines to make it unique, or set replace_all. Read the file (at least that part) with read_file in this session first; if it changed since, the call is refused: read it again. Line endings (LF or CRLF, matched either way), byte order mark and permissions are kept. When old_string is not found, the reply shows the closest lines. Binary and non-UTF-8 files cannot be edited.`;

/** What the model reads about `move_file`. */
export const MOVE_FILE_DESCRIPTION = `Move or rename a file, a folder or a symbolic link (a link is moved itself, its target stays). Never overwrites: when destination exists the call fails and nothing moves; pick another name, or delete the other file first if that is really wanted. Missing parent folders of destination are made. Give destination as the full new path (\`src/new-name.ts\`), not just a folder.`;

/** What the model reads about `delete_file`. */
export const DELETE_FILE_DESCRIPTION = `Delete one file or symbolic link (a link is removed, never the file it points to). Folders are refused. Asks the user for approval by default.`;

/** Descriptions of the writing tools' input fields. */
export const WRITE_FIELDS = {
  path: 'File path relative to the workspace root.',
  createContent: 'The whole content of the new file, exactly as it should be written.',
  writeContent: 'The whole new content; everything not in it is lost.',
  oldString: 'Exact text to replace; not empty.',
  newString: 'Its replacement, taken literally; must differ from old_string. Empty deletes old_string.',
  replaceAll: 'Replace every occurrence instead of exactly one. Default false.',
  source: 'The file, folder or symbolic link to move, relative to the workspace root.',
  destination: 'Its new path relative to the workspace root, including the name (e.g. "src/utils/date.ts"). Must not exist yet.',
  deletePath: 'The file or symbolic link to delete, relative to the workspace root.',
} as const;

/** What the writing tools add to the collection's instructions. */
export const WRITE_TOOLS_INSTRUCTIONS = `You can change files with edit_file (exact text replacement: the usual way), create_file (new files only), write_file (replace a whole file you have read in full), move_file and delete_file. Read a file before you change it, and read it again when a tool says it changed. create_file and move_file never overwrite an existing path. Keep your own notes with the scratch notes tools, not in .toolbelt/.`;
