import { z } from 'zod';

/** What `read_file` gives a user interface as `data`. */
export interface ReadFileData {
  /** Relative to the workspace root. */
  readonly path: string;
  readonly startLine: number;
  /** Last line shown; `startLine - 1` when none was. */
  readonly endLine: number;
  /** Lines in the file, when known (a large file is not scanned to its end). */
  readonly totalLines?: number;
  /** The line to continue with, when more follows. */
  readonly nextStartLine?: number;
}

// The shapes of the file tools' `data`, which hosts pass on as structured output (MCP's
// `outputSchema`); each matches every successful result of its tool.

const path = z.string().describe('The path, relative to the workspace root.');
const diff = z.string().optional().describe('A unified diff of the change.');
const backup = z.string().optional().describe('Where the copy made before the change is kept, when backups are on.');

/** `list_directory`'s data. */
export const listDirectoryOutput = z.object({
  path,
  entries: z.array(
    z.object({
      name: z.string(),
      type: z.enum(['folder', 'file', 'link', 'other']),
      size: z.number().optional().describe('Bytes, for a file.'),
      target: z.string().optional().describe('Where a symbolic link points.'),
    }),
  ),
  omitted: z.number().describe('Entries left out of the listing.'),
});

/** `find_files`' data. */
export const findFilesOutput = z.object({
  files: z.array(z.object({ path, mtimeMs: z.number().describe('Last modified, in milliseconds since 1970.'), target: z.string().optional() })),
  total: z.number().describe('Files that matched, shown or not.'),
});

/** `read_file`'s data. */
export const readFileOutput = z.object({
  path,
  startLine: z.number(),
  endLine: z.number().describe('The last line shown.'),
  totalLines: z.number().optional().describe('Lines in the file, when known.'),
  nextStartLine: z.number().optional().describe('The line to continue with, when more follows.'),
}) satisfies z.ZodType<ReadFileData>;

/** `create_file`'s data. */
export const createFileOutput = z.object({ path });

/** `write_file`'s data. */
export const writeFileOutput = z.object({ path, unchanged: z.boolean().optional().describe('True when the file already held this content.'), diff, backup });

/** `edit_file`'s data. */
export const editFileOutput = z.object({
  path,
  replacements: z.number(),
  changedLines: z.array(z.string()).optional().describe('The changed line ranges, such as `12–14`.'),
  diff,
  backup,
});

/** `move_file`'s data. */
export const moveFileOutput = z.object({ source: path, destination: path });

/** `delete_file`'s data. */
export const deleteFileOutput = z.object({ path, link: z.string().optional().describe('The target of a deleted symbolic link.'), backup });
