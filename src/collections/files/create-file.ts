import * as path from 'node:path';
import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import { defineTool } from '../../tool.js';
import { errorCode } from '../../workspace/file-system-errors.js';
import { recordWrite } from './guard/read-state.js';
import { countLines, plural } from './text/text.js';
import { recordChange } from './guard/undo.js';
import { CREATE_FILE_DESCRIPTION, WRITE_FIELDS } from './write-descriptions.js';
import { contentHash, refusePrivate, withPathLocks, writePolicy, type WriteToolsContext } from './guard/write-guards.js';
import { createFileOutput } from './output-schemas.js';
import { withPathRules } from './paths/path-fields.js';
import type { InputAliases } from '../../model-inputs/aliases.js';

const createFileInput = z.object({
  path: z.string().describe(WRITE_FIELDS.path),
  content: z.string().describe(WRITE_FIELDS.createContent),
});

/** Other harnesses' names for create_file's fields: Claude Code's and Gemini CLI's Write, Anthropic's text editor. */
export const CREATE_FILE_ALIASES: InputAliases = {
  file_path: 'path', // Claude Code, Gemini CLI
  filePath: 'path', // OpenCode
  file_text: 'content', // Anthropic's text editor
  contents: 'content',
  overwrite: { refuse: 'You sent `overwrite`, but create_file never overwrites: leave it out for a new file; to replace an existing one, read it whole with read_file and call write_file with path and content' },
};

/** `create_file`: makes a new file, never replacing one, even one that appears while it writes. */
export function createCreateFileTool(context: WriteToolsContext) {
  const { workspace } = context;
  return withPathRules(defineTool({
    name: 'create_file',
    description: CREATE_FILE_DESCRIPTION,
    kind: 'edit',
    effects: { destructive: false, idempotent: true },
    output: createFileOutput,
    input: createFileInput,
    aliases: CREATE_FILE_ALIASES,
    describeCall: (input) => `Create ${input.path} (${describeSize(input.content)})`,
    checkPolicy: writePolicy(workspace, (input: z.output<typeof createFileInput>) => [{ path: input.path, followFinalLink: false }]),
    execute: async (input, { session }) => {
      // The path itself, not what a link there points to: any entry at the path means "exists".
      const resolved = await workspace.resolve(input.path, { followFinalLink: false });
      const shown = resolved.relative;
      refusePrivate(workspace, resolved.absolute, shown);
      if (resolved.absolute === workspace.root) throw new ToolError('The path names the workspace root folder. Give the path of the new file, such as `src/new-file.ts`.');

      return withPathLocks([resolved.absolute], async () => {
        const existing = await workspace.lstatOrUndefined(resolved.absolute);
        if (existing !== undefined) throw alreadyExists(shown, existing.isDirectory());
        await makeParents(context, resolved.absolute, shown);
        const bytes = Buffer.from(input.content, 'utf8');
        try {
          await workspace.writeFileAtomic(resolved.absolute, bytes, { exclusive: true });
        } catch (error) {
          // Something made the file between the check and the write: it is left as it is.
          if (errorCode(error) === 'EEXIST') throw alreadyExists(shown, false);
          throw error;
        }
        const stats = await workspace.statOrUndefined(resolved.absolute);
        if (stats !== undefined) recordWrite(session, resolved.absolute, stats);
        if (context.keepBackups) recordChange(session, workspace, { type: 'create', path: shown, after: contentHash(bytes) });
        return { text: `Created \`${shown}\` (${describeSize(input.content)}).`, data: { path: shown } };
      });
    },
  }), workspace, { path: 'new' });
}

/** Makes the missing folders above a new file, explaining a file that stands where a folder must be. */
export async function makeParents(context: WriteToolsContext, absolute: string, shown: string): Promise<void> {
  try {
    await context.workspace.makeDirectory(path.dirname(absolute));
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new ToolError(`Cannot make \`${shown}\`: a file stands where one of its parent folders must be (${path.dirname(shown)}). Choose another path.`, {
        cause: error,
      });
    }
    throw error;
  }
}

function alreadyExists(shown: string, isFolder: boolean): ToolError {
  return isFolder
    ? new ToolError(`\`${shown}\` already exists as a folder, so create_file did nothing. Give the path of the new file inside it, such as \`${shown}/new-file.txt\`.`)
    : new ToolError(
        `\`${shown}\` already exists, and create_file never overwrites. To change it, read it with read_file and use edit_file (or write_file to replace it whole); to keep it, choose another path.`,
      );
}

function describeSize(content: string): string {
  if (content === '') return 'empty';
  return `${plural(countLines(content), 'line')}, ${plural(content.length, 'character')}`;
}
