import type { Dirent } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../tool.js';
import { fillDescription, LIST_DIRECTORY_DESCRIPTION, PATH_FIELD } from './read-descriptions.js';
import type { ResolvedReadToolsOptions } from './read-options.js';
import { capReply, formatCount, orRoot, plural, shownName } from './text/text.js';
import { listDirectoryOutput } from './output-schemas.js';
import { withPathRules } from './paths/path-fields.js';
import type { InputAliases } from '../../model-inputs/aliases.js';

/** Characters kept free at the end of a listing for the note on what was left out. */
const FOOTER_RESERVE = 200;
/** Sizes are looked up for this many entries at a time. */
const STAT_BATCH = 64;

/** The refusal of a listing deeper than one folder, naming the call that gives it. */
const DEEPER =
  'You sent `recursive` or `depth`, but list_directory lists one folder: leave it out for that folder\'s entries, or call find_files with pattern "*" and the same path for every file below it';

const listDirectoryInput = z.object({
  path: z.string().optional().describe(PATH_FIELD.listDirectory),
});

/**
 * Other harnesses' names for list_directory's field, and the options it does not have: Gemini
 * CLI's and Codex's `dir_path`, Cline's and Roo Code's `recursive`, Codex's `depth`.
 */
export const LIST_DIRECTORY_ALIASES: InputAliases = {
  dir_path: 'path', // Gemini CLI, Codex
  directory: 'path',
  workdir: 'path', // Codex
  absolute_path: 'path',
  recursive: { refuse: DEEPER }, // Cline, Roo Code
  depth: { refuse: DEEPER }, // Codex
  ignore: { refuse: 'You sent `ignore`, but list_directory shows every entry: leave `ignore` out, or use find_files with a pattern for the names you want' }, // Gemini CLI
};

/** One entry of a listing, as `data` gives it to a user interface. */
export interface DirectoryEntry {
  readonly name: string;
  readonly type: 'folder' | 'file' | 'link' | 'other';
  /** Size in bytes, for files. */
  readonly size?: number;
  /** Where a symbolic link points, as stored in the link. */
  readonly target?: string;
}

/** `list_directory`: the direct entries of one folder, folders first, links shown and not followed. */
export function createListDirectoryTool(options: ResolvedReadToolsOptions): ToolDefinition<typeof listDirectoryInput> {
  const { workspace, maxReadCharacters } = options;
  return withPathRules(defineTool({
    name: 'list_directory',
    description: fillDescription(LIST_DIRECTORY_DESCRIPTION, {}),
    kind: 'read',
    output: listDirectoryOutput,
    input: listDirectoryInput,
    aliases: LIST_DIRECTORY_ALIASES,
    async execute(input) {
      const folder = await workspace.resolveDirectory(orRoot(input.path));
      const dirents = await workspace.list(folder.absolute);
      dirents.sort(compareEntries);
      const shownName = folder.relative === '.' ? 'the workspace root' : `\`${folder.relative}/\``;
      if (dirents.length === 0) {
        return { text: `${shownName} is empty.`, data: { path: folder.relative, entries: [], omitted: 0 } };
      }

      const header = `Entries of ${shownName} (${describeCounts(dirents)}):`;
      const lines = [header];
      const entries: DirectoryEntry[] = [];
      let length = header.length;
      let index = 0;
      listing: while (index < dirents.length) {
        const batch = dirents.slice(index, index + STAT_BATCH);
        const described = await Promise.all(batch.map((dirent) => describeEntry(folder.absolute, dirent, workspace)));
        for (const entry of described) {
          const line = formatEntry(entry);
          if (length + line.length + 1 > maxReadCharacters - FOOTER_RESERVE) break listing;
          lines.push(line);
          entries.push(entry);
          length += line.length + 1;
          index += 1;
        }
      }
      const omitted = dirents.length - index;
      if (omitted > 0) {
        lines.push(
          `… ${formatCount(omitted)} more ${omitted === 1 ? 'entry' : 'entries'} not shown (the reply limit is ${formatCount(maxReadCharacters)} characters). Use find_files with a pattern to narrow the list.`,
        );
      }
      return { text: capReply(lines.join('\n'), maxReadCharacters), data: { path: folder.relative, entries, omitted } };
    },
  }), workspace, { path: 'existing' });
}

/** Folders first, then everything else, each group in name order. */
function compareEntries(a: Dirent, b: Dirent): number {
  const folderA = a.isDirectory() ? 0 : 1;
  const folderB = b.isDirectory() ? 0 : 1;
  if (folderA !== folderB) return folderA - folderB;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function describeCounts(dirents: readonly Dirent[]): string {
  let folders = 0;
  let files = 0;
  let links = 0;
  for (const dirent of dirents) {
    if (dirent.isDirectory()) folders += 1;
    else if (dirent.isSymbolicLink()) links += 1;
    else files += 1;
  }
  const parts = [plural(folders, 'folder'), plural(files, 'file')];
  if (links > 0) parts.push(plural(links, 'link'));
  return parts.join(', ');
}


async function describeEntry(
  folder: string,
  dirent: Dirent,
  workspace: ResolvedReadToolsOptions['workspace'],
): Promise<DirectoryEntry> {
  const absolute = path.join(folder, dirent.name);
  if (dirent.isDirectory()) return { name: dirent.name, type: 'folder' };
  if (dirent.isSymbolicLink()) {
    const target = await workspace.readLink(absolute).catch(() => '?');
    return { name: dirent.name, type: 'link', target };
  }
  if (dirent.isFile()) {
    const stats = await workspace.lstatOrUndefined(absolute);
    return stats === undefined ? { name: dirent.name, type: 'file' } : { name: dirent.name, type: 'file', size: stats.size };
  }
  return { name: dirent.name, type: 'other' };
}

function formatEntry(entry: DirectoryEntry): string {
  const name = shownName(entry.name);
  switch (entry.type) {
    case 'folder':
      return `${name}/`;
    case 'link':
      return `${name} -> ${shownName(entry.target ?? '')}`;
    case 'file':
      return entry.size === undefined ? `${name} (gone)` : `${name} (${formatCount(entry.size)} ${entry.size === 1 ? 'byte' : 'bytes'})`;
    default:
      return `${name} (special file)`;
  }
}
