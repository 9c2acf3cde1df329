import * as path from 'node:path';
import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import { defineTool } from '../../tool.js';
import { withPathLock } from '../../workspace/path-lock.js';
import type { Workspace } from '../../workspace/workspace.js';
import { NOTE_LIST_DESCRIPTION, NOTE_READ_DESCRIPTION, NOTE_WRITE_DESCRIPTION } from './descriptions.js';
import { MAX_NOTE_NAME_LENGTH, noteFileName, noteNameOf, noteNameSchema } from './note-name.js';
import type { ResolvedScratchToolsOptions } from './options.js';
import { formatTimestamp } from './timestamp.js';
import { noteListOutput, noteReadOutput, noteWriteOutput } from './output-schemas.js';
import { NOTE_READ_ALIASES, NOTE_WRITE_ALIASES } from './input-aliases.js';

/** Characters one note may hold, so note_read always returns a note whole. */
export const MAX_NOTE_CHARACTERS = 51_200;
/** Notes note_list shows before it says how many more there are. */
export const MAX_LISTED_NOTES = 200;
/** Characters of a note's first line that note_list shows. */
const FIRST_LINE_CHARACTERS = 80;

/** `note_write`, `note_read` and `note_list`. */
export function createNoteTools(options: ResolvedScratchToolsOptions) {
  const { workspace } = options;
  return [noteWriteTool(workspace), noteReadTool(workspace), noteListTool(workspace)];
}

function noteWriteTool(workspace: Workspace) {
  return defineTool({
    name: 'note_write',
    description: NOTE_WRITE_DESCRIPTION.replace('{maxName}', String(MAX_NOTE_NAME_LENGTH)).replace(
      '{maxContent}',
      MAX_NOTE_CHARACTERS.toLocaleString('en-US'),
    ),
    kind: 'think',
    effects: { destructive: true, idempotent: true },
    output: noteWriteOutput,
    input: z.object({
      name: noteNameSchema,
      content: z.string().describe('The whole note, in markdown. Replaces what the note held before.'),
    }),
    aliases: NOTE_WRITE_ALIASES,
    async execute({ name, content }) {
      if (content.length > MAX_NOTE_CHARACTERS) {
        throw new ToolError(
          `The note is ${content.length.toLocaleString('en-US')} characters, over the limit of ${MAX_NOTE_CHARACTERS.toLocaleString('en-US')}, so nothing was written. Split it into several notes, such as \`${name}-1\` and \`${name}-2\`.`,
        );
      }
      const file = await noteFile(workspace, name);
      return withPathLock(file.absolute, async () => {
        const existed = (await checkedNoteStats(workspace, file)) !== undefined;
        await workspace.writeFileAtomic(file.absolute, content);
        const characters = content.length.toLocaleString('en-US');
        return {
          text: `${existed ? 'Replaced' : 'Created'} note \`${name}\` (${file.relative}, ${characters} characters).`,
          data: { name, path: file.relative, characters: content.length, created: !existed },
        };
      });
    },
  });
}

function noteReadTool(workspace: Workspace) {
  return defineTool({
    name: 'note_read',
    description: NOTE_READ_DESCRIPTION,
    kind: 'think',
    effects: { readOnly: true },
    output: noteReadOutput,
    input: z.object({ name: noteNameSchema }),
    aliases: NOTE_READ_ALIASES,
    async execute({ name }) {
      const file = await noteFile(workspace, name);
      const stats = await checkedNoteStats(workspace, file);
      if (stats === undefined) {
        const names = (await listNotes(workspace)).map((note) => `\`${note.name}\``);
        throw new ToolError(
          names.length === 0
            ? `There is no note named \`${name}\`; there are no notes yet. Save one with note_write.`
            : `There is no note named \`${name}\`. The notes are: ${names.join(', ')}.`,
        );
      }
      const content = (await workspace.readFile(file.absolute)).toString('utf8');
      const data = { name, path: file.relative, characters: content.length, updatedAt: formatTimestamp(stats.mtime) };
      if (content.trim() === '') return { text: `The note \`${name}\` is empty.`, data };
      if (content.length <= MAX_NOTE_CHARACTERS) return { text: content, data };
      // Only a note edited by hand can be this long: note_write refuses longer content.
      return {
        text: `${content.slice(0, MAX_NOTE_CHARACTERS)}\n\n[The note was cut at ${MAX_NOTE_CHARACTERS.toLocaleString('en-US')} of ${content.length.toLocaleString('en-US')} characters; read the rest with read_file on ${file.relative}.]`,
        data,
      };
    },
  });
}

function noteListTool(workspace: Workspace) {
  return defineTool({
    name: 'note_list',
    description: NOTE_LIST_DESCRIPTION,
    kind: 'think',
    effects: { readOnly: true },
    output: noteListOutput,
    input: z.object({}),
    async execute() {
      const notes = await listNotes(workspace);
      if (notes.length === 0) return { text: 'There are no notes yet. Save one with note_write.', data: { notes: [] } };
      const shown = notes.slice(0, MAX_LISTED_NOTES);
      const lines = shown.map((note) => {
        const size = `${note.bytes.toLocaleString('en-US')} byte${note.bytes === 1 ? '' : 's'}`;
        const first = note.firstLine === '' ? '' : ` — ${note.firstLine}`;
        return `- ${note.name} (${size}, updated ${note.updatedAt})${first}`;
      });
      const more = notes.length > shown.length ? `\n… and ${notes.length - shown.length} more.` : '';
      const count = `${notes.length} note${notes.length === 1 ? '' : 's'}`;
      return {
        text: `${count} in .toolbelt/notes/ (read one with note_read):\n${lines.join('\n')}${more}`,
        data: { notes },
      };
    },
  });
}

/** Where a note lives; the private folder is checked (and made) on the way. */
async function noteFile(workspace: Workspace, name: string): Promise<{ absolute: string; relative: string }> {
  const folder = await workspace.privateDir('notes');
  const absolute = path.join(folder, noteFileName(name));
  return { absolute, relative: workspace.display(absolute) };
}

/** The note's stats, `undefined` when there is none; a link or a folder in its place is refused, never followed. */
async function checkedNoteStats(workspace: Workspace, file: { absolute: string; relative: string }) {
  const stats = await workspace.lstatOrUndefined(file.absolute);
  if (stats === undefined || stats.isFile()) return stats;
  const what = stats.isSymbolicLink() ? 'a symbolic link' : stats.isDirectory() ? 'a folder' : 'not a regular file';
  throw new ToolError(`\`${file.relative}\` is ${what}, not a note file, so it was left alone. Ask the user to remove it, or use another note name.`);
}

/** Every note in the folder, by name. */
async function listNotes(workspace: Workspace) {
  const folder = await workspace.privateDir('notes');
  const notes: { name: string; path: string; bytes: number; updatedAt: string; firstLine: string }[] = [];
  for (const entry of await workspace.list(folder)) {
    const name = entry.isFile() ? noteNameOf(entry.name) : undefined;
    if (name === undefined) continue;
    const absolute = path.join(folder, entry.name);
    const stats = await workspace.lstatOrUndefined(absolute);
    if (stats === undefined || !stats.isFile()) continue;
    const head = await readHead(workspace, absolute);
    const firstLine = (head.split('\n').find((line) => line.trim() !== '') ?? '').trim();
    notes.push({
      name,
      path: workspace.display(absolute),
      bytes: stats.size,
      updatedAt: formatTimestamp(stats.mtime),
      firstLine: firstLine.length > FIRST_LINE_CHARACTERS ? `${firstLine.slice(0, FIRST_LINE_CHARACTERS - 1)}…` : firstLine,
    });
  }
  return notes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The first few hundred bytes of a file: enough for its first line. */
async function readHead(workspace: Workspace, absolute: string): Promise<string> {
  const handle = await workspace.open(absolute);
  try {
    const buffer = Buffer.alloc(1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}
