/**
 * The text the model reads for the writing file tools: descriptions, field descriptions and
 * the collection's instructions. Kept together so they can be read and tuned as one.
 */

/** What the model reads about `create_file`. */
export const CREATE_FILE_DESCRIPTION = `Create a new file with the given content; missing parent folders are made. Never overwrites: when the path already exists the call fails and nothing changes, so read the existing file and change it with edit_file (or write_file) instead. Paths are relative to the workspace root. The private folder .toolbelt/ cannot be written; keep notes with the scratch notes tools.`;

/** What the model reads about `write_file`. */
export const WRITE_FILE_DESCRIPTION = `Replace the whole content of an existing file. You must have read every line of the file with read_file in this session (in one call, or page by page while it stayed unchanged), and the call is refused if the file changed since; read it again then. Prefer edit_file to change part of a file: it sends less and cannot drop lines by accident. Use create_file for a new file. The file keeps its permissions and its byte order mark; when the file uses CRLF line endings and content has only LF line breaks, they are written as CRLF. Asks the user for approval by default.`;

/** What the model reads about `edit_file`. */
export const EDIT_FILE_DESCRIPTION = `Replace exact text in a file. old_string must match the file exactly, whitespace and indentation included (copy it from read_file output without the \`N: \` line-number prefix), and must occur exactly once: add surrounding lines to make it unique, or set replace_all to replace every occurrence. new_string is inserted literally. Read the file (at least the part you change) with read_file in this session first; if the file changed since, the call is refused: read it again. Line breaks match whether the file uses LF or CRLF; the file keeps its line endings, byte order mark and permissions. The reply shows the changed lines with their numbers. When old_string is not found, the reply shows the closest lines: read the file again and copy the text exactly. Binary and non-UTF-8 files cannot be edited.`;

/** What the model reads about `move_file`. */
export const MOVE_FILE_DESCRIPTION = `Move or rename a file, a folder or a symbolic link (a link is moved itself, its target stays). Never overwrites: when destination exists the call fails and nothing moves; pick another name, or delete the other file first if that is really wanted. Missing parent folders of destination are made. Give destination as the full new path (\`src/new-name.ts\`), not just a folder.`;

/** What the model reads about `delete_file`. */
export const DELETE_FILE_DESCRIPTION = `Delete one file or symbolic link (a link is removed, never the file it points to). Folders are refused. Asks the user for approval by default.`;

/** Descriptions of the writing tools' input fields. */
export const WRITE_FIELDS = {
  path: 'File path relative to the workspace root, e.g. "src/index.ts".',
  createContent: 'The whole content of the new file, exactly as it should be written.',
  writeContent: 'The whole new content of the file, exactly as it should be written. Everything not in it is lost.',
  oldString: 'Exact text to replace, copied from the file (without read_file\'s "N: " prefixes), with enough surrounding lines to occur exactly once. Must not be empty.',
  newString: 'The text to put in its place, written literally (no regex or "$" substitutions). Must differ from old_string; empty deletes old_string.',
  replaceAll: 'Replace every occurrence of old_string instead of requiring exactly one. Default false.',
  source: 'The file, folder or symbolic link to move, relative to the workspace root.',
  destination: 'Its new path relative to the workspace root, including the name (e.g. "src/utils/date.ts"). Must not exist yet.',
  deletePath: 'The file or symbolic link to delete, relative to the workspace root.',
} as const;

/** What the writing tools add to the collection's instructions. */
export const WRITE_TOOLS_INSTRUCTIONS = `You can change files with edit_file (exact text replacement: the usual way), create_file (new files only), write_file (replace a whole file you have read in full), move_file and delete_file. Read a file before you change it, and read it again when a tool says it changed. create_file and move_file never overwrite an existing path. Keep your own notes with the scratch notes tools, not in .toolbelt/.`;
