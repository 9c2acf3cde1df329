import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import { defineTool } from '../../tool.js';
import { backupBeforeChange, refusePrivate, withPathLocks, writePolicy, type WriteToolsContext } from './guard/write-guards.js';
import { forgetRead } from './guard/read-state.js';
import { recordChange } from './guard/undo.js';
import { DELETE_FILE_DESCRIPTION, WRITE_FIELDS } from './write-descriptions.js';
import { deleteFileOutput } from './output-schemas.js';
import { withPathRules } from './paths/path-fields.js';
import type { InputAliases } from '../../model-inputs/aliases.js';
import { singlePath } from './input-aliases.js';

const deleteFileInput = z.object({
  path: z.string().describe(WRITE_FIELDS.deletePath),
});

/** Other names for delete_file's field. */
export const DELETE_FILE_ALIASES: InputAliases = {
  file_path: 'path', // Claude Code's and Gemini CLI's names for a file
  filePath: 'path', // OpenCode
  paths: singlePath('delete_file'), // one path in a list is that path
  recursive: { refuse: 'You sent `recursive`, but delete_file deletes one file or link, never a folder: leave it out and delete the files one by one, or ask the user' },
};

/** What delete_file answers, before anyone is asked, for a path it cannot delete. */
const DELETE_FILE_MUST_EXIST = {
  missing: (shown: string) => `\`${shown}\` does not exist, so nothing was deleted. Check the path with find_files or list_directory.`,
  folder: (shown: string) =>
    `\`${shown}\` is a folder; delete_file deletes only files and symbolic links, so nothing was deleted. Delete the files in it one by one, or ask the user.`,
};

/** `delete_file`: deletes one file, or a symbolic link itself (never its target). Folders are refused. */
export function createDeleteFileTool(context: WriteToolsContext) {
  const { workspace } = context;
  return withPathRules(defineTool({
    name: 'delete_file',
    description: DELETE_FILE_DESCRIPTION,
    kind: 'delete',
    output: deleteFileOutput,
    input: deleteFileInput,
    aliases: DELETE_FILE_ALIASES,
    needsApproval: true,
    describeCall: (input) => `Delete ${input.path}`,
    checkPolicy: writePolicy(workspace, (input: { path: string }) => [{ path: input.path, followFinalLink: false, mustExist: DELETE_FILE_MUST_EXIST }]),
    execute: async (input, { session }) => {
      const resolved = await workspace.resolve(input.path, { followFinalLink: false });
      const shown = resolved.relative;
      refusePrivate(workspace, resolved.absolute, shown);

      return withPathLocks([resolved.absolute], async () => {
        const stats = await workspace.lstatOrUndefined(resolved.absolute);
        if (stats === undefined) {
          throw new ToolError(DELETE_FILE_MUST_EXIST.missing(shown));
        }
        if (stats.isDirectory()) {
          throw new ToolError(DELETE_FILE_MUST_EXIST.folder(shown));
        }
        if (stats.isSymbolicLink()) {
          // No copy is needed: the link's target, kept in the undo record, is all there is to it.
          const target = await workspace.readLink(resolved.absolute);
          await workspace.remove(resolved.absolute);
          if (context.keepBackups) recordChange(session, workspace, { type: 'delete-link', path: shown, target });
          return { text: `Deleted the symbolic link \`${shown}\` (its target \`${target}\` was not touched).`, data: { path: shown, link: target } };
        }
        if (!stats.isFile()) {
          throw new ToolError(`\`${shown}\` is not a regular file (a device, socket or pipe), so delete_file left it alone. Ask the user to remove it.`);
        }
        const bytes = context.keepBackups ? await workspace.readFile(resolved.absolute) : undefined;
        const backup = bytes === undefined ? undefined : await backupBeforeChange(context, shown, bytes);
        await workspace.remove(resolved.absolute);
        forgetRead(session, resolved.absolute);
        if (backup !== undefined) recordChange(session, workspace, { type: 'delete', path: shown, backup, mode: stats.mode & 0o7777 });
        return { text: `Deleted \`${shown}\`.${backup === undefined ? '' : ` A copy is kept at \`${backup}\`.`}`, data: { path: shown, backup } };
      });
    },
  }), workspace, { path: 'existing' });
}
