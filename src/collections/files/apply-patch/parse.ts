/**
 * The V4A patch format that OpenAI's coding models write for `apply_patch`, parsed strictly.
 * No maintained JavaScript parser of it exists as a library (the reference parsers live inside
 * agent products), so this is ours; its grammar, one rule per line:
 *
 * ```text
 * patch      := "*** Begin Patch" NL operation+ "*** End Patch" NL?
 * operation  := add | delete | update
 * add        := "*** Add File: " path NL ("+" text NL)*
 * delete     := "*** Delete File: " path NL
 * update     := "*** Update File: " path NL ("*** Move to: " path NL)? chunk*
 * chunk      := ("@@" | "@@ " anchor) NL ... (change NL)+ ("*** End of File" NL)?
 * change     := (" " | "-" | "+") text      (an empty line counts as the context line "")
 * ```
 *
 * The first chunk of an update may leave out its `@@` line. An `@@ anchor` names a line of
 * the file (a function's signature, say) that the chunk's lines follow; several in a row
 * narrow the place down, one after another. Line breaks in the patch may be LF or CRLF.
 * The native Responses API `apply_patch` call sends one file at a time without the envelope:
 * {@link parseUpdateDiff} and {@link parseCreateDiff} read those diffs.
 */
import { ToolError } from '../../../errors/tool-error.js';

/** One line of a chunk: kept (` `), taken out (`-`) or put in (`+`). */
export interface ChunkLine {
  readonly kind: ' ' | '-' | '+';
  readonly text: string;
}

/** A run of changes in one place of a file. */
export interface PatchChunk {
  /** `@@ …` lines the chunk follows, in order; empty when the chunk has none (or only a bare `@@`). */
  readonly anchors: readonly string[];
  readonly lines: readonly ChunkLine[];
  /** `*** End of File` closed the chunk: its lines must end the file. */
  readonly endOfFile: boolean;
  /** Where the chunk starts in the patch text, 1-based, for messages. */
  readonly patchLine: number;
  /**
   * Put the `+` lines after this line of the file (0: before the first) instead of finding
   * the chunk by its context. Not part of V4A: the text editor's `insert` uses it.
   */
  readonly insertAfterLine?: number;
}

/** One file's change in a patch. */
export type PatchOperation =
  | { readonly type: 'add'; readonly path: string; readonly lines: readonly string[] }
  | { readonly type: 'delete'; readonly path: string }
  | { readonly type: 'update'; readonly path: string; readonly moveTo?: string; readonly chunks: readonly PatchChunk[] };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';

/** What to tell the model about the format when a patch does not follow it. */
const FORMAT_HINT =
  'A patch starts with `*** Begin Patch`, ends with `*** End Patch`, and holds `*** Add File: path` (then every line prefixed with `+`), `*** Delete File: path`, or `*** Update File: path` (optionally `*** Move to: new/path`, then chunks of ` ` context, `-` removed and `+` added lines, each chunk opened by `@@` or `@@ a line of the file it follows`). Fix the patch and send the whole of it again.';

/**
 * Parses a whole patch, `*** Begin Patch` to `*** End Patch`.
 *
 * @throws {ToolError} naming the patch line that breaks the format, what was expected, and
 *   the format in brief.
 */
export function parsePatch(patch: string): PatchOperation[] {
  const lines = splitPatchLines(patch.trim());
  if (lines[0]?.trim() !== BEGIN) fail(1, `the patch must start with \`${BEGIN}\`, but it starts with \`${preview(lines[0] ?? '')}\``);
  const last = lines.length - 1;
  if (last < 1 || lines[last]!.trim() !== END) fail(lines.length, `the patch must end with \`${END}\`, but it ends with \`${preview(lines[last] ?? '')}\``);

  const operations: PatchOperation[] = [];
  let index = 1;
  while (index < last) {
    const line = lines[index]!;
    if (line.startsWith(ADD)) {
      const path = pathAfter(line, ADD, index + 1);
      const end = nextHeader(lines, index + 1, last);
      const section = lines.slice(index + 1, end);
      while (section.length > 0 && section.at(-1)!.trim() === '') section.pop();
      const added = section.map((content, offset) => {
        if (!content.startsWith('+')) {
          fail(index + 2 + offset, `every line of an added file must start with \`+\`, but this one is \`${preview(content)}\` (in \`*** Add File: ${path}\`)`);
        }
        return content.slice(1);
      });
      operations.push({ type: 'add', path, lines: added });
      index = end;
    } else if (line.startsWith(DELETE)) {
      operations.push({ type: 'delete', path: pathAfter(line, DELETE, index + 1) });
      index += 1;
      if (index < last && !isOperationHeader(lines[index]!) && lines[index]!.trim() !== '') {
        fail(index + 1, `\`*** Delete File:\` takes no lines after it, but \`${preview(lines[index]!)}\` follows`);
      }
      while (index < last && lines[index]!.trim() === '') index += 1;
    } else if (line.startsWith(UPDATE)) {
      const path = pathAfter(line, UPDATE, index + 1);
      index += 1;
      let moveTo: string | undefined;
      if (index < last && lines[index]!.startsWith(MOVE)) {
        moveTo = pathAfter(lines[index]!, MOVE, index + 1);
        index += 1;
      }
      const end = nextHeader(lines, index, last);
      const section = lines.slice(index, end);
      // Blank lines before the next header separate operations; they are not context.
      while (section.length > 0 && section.at(-1)!.trim() === '') section.pop();
      const chunks = parseChunks(section, index + 1, `*** Update File: ${path}`);
      if (chunks.length === 0 && moveTo === undefined) fail(index + 1, `\`*** Update File: ${path}\` has no changes; give at least one chunk of \`-\`/\`+\` lines, or leave the file out`);
      operations.push({ type: 'update', path, ...(moveTo === undefined ? {} : { moveTo }), chunks });
      index = end;
    } else if (line.trim() === '') {
      index += 1;
    } else {
      fail(index + 1, `expected \`*** Add File:\`, \`*** Delete File:\` or \`*** Update File:\`, got \`${preview(line)}\``);
    }
  }
  if (operations.length === 0) fail(2, 'the patch changes no file');
  return operations;
}

/**
 * Parses the diff of one native `update_file` operation: the chunks of an update, without
 * the envelope or the file header.
 *
 * @throws {ToolError} naming the diff line that breaks the format.
 */
export function parseUpdateDiff(diff: string, path: string): PatchChunk[] {
  const lines = splitPatchLines(diff);
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  const chunks = parseChunks(lines, 1, `the diff for \`${path}\``);
  if (chunks.length === 0) fail(1, `the diff for \`${path}\` has no changes`);
  return chunks;
}

/**
 * Parses the diff of one native `create_file` operation: the new file's lines, each
 * prefixed with `+`.
 *
 * @throws {ToolError} naming a line without the `+`.
 */
export function parseCreateDiff(diff: string, path: string): string[] {
  const lines = splitPatchLines(diff);
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines.map((line, index) => {
    if (!line.startsWith('+')) fail(index + 1, `every line of a new file's diff must start with \`+\`, but this one is \`${preview(line)}\` (creating \`${path}\`)`);
    return line.slice(1);
  });
}

/** Chunks of an update; `firstLine` is where `lines` start in the patch, for messages. */
function parseChunks(lines: readonly string[], firstLine: number, where: string): PatchChunk[] {
  const chunks: PatchChunk[] = [];
  let anchors: string[] = [];
  let body: ChunkLine[] = [];
  let start = firstLine;
  let sawHeader = false;
  const close = (endOfFile: boolean) => {
    if (body.length === 0) return;
    if (!body.some((line) => line.kind !== ' ')) fail(start, `a chunk of ${where} has only context lines and changes nothing; add its \`-\` and \`+\` lines or leave it out`);
    chunks.push({ anchors, lines: body, endOfFile, patchLine: start });
    anchors = [];
    body = [];
    sawHeader = false;
  };
  for (const [offset, line] of lines.entries()) {
    const patchLine = firstLine + offset;
    if (line === '@@' || line.startsWith('@@ ')) {
      if (body.length > 0) close(false);
      if (!sawHeader) start = patchLine;
      sawHeader = true;
      const anchor = line.slice(2).trim();
      // A unified-diff range (`@@ -12,7 +12,8 @@`) carries no text to find; models add it out of habit.
      if (anchor !== '' && !/^-\d+(,\d+)? \+\d+(,\d+)? @@/.test(anchor)) anchors.push(anchor.replace(/\s*@@$/, ''));
      continue;
    }
    if (line === END_OF_FILE) {
      if (body.length === 0) fail(patchLine, `\`${END_OF_FILE}\` must close a chunk of changes (in ${where})`);
      close(true);
      continue;
    }
    if (body.length === 0 && !sawHeader) start = patchLine;
    const marker = line[0];
    if (line === '') body.push({ kind: ' ', text: '' });
    else if (marker === ' ' || marker === '-' || marker === '+') body.push({ kind: marker, text: line.slice(1) });
    else if (line.startsWith('***')) fail(patchLine, `\`${preview(line)}\` is not a line of the V4A format (in ${where})`);
    else fail(patchLine, `each line of a chunk must start with a space (context), \`-\` (removed) or \`+\` (added), but this one is \`${preview(line)}\` (in ${where})`);
  }
  close(false);
  return chunks;
}

function splitPatchLines(text: string): string[] {
  return text.replaceAll('\r\n', '\n').split('\n');
}

function isOperationHeader(line: string): boolean {
  return line.startsWith(ADD) || line.startsWith(DELETE) || line.startsWith(UPDATE);
}

function nextHeader(lines: readonly string[], from: number, last: number): number {
  let index = from;
  while (index < last && !isOperationHeader(lines[index]!)) index += 1;
  return index;
}

function pathAfter(line: string, prefix: string, patchLine: number): string {
  const path = line.slice(prefix.length).trim();
  if (path === '') fail(patchLine, `\`${prefix.trim()}\` needs a path after it`);
  return path;
}

function preview(line: string): string {
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}

function fail(patchLine: number, problem: string): never {
  throw new ToolError(`The patch is not valid V4A at line ${patchLine}: ${problem}. Nothing was changed. ${FORMAT_HINT}`);
}
