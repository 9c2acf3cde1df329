import { z } from 'zod';

// The shapes of the scratch tools' `data`, for hosts that pass structured output on.

const name = z.string();
const path = z.string().describe('The file, relative to the workspace root.');

/** `note_write`'s data. */
export const noteWriteOutput = z.object({ name, path, characters: z.number(), created: z.boolean().describe('False when an existing note was replaced.') });

/** `note_read`'s data. */
export const noteReadOutput = z.object({ name, path, characters: z.number(), updatedAt: z.string() });

/** `note_list`'s data. */
export const noteListOutput = z.object({
  notes: z.array(z.object({ name, path, bytes: z.number(), updatedAt: z.string(), firstLine: z.string() })),
});

/** `log_append`'s data. */
export const logAppendOutput = z.object({ entry: z.number().describe('The number of the new entry.'), timestamp: z.string() });

/** `log_read`'s data. */
export const logReadOutput = z.object({
  entries: z.array(z.string()),
  total: z.number().describe('Entries in the log, shown or not.'),
  first: z.number().optional().describe('The number of the first entry shown.'),
});
