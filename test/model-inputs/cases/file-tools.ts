/**
 * The file tools as models trained on other harnesses call them: Claude Code's `file_path`,
 * `offset`/`limit` and Grep flags, Anthropic's `old_str`/`new_str` and `view_range`, Gemini
 * CLI's `dir_path` and 0-based `offset`, OpenCode's `filePath`, Codex's `workdir`, a regex
 * given to find_files; and the edit_file misses models make again and again (line numbers
 * pasted from a numbered view, `\n` as two characters, curly quotes, HTML entities, spaces
 * for a Makefile's tab, a re-indented Python block). Each is salvaged where that is certain,
 * and refused otherwise with the call to make next.
 */
import type { ModelInputCase } from '../case.js';
import { REPOSITORY } from '../repository.js';

const STRINGS = REPOSITORY['src/util/strings.ts']!;
const CONFIG = REPOSITORY['src/config.ts']!;
const BUILD = REPOSITORY['scripts/build.py']!;
const WINDOWS = REPOSITORY['src/windows.ts']!;
const GUIDE = REPOSITORY['docs/guide.md']!;
const read = (path: string) => ({ tool: 'read_file', input: { path } });
/** The note a call read under other names ends with. */
const readAs = (key: string, field: string) => `Read \`${key}\` as \`${field}\``;

const readRanges: readonly ModelInputCase[] = [
  { name: "Claude Code's Read with file_path", source: 'Claude Code Read: file_path', tool: 'read_file', input: { file_path: 'src/config.ts' }, expect: { outcome: 'salvaged', reply: readAs('file_path', 'path') } },
  { name: "OpenCode's filePath", source: 'OpenCode read: filePath', tool: 'read_file', input: { filePath: 'src/config.ts' }, expect: { outcome: 'salvaged', reply: readAs('filePath', 'path') } },
  { name: "Gemini CLI's absolute_path (with a relative path in it)", source: 'Gemini CLI read_file: absolute_path', tool: 'read_file', input: { absolute_path: 'src/config.ts' }, expect: { outcome: 'salvaged', reply: 'lines 1-4 of 4' } },
  {
    name: "Claude Code's offset and limit: every line either counting meant",
    source: 'issue 26 (d): offset/limit read lines 1–673 as if asked; Claude Code counts offset from 1, Gemini CLI from 0',
    tool: 'read_file',
    input: { file_path: 'src/util/strings.ts', offset: 5, limit: 2 },
    expect: { outcome: 'salvaged', reply: 'lines 5-7 of 7' },
  },
  { name: "Gemini CLI's offset 0 with a limit", source: 'Gemini CLI read_file: 0-based offset', tool: 'read_file', input: { file_path: 'src/util/strings.ts', offset: 0, limit: 3 }, expect: { outcome: 'salvaged', reply: 'lines 1-3 of 7' } },
  { name: 'offset and limit as text', tool: 'read_file', input: { path: 'src/util/strings.ts', offset: '5', limit: '1' }, expect: { outcome: 'salvaged', reply: 'lines 5-6 of 7' } },
  { name: 'a limit beside our own start_line is exact', tool: 'read_file', input: { path: 'src/util/strings.ts', start_line: 2, limit: 2 }, expect: { outcome: 'salvaged', reply: 'lines 2-3 of 7' } },
  { name: "the MCP filesystem server's head", source: 'MCP filesystem server read_text_file: head', tool: 'read_file', input: { path: 'src/util/strings.ts', head: 2 }, expect: { outcome: 'salvaged', reply: 'lines 1-2 of 7' } },
  { name: 'end_line -1 for the end of the file', source: "Anthropic's view_range: -1 is the end", tool: 'read_file', input: { path: 'src/util/strings.ts', start_line: 5, end_line: -1 }, expect: { outcome: 'salvaged', reply: 'lines 5-7 of 7 (end of file)' } },
  { name: "Anthropic's view_range is refused with the two fields", source: 'issue 26 (d): view_range ignored', tool: 'read_file', input: { path: 'src/util/strings.ts', view_range: [2, 3] }, expect: { outcome: 'refused', fix: 'send start_line=2 end_line=3 instead of `view_range`' } },
  { name: 'view_range to the end', tool: 'read_file', input: { path: 'src/util/strings.ts', view_range: [5, -1] }, expect: { outcome: 'refused', fix: 'send start_line=5 and no end_line (to read to the end)' } },
  { name: 'a range as text', source: 'issue 26 (d): lines: "2000-2010"', tool: 'read_file', input: { path: 'src/util/strings.ts', lines: '2-3' }, expect: { outcome: 'refused', fix: 'send start_line=2 end_line=3 instead of `lines`' } },
  { name: 'start_line 0, counting from 0', tool: 'read_file', input: { path: 'src/config.ts', start_line: 0, end_line: 2 }, expect: { outcome: 'refused', fix: 'send start_line=1 to start at the first line' } },
  { name: 'end_line 0', tool: 'read_file', input: { path: 'src/config.ts', end_line: 0 }, expect: { outcome: 'refused', fix: 'leave end_line out (or send -1) to read to the end' } },
  { name: 'tail, which read_file cannot count', tool: 'read_file', input: { path: 'src/config.ts', tail: 2 }, expect: { outcome: 'refused', fix: 'then read the last lines with start_line=TOTAL-N+1' } },
  { name: 'a negative offset', tool: 'read_file', input: { file_path: 'src/config.ts', offset: -2 }, expect: { outcome: 'refused', fix: 'send `start_line` as a line number counted from 1' } },
  { name: 'a limit of 0 lines', tool: 'read_file', input: { file_path: 'src/config.ts', limit: 0 }, expect: { outcome: 'refused', fix: 'send `end_line`, the last line to show (counted from 1), or leave `limit` out' } },
];

const searches: readonly ModelInputCase[] = [
  {
    name: "Claude Code's Grep in content mode with -n and a glob",
    source: 'Claude Code Grep: output_mode, -n, glob',
    tool: 'search_files',
    input: { pattern: 'function greet', output_mode: 'content', '-n': true, glob: '*.ts' },
    expect: { outcome: 'salvaged', reply: '1: export function greet(name: string): string {' },
  },
  { name: 'Grep listing files', tool: 'search_files', input: { pattern: 'greet', output_mode: 'files_with_matches' }, expect: { outcome: 'salvaged', reply: 'src/app.ts' } },
  { name: 'Grep counting', tool: 'search_files', input: { pattern: 'export', output_mode: 'count' }, expect: { outcome: 'salvaged', reply: 'Read `output_mode` "count" as `mode` "counts"' } },
  { name: "Grep's -i", source: 'issue 26 (d): case flags ignored', tool: 'search_files', input: { pattern: 'HELLO', '-i': true }, expect: { outcome: 'salvaged', reply: 'src/util/strings.ts' } },
  { name: "Grep's head_limit", tool: 'search_files', input: { pattern: 'export', head_limit: 1 }, expect: { outcome: 'salvaged', reply: 'Read `head_limit` 1 as `limit` 1' } },
  { name: "Grep's type, which is not a glob", source: 'Claude Code Grep: type', tool: 'search_files', input: { pattern: 'def ', type: 'py' }, expect: { outcome: 'refused', fix: 'send `include: "*.py"` instead of `type`' } },
  { name: "Grep's type ts", tool: 'search_files', input: { pattern: 'greet', type: 'ts' }, expect: { outcome: 'refused', fix: 'send `include: "*.{ts,tsx}"` instead of `type`' } },
  { name: "Grep's context lines", tool: 'search_files', input: { pattern: 'greet', output_mode: 'content', '-C': 2 }, expect: { outcome: 'refused', fix: 'then read the lines around a match with read_file, e.g. start_line=N-3 end_line=N+3' } },
  { name: "Grep's lines after a match", tool: 'search_files', input: { pattern: 'greet', '-A': 3 }, expect: { outcome: 'refused', fix: 'search with mode "lines", then read the lines around a match with read_file' } },
  { name: "Grep's multiline", tool: 'search_files', input: { pattern: 'greet.*\\n.*return', multiline: true }, expect: { outcome: 'refused', fix: 'leave `multiline` out and search for a single line of the text' } },
  {
    name: "Gemini CLI's search_file_content with dir_path",
    source: 'issue 26 (d): dir_path ignored, results from the root',
    tool: 'search_files',
    input: { pattern: 'port', dir_path: 'config', include: '*.yaml' },
    expect: { outcome: 'salvaged', reply: 'config/settings.yaml' },
  },
  { name: "Cline's regex and file_pattern", source: 'Cline search_files: regex, file_pattern', tool: 'search_files', input: { regex: 'def build', file_pattern: '*.py' }, expect: { outcome: 'salvaged', reply: 'scripts/build.py' } },
  { name: "Cursor's include_pattern", source: 'issue 26 (d): include_pattern ignored', tool: 'search_files', input: { pattern: 'Guide', include_pattern: '*.md' }, expect: { outcome: 'salvaged', reply: 'docs/guide.md' } },
  { name: 'case_sensitive false', source: 'issue 26 (d): case_sensitive ignored', tool: 'search_files', input: { pattern: 'HELLO', case_sensitive: false }, expect: { outcome: 'salvaged', reply: 'Read `case_sensitive` false as `ignore_case` true' } },
  { name: "Codex's workdir for a search", tool: 'search_files', input: { pattern: 'greet', workdir: 'src/util' }, expect: { outcome: 'salvaged', reply: 'in `src/util`' } },
];

const finds: readonly ModelInputCase[] = [
  { name: "Gemini CLI's glob with dir_path", source: 'Gemini CLI glob: dir_path', tool: 'find_files', input: { pattern: '*.ts', dir_path: 'src/util' }, expect: { outcome: 'salvaged', reply: 'src/util/strings.ts' } },
  { name: 'glob for pattern', tool: 'find_files', input: { glob: '*.py' }, expect: { outcome: 'salvaged', reply: 'scripts/build.py' } },
  { name: 'a regex for names ending in .ts', source: 'issue 26: find_files given a regex', tool: 'find_files', input: { pattern: '.*\\.ts$' }, expect: { outcome: 'refused', fix: 'call find_files with pattern "*.ts"' } },
  { name: 'a regex for a part of a name', tool: 'find_files', input: { pattern: '\\.test\\.' }, expect: { outcome: 'refused', fix: 'call find_files with pattern "*.test.*"' } },
  { name: 'a regex anchored at a folder', tool: 'find_files', input: { pattern: '^src/' }, expect: { outcome: 'refused', fix: 'call find_files with pattern "src/**"' } },
  { name: 'a regex with alternatives', tool: 'find_files', input: { pattern: '.*\\.(ts|py)$' }, expect: { outcome: 'refused', fix: 'call find_files with pattern "*.{ts,py}"' } },
  { name: 'a regex for a folder and an extension', tool: 'find_files', input: { pattern: '^scripts/.*\\.py$' }, expect: { outcome: 'refused', fix: 'call find_files with pattern "scripts/**/*.py"' } },
  { name: "Gemini CLI's case_sensitive for find_files", tool: 'find_files', input: { pattern: '*.md', case_sensitive: false }, expect: { outcome: 'refused', fix: 'find_files always matches case: leave it out' } },
  { name: "Gemini CLI's respect_git_ignore", tool: 'find_files', input: { pattern: '*.ts', respect_git_ignore: true }, expect: { outcome: 'refused', fix: 'find_files never reads .gitignore: leave it out' } },
  { name: "Gemini CLI's list_directory dir_path", tool: 'list_directory', input: { dir_path: 'src' }, expect: { outcome: 'salvaged', reply: 'util/' } },
  { name: "Cline's recursive listing", source: 'Cline list_files: recursive', tool: 'list_directory', input: { path: 'src', recursive: true }, expect: { outcome: 'refused', fix: 'call find_files with pattern "*" and the same path' } },
  { name: "Codex's list_dir depth", tool: 'list_directory', input: { dir_path: 'docs', depth: 2 }, expect: { outcome: 'refused', fix: 'call find_files with pattern "*" and the same path' } },
];

const editNames: readonly ModelInputCase[] = [
  {
    name: "Anthropic's old_str and new_str",
    source: 'Anthropic text editor: str_replace with old_str/new_str',
    tool: 'edit_file',
    input: { path: 'src/config.ts', old_str: 'port: 8080', new_str: 'port: 9090' },
    before: [read('src/config.ts')],
    expect: { outcome: 'salvaged', disk: { 'src/config.ts': CONFIG.replace('8080', '9090') } },
  },
  {
    name: "Claude Code's Edit with file_path",
    tool: 'edit_file',
    input: { file_path: 'src/config.ts', old_string: "host: 'localhost'", new_string: "host: '127.0.0.1'" },
    before: [read('src/config.ts')],
    expect: { outcome: 'salvaged', disk: { 'src/config.ts': CONFIG.replace('localhost', '127.0.0.1') } },
  },
  {
    name: "Gemini CLI's expected_replacements 1",
    tool: 'edit_file',
    input: { file_path: 'src/config.ts', old_string: 'port: 8080', new_string: 'port: 80', expected_replacements: 1 },
    before: [read('src/config.ts')],
    expect: { outcome: 'salvaged', disk: { 'src/config.ts': CONFIG.replace('8080', '80') } },
  },
  { name: "Gemini CLI's expected_replacements 2", tool: 'edit_file', input: { path: 'Makefile', old_string: '\tnode', new_string: '\tnodejs', expected_replacements: 2 }, before: [read('Makefile')], expect: { outcome: 'refused', fix: 'send `replace_all: true` to change every occurrence' } },
  {
    name: "Claude Code's MultiEdit edits",
    tool: 'edit_file',
    input: { path: 'src/config.ts', edits: [{ old_string: '8080', new_string: '9090' }] },
    before: [read('src/config.ts')],
    expect: { outcome: 'refused', fix: 'call it once for each edit' },
  },
];

const editMisses: readonly ModelInputCase[] = [
  {
    name: 'read_file line numbers in old_string and new_string',
    source: 'issue 26: `cat -n` line numbers pasted into old_string; a `10: ` prefix written into the file',
    tool: 'edit_file',
    input: { path: 'src/util/strings.ts', old_string: '5: export function shout(text: string): string {\n6:   return text.toUpperCase();', new_string: '5: export function shout(text: string): string {\n6:   return `${text.toUpperCase()}!`;' },
    before: [read('src/util/strings.ts')],
    expect: { outcome: 'salvaged', reply: 'they were taken off', disk: { 'src/util/strings.ts': STRINGS.replace('return text.toUpperCase();', 'return `${text.toUpperCase()}!`;') } },
  },
  {
    name: "cat -n's numbers in old_string",
    tool: 'edit_file',
    input: { path: 'scripts/build.py', old_string: '     3\t        return "built " + target', new_string: '        return "made " + target' },
    before: [read('scripts/build.py')],
    expect: { outcome: 'salvaged', disk: { 'scripts/build.py': BUILD.replace('built', 'made') } },
  },
  {
    name: "Claude Code's arrow numbers in old_string",
    tool: 'edit_file',
    input: { path: 'src/config.ts', old_string: '     2→  port: 8080,', new_string: '  port: 3000,' },
    before: [read('src/config.ts')],
    expect: { outcome: 'salvaged', disk: { 'src/config.ts': CONFIG.replace('8080', '3000') } },
  },
  {
    name: 'line numbers in a CRLF file keep its line endings',
    tool: 'edit_file',
    input: { path: 'src/windows.ts', old_string: '1: export const lineEnding = "crlf";\n2: export const other = 1;', new_string: '1: export const lineEnding = "crlf";\n2: export const other = 2;' },
    before: [read('src/windows.ts')],
    expect: { outcome: 'salvaged', disk: { 'src/windows.ts': WINDOWS.replace('other = 1', 'other = 2') } },
  },
  {
    name: 'line numbers in new_string only',
    source: 'issue 26 (d): a `10: ` prefix in new_string is written into the file',
    tool: 'edit_file',
    input: { path: 'src/config.ts', old_string: '  port: 8080,', new_string: '2:   port: 8081,' },
    before: [read('src/config.ts')],
    expect: { outcome: 'refused', fix: 'Send new_string without the "N: " prefixes, such as:\n  port: 8081,' },
  },
  {
    name: 'line breaks sent as \\n, escaped once more than needed',
    source: 'mastra #12396, pi #783: arguments escaped twice',
    tool: 'edit_file',
    input: { path: 'scripts/build.py', old_string: '    if target:\\n        return \\"built \\" + target', new_string: '    if target:\\n        return \\"built: \\" + target' },
    before: [read('scripts/build.py')],
    expect: { outcome: 'salvaged', reply: 'it was read with real line breaks, and so was new_string', disk: { 'scripts/build.py': BUILD.replace('"built "', '"built: "') } },
  },
  {
    name: 'curly quotes where the file has straight ones',
    source: 'issue 26: curly quotes',
    tool: 'edit_file',
    input: { path: 'src/config.ts', old_string: 'host: \u2018localhost\u2019,', new_string: 'host: \u2018example.com\u2019,' },
    before: [read('src/config.ts')],
    expect: { outcome: 'salvaged', reply: "new_string's curly quotes were written straight", disk: { 'src/config.ts': CONFIG.replace('localhost', 'example.com') } },
  },
  {
    name: 'straight quotes where the file has curly ones, new_string without quotes',
    tool: 'edit_file',
    input: { path: 'docs/guide.md', old_string: 'Say "hello" to start.', new_string: 'Say hello to begin.' },
    before: [read('docs/guide.md')],
    expect: { outcome: 'salvaged', disk: { 'docs/guide.md': GUIDE.replace('Say \u201chello\u201d to start.', 'Say hello to begin.') } },
  },
  {
    name: 'straight quotes where the file has curly ones, new_string with quotes',
    tool: 'edit_file',
    input: { path: 'docs/guide.md', old_string: 'Say "hello" to start.', new_string: 'Say "hi" to start.' },
    before: [read('docs/guide.md')],
    expect: { outcome: 'refused', fix: 'the file has \u201c \u201d where old_string has "\nThe file\'s line reads:\n3: Say \u201chello\u201d to start.' },
  },
  {
    name: 'HTML entities where the file has the characters',
    tool: 'edit_file',
    files: { 'src/logic.ts': 'export const both = (a: boolean, b: boolean) => a && b;\n' },
    input: { path: 'src/logic.ts', old_string: '=> a &amp;&amp; b;', new_string: '=> a || b;' },
    before: [read('src/logic.ts')],
    expect: { outcome: 'salvaged', disk: { 'src/logic.ts': 'export const both = (a: boolean, b: boolean) => a || b;\n' } },
  },
  {
    name: 'the characters where the file has HTML entities',
    tool: 'edit_file',
    input: { path: 'docs/guide.md', old_string: 'Use a & b in the query.', new_string: 'Use a & c in the query.' },
    before: [read('docs/guide.md')],
    expect: { outcome: 'refused', fix: 'the file has &amp; where old_string has &' },
  },
  {
    name: "spaces for a Makefile's tab",
    source: 'issue 26: re-indenting is never salvaged (Makefiles)',
    tool: 'edit_file',
    input: { path: 'Makefile', old_string: 'build:\n    node build.js', new_string: 'build:\n    node build.mjs' },
    before: [read('Makefile')],
    expect: { outcome: 'refused', fix: '- line 2: the file indents it with 1 tab, old_string with 4 spaces' },
  },
  {
    name: 'a Python block re-indented',
    source: 'issue 26: re-indenting is never salvaged (Python)',
    tool: 'edit_file',
    input: { path: 'scripts/build.py', old_string: 'if target:\n    return "built " + target', new_string: 'if target:\n    return "made " + target' },
    before: [read('scripts/build.py')],
    expect: { outcome: 'refused', fix: '- line 3: the file indents it with 8 spaces, old_string with 4 spaces' },
  },
  {
    name: 'a YAML key sent without its indentation',
    source: 'issue 26: re-indenting is never salvaged (YAML)',
    tool: 'edit_file',
    input: { path: 'config/settings.yaml', old_string: 'server:\nport: 8080', new_string: 'server:\nport: 9090' },
    before: [read('config/settings.yaml')],
    expect: { outcome: 'refused', fix: '- line 2: the file indents it with 2 spaces, old_string with nothing' },
  },
];

const writes: readonly ModelInputCase[] = [
  {
    name: "Claude Code's Write with file_path",
    tool: 'write_file',
    input: { file_path: 'src/config.ts', content: 'export const config = {};\n' },
    before: [read('src/config.ts')],
    expect: { outcome: 'salvaged', disk: { 'src/config.ts': 'export const config = {};\n' } },
  },
  { name: "Anthropic's file_text for a new file", tool: 'create_file', input: { path: 'src/new.ts', file_text: 'export {};\n' }, expect: { outcome: 'salvaged', disk: { 'src/new.ts': 'export {};\n' } } },
  { name: 'overwrite: true on create_file', tool: 'create_file', input: { path: 'src/config.ts', content: 'x', overwrite: true }, expect: { outcome: 'refused', fix: 'read it whole with read_file and call write_file with path and content' } },
  { name: 'from and to for a move', tool: 'move_file', input: { from: 'notes/meeting notes.txt', to: 'notes/monday.txt' }, expect: { outcome: 'salvaged', disk: { 'notes/meeting notes.txt': null, 'notes/monday.txt': REPOSITORY['notes/meeting notes.txt']! } } },
  { name: 'one path in a list for delete_file', tool: 'delete_file', input: { paths: ['README.md'] }, expect: { outcome: 'salvaged', disk: { 'README.md': null } } },
  { name: 'two paths in a list for delete_file', tool: 'delete_file', input: { paths: ['README.md', 'Makefile'] }, expect: { outcome: 'refused', fix: 'call it once for each of "README.md", "Makefile"' } },
];

export const FILE_TOOL_CASES: readonly ModelInputCase[] = [...readRanges, ...searches, ...finds, ...editNames, ...editMisses, ...writes];
