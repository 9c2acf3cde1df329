import * as path from 'node:path';
import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import { defineTool } from '../../tool.js';
import { withPathLock } from '../../workspace/path-lock.js';
import type { Workspace } from '../../workspace/workspace.js';
import { LOG_APPEND_DESCRIPTION, LOG_READ_DESCRIPTION } from './descriptions.js';
import type { ResolvedScratchToolsOptions } from './options.js';
import { formatTimestamp } from './timestamp.js';
import { logAppendOutput, logReadOutput } from './output-schemas.js';
import { LOG_APPEND_ALIASES, LOG_READ_ALIASES } from './input-aliases.js';

/** The session log's file name inside the private folder. */
export const SESSION_LOG_FILE = 'session.log';
/** Characters one log entry may have. */
export const MAX_LOG_ENTRY_CHARACTERS = 10_000;
/** Characters log_read returns at most; older entries are left out first. */
export const MAX_LOG_READ_CHARACTERS = 51_200;
/** The largest `tail` log_read accepts. */
export const MAX_LOG_TAIL = 10_000;

/**
 * Entries are stored one after another: the first line starts with `[timestamp] `, later lines
 * of the same entry are indented by two spaces, so an entry can hold line breaks and still be
 * told apart from the next one.
 */
const CONTINUATION = '  ';

/** `log_append` and `log_read`. */
export function createSessionLogTools(options: ResolvedScratchToolsOptions) {
  const { workspace, now } = options;

  const logAppend = defineTool({
    name: 'log_append',
    description: LOG_APPEND_DESCRIPTION.replace('{maxEntry}', MAX_LOG_ENTRY_CHARACTERS.toLocaleString('en-US')),
    kind: 'think',
    output: logAppendOutput,
    input: z.object({
      entry: z
        .string()
        .refine((entry) => entry.trim() !== '', 'The entry is blank; say what happened')
        .describe('What to record: what you did, decided or found. May span several lines.'),
    }),
    aliases: LOG_APPEND_ALIASES,
    async execute({ entry }) {
      const text = entry.replace(/\r\n?/g, '\n').trim();
      if (text.length > MAX_LOG_ENTRY_CHARACTERS) {
        throw new ToolError(
          `The entry is ${text.length.toLocaleString('en-US')} characters, over the limit of ${MAX_LOG_ENTRY_CHARACTERS.toLocaleString('en-US')}, so nothing was logged. Log a shorter summary, or keep the details in a note (note_write).`,
        );
      }
      const file = await logFile(workspace);
      const timestamp = formatTimestamp(now());
      const record = `[${timestamp}] ${text.split('\n').join(`\n${CONTINUATION}`)}\n`;
      // Read, append, write atomically, one call at a time: concurrent appends all land and
      // a crash never leaves half an entry.
      const count = await withPathLock(file.absolute, async () => {
        const existing = await readLog(workspace, file);
        const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
        const updated = existing + separator + record;
        await workspace.writeFileAtomic(file.absolute, updated);
        return parseEntries(updated).length;
      });
      return { text: `Logged entry ${count} at ${timestamp}.`, data: { entry: count, timestamp } };
    },
  });

  const logRead = defineTool({
    name: 'log_read',
    description: LOG_READ_DESCRIPTION,
    kind: 'think',
    effects: { readOnly: true },
    output: logReadOutput,
    input: z.object({
      tail: z
        .number()
        .int()
        .min(1)
        .max(MAX_LOG_TAIL)
        .optional()
        .describe('Read only the last N entries. Leave out to read the whole log (the newest entries when it is long).'),
    }),
    aliases: LOG_READ_ALIASES,
    async execute({ tail }) {
      const file = await logFile(workspace);
      const entries = parseEntries(await readLog(workspace, file));
      if (entries.length === 0) return { text: 'The session log is empty. Add to it with log_append.', data: { entries: [], total: 0 } };

      const requested = tail === undefined ? 0 : Math.max(0, entries.length - tail);
      let first = requested;
      let size = entries.slice(first).reduce((sum, entry) => sum + entry.length + 1, 0);
      while (size > MAX_LOG_READ_CHARACTERS && first < entries.length - 1) {
        size -= entries[first]!.length + 1;
        first += 1;
      }
      const shown = entries.slice(first);
      const range = first === 0 ? `all ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}` : `entries ${first + 1}–${entries.length} of ${entries.length}`;
      const cut = first > requested ? `; older entries left out to stay under ${MAX_LOG_READ_CHARACTERS.toLocaleString('en-US')} characters` : '';
      let body = shown.join('\n');
      // Only a log edited by hand can hold one entry this long: log_append refuses them.
      if (body.length > MAX_LOG_READ_CHARACTERS) body = `[…]${body.slice(body.length - MAX_LOG_READ_CHARACTERS)}`;
      const header = `Session log (${file.relative}), ${range}${cut}:`;
      return { text: `${header}\n${body}`, data: { entries: shown, total: entries.length, first: first + 1 } };
    },
  });

  return [logAppend, logRead];
}

/** The log's path; the private folder is checked (and made) on the way. */
async function logFile(workspace: Workspace): Promise<{ absolute: string; relative: string }> {
  const absolute = path.join(await workspace.privateDir(), SESSION_LOG_FILE);
  return { absolute, relative: workspace.display(absolute) };
}

/** The log's text, empty when there is none; a link or a folder in its place is refused, never followed. */
async function readLog(workspace: Workspace, file: { absolute: string; relative: string }): Promise<string> {
  const stats = await workspace.lstatOrUndefined(file.absolute);
  if (stats === undefined) return '';
  if (!stats.isFile()) {
    const what = stats.isSymbolicLink() ? 'a symbolic link' : stats.isDirectory() ? 'a folder' : 'not a regular file';
    throw new ToolError(`\`${file.relative}\` is ${what}, not the session log, so it was left alone. Ask the user to remove it.`);
  }
  return (await workspace.readFile(file.absolute)).toString('utf8');
}

/** The log's entries, each with its continuation lines. */
export function parseEntries(log: string): string[] {
  const entries: string[] = [];
  for (const line of log.replace(/\r\n?/g, '\n').split('\n')) {
    if (line === '') continue;
    if (line.startsWith(CONTINUATION) && entries.length > 0) entries[entries.length - 1] += `\n${line}`;
    else entries.push(line);
  }
  return entries;
}
