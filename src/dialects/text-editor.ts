import { z } from 'zod';
import { applyPatchOperations, patchPolicyPaths } from '../collections/files/apply-patch/apply.js';
import { plural } from '../collections/files/text/text.js';
import { writePolicy, type WriteToolsContext } from '../collections/files/guard/write-guards.js';
import type { TextEditorOptions } from '../collections/files/index.js';
import { ToolError } from '../errors/tool-error.js';
import type { Session } from '../session.js';
import { defineTool, type ToolContext, type ToolDefinition, type ToolKind, type ToolOutput } from '../tool.js';
import { renameInOutput, requireTool, routedApproval, routedExecute, routedPolicy, type Route } from './route.js';

/** The name Anthropic gives its text editor tool (`text_editor_20250728`). */
export const TEXT_EDITOR_NAME = 'str_replace_based_edit_tool';

const textEditorInput = z.object({
  command: z.enum(['view', 'create', 'str_replace', 'insert']).describe('What to do: view a file or folder, create (or overwrite) a file, str_replace a unique string, insert lines.'),
  path: z.string().describe('File or folder, relative to the workspace root.'),
  view_range: z.array(z.number().int()).length(2).optional().describe('For view: [first line, last line], 1-based; -1 as the last means the end of the file.'),
  file_text: z.string().optional().describe('For create: the whole content.'),
  old_str: z.string().optional().describe('For str_replace: the exact text to replace; it must occur once.'),
  new_str: z.string().optional().describe('For str_replace: the new text (for insert, the same as insert_text).'),
  insert_line: z.number().int().min(0).optional().describe('For insert: the line after which to insert (0 for the top of the file).'),
  insert_text: z.string().optional().describe('For insert: the text to insert.'),
});
type TextEditorInput = z.output<typeof textEditorInput>;

/** How our messages' tool names read to a model that has the text editor. */
const NATIVE_NAMES: Readonly<Record<string, string>> = {
  'without start_line and end_line': 'without view_range',
  read_file: 'the view command',
  edit_file: 'str_replace',
  write_file: 'create',
  create_file: 'create',
  old_string: 'old_str',
  new_string: 'new_str',
  start_line: 'view_range',
  end_line: 'view_range',
};

/**
 * Anthropic's text editor (`text_editor_20250728`, named `str_replace_based_edit_tool`),
 * run by the file tools: `view` is `read_file` (numbered lines, `view_range`) or
 * `list_directory` for a folder, `create` is `create_file` for a new file and `write_file`
 * (whole read first, approval) for an existing one, `str_replace` is `edit_file` (read
 * before write, exactly one match, the closest lines on a miss), and `insert` puts lines
 * after `insert_line` through the same all-or-nothing writer as `apply_patch`. Each command
 * keeps the policy and approval default of the tool that does its work, and counts as that
 * tool's kind for approval modes (`view` is a read).
 */
export function createTextEditorTool(
  context: WriteToolsContext,
  tools: ReadonlyMap<string, ToolDefinition<any>>,
  options: TextEditorOptions = {},
): ToolDefinition<typeof textEditorInput> {
  const editor = textEditorParts(context, tools, options);
  return defineTool({
    name: TEXT_EDITOR_NAME,
    description:
      'A text editor for the workspace: view a file (numbered lines, view_range) or a folder, create a file (overwriting an existing one needs a whole view of it first), str_replace text that occurs exactly once, insert lines after insert_line. Files you change must have been viewed in this session and be unchanged since.',
    kind: 'edit',
    kindOf: (input): ToolKind => (input.command === 'view' ? 'read' : 'edit'),
    input: textEditorInput,
    checkPolicy: (input, { session }) => checkTextEditorPolicy(editor, input, session),
    needsApproval: async (input, { session }: { session: Session }) => {
      if (input.command === 'insert' || input.command === 'view') return false;
      const target = await route(editor, input).catch(() => undefined);
      return target === undefined ? false : routedApproval(target, TEXT_EDITOR_NAME, session);
    },
    describeCall: (input) => describeTextEditorCall(input, editor.editFile),
    execute: (input, toolContext: ToolContext) => executeTextEditorCommand(editor, input, toolContext),
  });
}

/** What the text editor's commands work with: the file tools that do their work, and `insert`'s own policy. */
interface TextEditorParts {
  readonly context: WriteToolsContext;
  readonly workspace: WriteToolsContext['workspace'];
  readonly options: TextEditorOptions;
  readonly readFile: ToolDefinition<any>;
  readonly listDirectory: ToolDefinition<any>;
  readonly createFile: ToolDefinition<any>;
  readonly writeFile: ToolDefinition<any>;
  readonly editFile: ToolDefinition<any>;
  readonly insertPolicy: (input: TextEditorInput, context: { session: Session }) => Promise<string | undefined>;
}

/** Checks the options and finds the file tools; throws when one is missing. */
function textEditorParts(context: WriteToolsContext, tools: ReadonlyMap<string, ToolDefinition<any>>, options: TextEditorOptions): TextEditorParts {
  const { workspace } = context;
  if (options.maxCharacters !== undefined && (!Number.isInteger(options.maxCharacters) || options.maxCharacters < 1)) {
    throw new TypeError(`Expected the \`maxCharacters\` option of the text editor to be a positive integer, got \`${String(options.maxCharacters)}\`.`);
  }
  const purpose = 'The text editor';
  return {
    context,
    workspace,
    options,
    readFile: requireTool(tools, 'read_file', purpose),
    listDirectory: requireTool(tools, 'list_directory', purpose),
    createFile: requireTool(tools, 'create_file', purpose),
    writeFile: requireTool(tools, 'write_file', purpose),
    editFile: requireTool(tools, 'edit_file', purpose),
    insertPolicy: writePolicy(workspace, (input: TextEditorInput) => patchPolicyPaths(insertOperations(input), TEXT_EDITOR_NAME)),
  };
}

/** The tool that does a command's work, and its input; `insert` has none (it is done here). */
async function route(editor: TextEditorParts, input: TextEditorInput): Promise<Route | undefined> {
  switch (input.command) {
    case 'view':
      return viewRoute(editor, input);
    case 'create': {
      if (input.file_text === undefined) throw new ToolError('create needs file_text: the whole content of the file.');
      const existing = await editor.workspace.resolve(input.path, { followFinalLink: false }).then((resolved) => resolved.exists, () => false);
      return { tool: existing ? editor.writeFile : editor.createFile, input: { path: input.path, content: input.file_text } };
    }
    case 'str_replace':
      if (input.old_str === undefined) throw new ToolError('str_replace needs old_str: the exact text to replace, copied from the view output without the line numbers.');
      return { tool: editor.editFile, input: { path: input.path, old_string: input.old_str, new_string: input.new_str ?? '' } };
    case 'insert':
      return undefined;
  }
}

async function viewRoute(editor: TextEditorParts, input: TextEditorInput): Promise<Route> {
  const { workspace } = editor;
  const resolved = await workspace.resolve(input.path);
  const stats = resolved.exists ? await workspace.statOrUndefined(resolved.absolute) : undefined;
  if (stats?.isDirectory()) {
    if (input.view_range !== undefined) throw new ToolError(`\`${resolved.relative}\` is a folder; view_range applies to files only. View it without view_range to list it.`);
    return { tool: editor.listDirectory, input: { path: input.path } };
  }
  const [first, last] = input.view_range ?? [];
  return { tool: editor.readFile, input: { path: input.path, ...(first === undefined ? {} : { start_line: first }), ...(last === undefined || last === -1 ? {} : { end_line: last }) } };
}

async function checkTextEditorPolicy(editor: TextEditorParts, input: TextEditorInput, session: Session): Promise<string | undefined> {
  try {
    if (input.command === 'insert') return await editor.insertPolicy(input, { session });
    const target = await route(editor, input);
    return target === undefined ? undefined : renameMessage(await routedPolicy(target, TEXT_EDITOR_NAME, session));
  } catch (error) {
    if (error instanceof ToolError) return renameMessage(error.message);
    throw error;
  }
}

async function executeTextEditorCommand(editor: TextEditorParts, input: TextEditorInput, toolContext: ToolContext): Promise<ToolOutput> {
  if (input.command === 'insert') return withErrorsRenamed(() => insert(editor.context, toolContext.session, input));
  return withErrorsRenamed(async () => {
    const output = await routedExecute((await route(editor, input))!, TEXT_EDITOR_NAME, toolContext);
    return input.command === 'view' ? capView(output, editor.options.maxCharacters) : output;
  });
}

/** Runs `run` with our tool names in its reply and errors read as the text editor's own. */
async function withErrorsRenamed(run: () => Promise<ToolOutput>): Promise<ToolOutput> {
  try {
    return renameInOutput(await run(), NATIVE_NAMES);
  } catch (error) {
    if (error instanceof ToolError) throw new ToolError(renameInOutput(error.message, NATIVE_NAMES) as string, { cause: error, data: error.data });
    throw error;
  }
}

function renameMessage(message: string | undefined): string | undefined {
  return message === undefined ? undefined : (renameInOutput(message, NATIVE_NAMES) as string);
}

function insertText(input: TextEditorInput): string {
  const text = input.insert_text ?? input.new_str;
  if (text === undefined) throw new ToolError('insert needs insert_text: the lines to insert.');
  if (input.insert_line === undefined) throw new ToolError('insert needs insert_line: the line after which to insert (0 for the top of the file).');
  return text;
}

function insertOperations(input: TextEditorInput) {
  const text = insertText(input);
  const lines = text.replaceAll('\r\n', '\n').replace(/\n$/, '').split('\n');
  return [{
    type: 'update' as const,
    path: input.path,
    chunks: [{ anchors: [], lines: lines.map((line) => ({ kind: '+' as const, text: line })), endOfFile: false, patchLine: 1, insertAfterLine: input.insert_line! }],
  }];
}

async function insert(context: WriteToolsContext, session: Session, input: TextEditorInput): Promise<ToolOutput> {
  const operations = insertOperations(input);
  const output = await applyPatchOperations(context, session, operations, TEXT_EDITOR_NAME);
  const count = operations[0]!.chunks[0]!.lines.length;
  const after = input.insert_line === 0 ? 'at the top' : `after line ${input.insert_line}`;
  const first = input.insert_line! + 1;
  const range = count === 1 ? `line ${first}` : `lines ${first}–${first + count - 1}`;
  const data = typeof output === 'string' ? undefined : output.data;
  return { text: `Inserted ${plural(count, 'line')} into \`${input.path}\` ${after}; they are now ${range}.`, data };
}

/** Cuts a `view` reply at the spec's `max_characters`, saying where to go on. */
function capView(output: ToolOutput, maxCharacters: number | undefined): ToolOutput {
  const text = typeof output === 'string' ? output : output.text;
  if (maxCharacters === undefined || text.length <= maxCharacters) return output;
  const note = `\n[… cut at ${maxCharacters.toLocaleString('en-US')} characters; view a smaller view_range to see the rest.]`;
  const cut = text.slice(0, Math.max(0, maxCharacters - note.length));
  const kept = cut.lastIndexOf('\n') > cut.length / 2 ? cut.slice(0, cut.lastIndexOf('\n')) : cut;
  return typeof output === 'string' ? kept + note : { ...output, text: kept + note };
}

function describeTextEditorCall(input: TextEditorInput, editFile: ToolDefinition<any>): string {
  switch (input.command) {
    case 'view':
      return `View ${input.path}${input.view_range === undefined ? '' : ` (lines ${input.view_range.join(' to ')})`}`;
    case 'create': {
      const text = input.file_text ?? '';
      const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      return `Create or overwrite ${input.path} with ${plural(lines, 'line')} (${plural(text.length, 'character')})`;
    }
    case 'str_replace':
      return editFile.describeCall?.({ path: input.path, old_string: input.old_str ?? '', new_string: input.new_str ?? '' }) ?? `Edit ${input.path}`;
    case 'insert': {
      const text = input.insert_text ?? input.new_str ?? '';
      return `Insert into ${input.path} after line ${input.insert_line ?? '?'}:\n${text.replace(/\n$/, '').split('\n').map((line) => `+${line}`).join('\n')}`;
    }
  }
}
