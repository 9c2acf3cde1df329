import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import { defineTool } from '../../tool.js';
import { errorCode } from '../../workspace/file-system-errors.js';
import { makeParents } from './create-file.js';
import { forgetRead, readSnapshot, recordRead } from './guard/read-state.js';
import { fingerprint, recordChange } from './guard/undo.js';
import { MOVE_FILE_DESCRIPTION, WRITE_FIELDS } from './write-descriptions.js';
import { refusePrivate, withPathLocks, writePolicy, type WriteToolsContext } from './guard/write-guards.js';
import { moveFileOutput } from './output-schemas.js';
import { withPathRules } from './paths/path-fields.js';
import type { InputAliases } from '../../model-inputs/aliases.js';

const moveFileInput = z.object({
  source: z.string().describe(WRITE_FIELDS.source),
  destination: z.string().describe(WRITE_FIELDS.destination),
});

/** Other names for move_file's fields (the MCP filesystem server's are ours). */
export const MOVE_FILE_ALIASES: InputAliases = {
  source_path: 'source',
  from: 'source',
  old_path: 'source',
  destination_path: 'destination',
  to: 'destination',
  new_path: 'destination',
  overwrite: { refuse: 'You sent `overwrite`, but move_file never overwrites: leave it out, and if the destination must go, ask the user or delete it with delete_file first' },
};

/** `move_file`: moves a file, folder or link (the link itself), never over an existing path. */
export function createMoveFileTool(context: WriteToolsContext) {
  const { workspace } = context;
  return withPathRules(defineTool({
    name: 'move_file',
    description: MOVE_FILE_DESCRIPTION,
    kind: 'move',
    effects: { destructive: false, idempotent: true },
    output: moveFileOutput,
    input: moveFileInput,
    aliases: MOVE_FILE_ALIASES,
    describeCall: (input) => `Move ${input.source} to ${input.destination}`,
    checkPolicy: writePolicy(workspace, (input: z.output<typeof moveFileInput>) => [
      { path: input.source, followFinalLink: false },
      { path: input.destination, followFinalLink: false },
    ]),
    execute: async (input, { session }) => {
      const source = await workspace.resolve(input.source, { followFinalLink: false });
      const destination = await workspace.resolve(input.destination, { followFinalLink: false });
      refusePrivate(workspace, source.absolute, source.relative);
      refusePrivate(workspace, destination.absolute, destination.relative);
      if (source.absolute === workspace.root) throw new ToolError('The workspace root folder cannot be moved. Give the path of a file or folder inside it.');
      if (source.absolute === destination.absolute) {
        throw new ToolError(`source and destination are the same path (\`${source.relative}\`), so nothing was moved.`);
      }
      if (destination.absolute.startsWith(`${source.absolute}/`)) {
        throw new ToolError(`\`${destination.relative}\` is inside \`${source.relative}\`; a folder cannot be moved into itself. Choose a destination outside it.`);
      }

      return withPathLocks([source.absolute, destination.absolute], async () => {
        const stats = await workspace.lstatOrUndefined(source.absolute);
        if (stats === undefined) {
          throw new ToolError(`\`${source.relative}\` does not exist, so nothing was moved. Check the path with find_files or list_directory.`);
        }
        const existing = await workspace.lstatOrUndefined(destination.absolute);
        if (existing !== undefined) throw destinationExists(destination.relative, existing.isDirectory(), source.relative);
        await makeParents(context, destination.absolute, destination.relative);
        try {
          await workspace.renameExclusive(source.absolute, destination.absolute);
        } catch (error) {
          if (errorCode(error) === 'EEXIST') throw destinationExists(destination.relative, false, source.relative);
          throw error;
        }

        // The content did not change, so a read of the file counts for its new path.
        const snapshot = readSnapshot(session, source.absolute);
        forgetRead(session, source.absolute);
        if (snapshot !== undefined) recordRead(session, destination.absolute, snapshot, snapshot.whole);
        if (context.keepBackups) {
          const after = await fingerprint(workspace, destination.absolute);
          if (after !== undefined) recordChange(session, workspace, { type: 'move', from: source.relative, to: destination.relative, after });
        }
        const what = stats.isSymbolicLink() ? 'the symbolic link ' : stats.isDirectory() ? 'the folder ' : '';
        return {
          text: `Moved ${what}\`${source.relative}\` to \`${destination.relative}\`.`,
          data: { source: source.relative, destination: destination.relative },
        };
      });
    },
  }), workspace, { source: 'existing', destination: 'new' });
}

function destinationExists(shown: string, isFolder: boolean, source: string): ToolError {
  const name = source.split('/').at(-1)!;
  return isFolder
    ? new ToolError(
        `\`${shown}\` is an existing folder, and move_file never overwrites. To move into it, give the full new path, such as \`${shown}/${name}\`.`,
      )
    : new ToolError(`\`${shown}\` already exists, and move_file never overwrites, so nothing was moved. Choose another destination, or delete \`${shown}\` first if it is really no longer wanted.`);
}
