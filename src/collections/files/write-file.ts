import { z } from 'zod';
import { PathError } from '../../errors/path-error.js';
import { ToolError } from '../../errors/tool-error.js';
import { defineTool } from '../../tool.js';
import { undecodedDiff, unifiedLineDiff } from './text/line-diff.js';
import { countTextLines, prevailingLineEndingOf, withLineEndingOf } from './text/line-scan.js';
import { recordWrite } from './guard/read-state.js';
import { decodeTextFile, encodeTextFile, hasBom } from './text/text-file.js';
import { countLines, plural } from './text/text.js';
import { recordChange } from './guard/undo.js';
import { WRITE_FIELDS, WRITE_FILE_DESCRIPTION } from './write-descriptions.js';
import { backupBeforeChange, contentHashInSlices, refusePrivate, requireFreshRead, withPathLocks, writePolicy, type WriteToolsContext } from './guard/write-guards.js';
import { writeFileOutput } from './output-schemas.js';
import { TimeSlicer } from '../../time-slice.js';
import { withPathRules } from './paths/path-fields.js';
import type { InputAliases } from '../../model-inputs/aliases.js';


const writeFileInput = z.object({
  path: z.string().describe(WRITE_FIELDS.path),
  content: z.string().describe(WRITE_FIELDS.writeContent),
});

/** Other harnesses' names for write_file's fields: Claude Code's and Gemini CLI's Write, Anthropic's text editor. */
export const WRITE_FILE_ALIASES: InputAliases = {
  file_path: 'path', // Claude Code, Gemini CLI
  filePath: 'path', // OpenCode
  file_text: 'content', // Anthropic's text editor
  contents: 'content',
};

/** What write_file answers, before anyone is asked, for a path it cannot overwrite. */
const WRITE_FILE_MUST_EXIST = {
  missing: (shown: string) => `\`${shown}\` does not exist; write_file only replaces existing files. Use create_file to make a new one.`,
  folder: (shown: string) => `\`${shown}\` is a folder, not a file. Use list_directory to see what it holds.`,
};

/** Lines an approval prompt counts exactly; past them it says "more than". */
const MAX_COUNTED_LINES = 100_000;

/**
 * `42 lines`, or `more than 100,000 lines`: the prompt is built synchronously, and counting the
 * lines of 10 MB of short ones held the event loop 350 ms.
 */
function describeLineCount(content: string): string {
  if (content.length <= MAX_COUNTED_LINES) return plural(countLines(content), 'line');
  let breaks = 0;
  for (let index = content.indexOf('\n'); index !== -1; index = content.indexOf('\n', index + 1)) {
    breaks += 1;
    if (breaks > MAX_COUNTED_LINES) return `more than ${plural(MAX_COUNTED_LINES, 'line')}`;
  }
  return plural(countLines(content), 'line');
}

/**
 * `write_file`: replaces the whole content of an existing file the session read in full.
 * Keeps the file's permissions and byte order mark, and its CRLF line endings when the new
 * content has only LF line breaks (what models write); content with any CRLF is written as given.
 */
export function createWriteFileTool(context: WriteToolsContext) {
  const { workspace } = context;
  return withPathRules(defineTool({
    name: 'write_file',
    description: WRITE_FILE_DESCRIPTION,
    kind: 'edit',
    effects: { idempotent: true },
    output: writeFileOutput,
    input: writeFileInput,
    aliases: WRITE_FILE_ALIASES,
    needsApproval: true,
    checkPolicy: writePolicy(workspace, (input: z.output<typeof writeFileInput>) => [
      { path: input.path, followFinalLink: true, needsRead: { toolName: 'write_file', whole: true }, mustExist: WRITE_FILE_MUST_EXIST },
    ]),
    describeCall: (input) => `Overwrite ${input.path} with ${describeLineCount(input.content)} (${plural(input.content.length, 'character')})`,
    execute: async (input, { session }) => {
      const resolved = await workspace.resolveFile(input.path).catch((error: unknown) => {
        if (error instanceof PathError && error.reason === 'not-found') {
          throw new ToolError(WRITE_FILE_MUST_EXIST.missing(error.path), { cause: error });
        }
        throw error;
      });
      const shown = resolved.relative;
      refusePrivate(workspace, resolved.absolute, shown);

      return withPathLocks([resolved.absolute], async () => {
        const stats = await workspace.statOrUndefined(resolved.absolute);
        if (stats === undefined) throw new ToolError(`\`${shown}\` no longer exists. Use create_file to make it again.`);
        requireFreshRead(session, resolved.absolute, stats, shown, { toolName: 'write_file', whole: true });
        const bytes = await workspace.readFile(resolved.absolute);
        // One time budget for the whole call: each step pauses when the slice it shares is used up.
        const slicer = new TimeSlicer();
        const decoded = await decodeTextFile(bytes, slicer);
        const before = 'problem' in decoded ? undefined : decoded.text;
        // A CRLF file stays CRLF when the model wrote plain LF; content with CRLF in it is taken as meant.
        const crlfFile = before !== undefined && (await prevailingLineEndingOf(before, slicer)) === '\r\n';
        const text = crlfFile && !input.content.includes('\r\n') ? await withLineEndingOf(input.content, '\r\n', slicer) : input.content;
        const keepBom = hasBom(bytes) && !text.startsWith('\uFEFF');
        const newBytes = await encodeTextFile(text, keepBom, slicer);
        if (newBytes.equals(bytes)) {
          return { text: `\`${shown}\` already has exactly this content; nothing was written.`, data: { path: shown, unchanged: true } };
        }

        const backup = await backupBeforeChange(context, shown, bytes);
        await workspace.writeFileAtomic(resolved.absolute, newBytes);
        const after = await workspace.statOrUndefined(resolved.absolute);
        if (after !== undefined) recordWrite(session, resolved.absolute, after);
        if (backup !== undefined) recordChange(session, workspace, { type: 'write', path: shown, backup, after: await contentHashInSlices(newBytes, slicer) });

        const diff = 'problem' in decoded ? undecodedDiff(shown, decoded.problem) : await unifiedLineDiff(shown, decoded.text, text, { slicer });
        const kept = [keepBom ? 'byte order mark' : undefined, crlfFile ? 'CRLF line endings' : undefined].filter((part) => part !== undefined);
        return {
          text: `Wrote \`${shown}\` (${plural(await countTextLines(text, slicer), 'line')})${kept.length > 0 ? `, keeping its ${kept.join(' and ')}` : ''}.`,
          data: { path: shown, diff, backup },
        };
      });
    },
  }), workspace, { path: 'existing' });
}

