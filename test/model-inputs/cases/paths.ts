/**
 * Paths as models send them to the file tools: Windows separators, stray whitespace and
 * quotes, `@` mentions, `file://` URLs, percent escapes, the other Unicode form of a name,
 * `path:line`, home and absolute paths from another machine, the repository's own folder
 * name in front; and new names no one means (`src/new.ts `, `lib\\new.ts`, `~/x`, `lib/`,
 * the NFC twin of an NFD file). A looked-up path is salvaged only when exactly one existing
 * path matches losslessly; everything else is refused with the exact next call, and a new
 * path is never cleaned up.
 */
import type { ModelInputCase } from '../case.js';
import { REPOSITORY, REPOSITORY_NAME } from '../repository.js';

const CONFIG = REPOSITORY['src/config.ts']!;
const BUILD = REPOSITORY['scripts/build.py']!;
const NFD_CAFE = 'docs/cafe\u0301.md';
const NFC_CAFE = 'docs/caf\u00e9.md';

/** The note a salvaged call ends with, naming the path used. */
const used = (path: string, field = 'path') => `(Used \`${path}\` for \`${field}\``;

const salvagedReads: readonly ModelInputCase[] = [
  { name: 'Windows separators in read_file', source: 'issue 26 (c): a Windows path', tool: 'read_file', input: { path: 'src\\app.ts' }, expect: { outcome: 'salvaged', reply: used('src/app.ts') } },
  { name: 'Windows separators, two folders deep', tool: 'read_file', input: { path: 'src\\util\\strings.ts' }, expect: { outcome: 'salvaged', reply: used('src/util/strings.ts') } },
  { name: 'a trailing line break after the path', source: 'issue 26 (c): a trailing newline', tool: 'read_file', input: { path: 'src/app.ts\n' }, expect: { outcome: 'salvaged', reply: used('src/app.ts') } },
  { name: 'a trailing space after the path', source: 'issue 26 (c): `src/app.ts␠`', tool: 'read_file', input: { path: 'src/app.ts ' }, expect: { outcome: 'salvaged', reply: 'without the whitespace at its ends' } },
  { name: 'a leading space before the path', tool: 'read_file', input: { path: ' src/config.ts' }, expect: { outcome: 'salvaged', reply: used('src/config.ts') } },
  { name: 'the path in double quotes', tool: 'read_file', input: { path: '"src/app.ts"' }, expect: { outcome: 'salvaged', reply: 'without the quotes around it' } },
  { name: 'the path in single quotes, with a space in a name', tool: 'read_file', input: { path: "'notes/meeting notes.txt'" }, expect: { outcome: 'salvaged', reply: used('notes/meeting notes.txt') } },
  { name: 'the path in Markdown backticks', tool: 'read_file', input: { path: '`src/config.ts`' }, expect: { outcome: 'salvaged', reply: used('src/config.ts') } },
  { name: 'the path in curly quotes', tool: 'read_file', input: { path: '\u201cREADME.md\u201d' }, expect: { outcome: 'salvaged', reply: used('README.md') } },
  { name: 'an `@` mention as chat harnesses write it', source: 'Claude Code and Cursor `@file` mentions', tool: 'read_file', input: { path: '@src/app.ts' }, expect: { outcome: 'salvaged', reply: 'without the leading `@`' } },
  { name: 'a space sent as `%20`', tool: 'read_file', input: { path: 'notes/meeting%20notes.txt' }, expect: { outcome: 'salvaged', reply: 'with its `%XX` escapes decoded' } },
  { name: 'an NFC name where the disk has NFD', source: 'issue 26 (c): an NFC name where the disk has NFD', tool: 'read_file', input: { path: NFC_CAFE }, expect: { outcome: 'salvaged', reply: 'in the Unicode form the disk uses (NFC/NFD)' } },
  { name: 'quotes, a line break and Windows separators at once', tool: 'read_file', input: { path: '"docs\\guide.md"\n' }, expect: { outcome: 'salvaged', reply: used('docs/guide.md') } },
  { name: 'list_directory with Windows separators', tool: 'list_directory', input: { path: 'src\\util' }, expect: { outcome: 'salvaged', reply: used('src/util') } },
  { name: 'list_directory with a quoted folder', tool: 'list_directory', input: { path: '"config"' }, expect: { outcome: 'salvaged', reply: used('config') } },
  { name: 'find_files in a folder sent with a trailing line break', tool: 'find_files', input: { pattern: '*.ts', path: 'src/util\n' }, expect: { outcome: 'salvaged', reply: 'src/util/strings.ts' } },
  { name: 'search_files in an `@`-mentioned folder', tool: 'search_files', input: { pattern: 'greet', path: '@src' }, expect: { outcome: 'salvaged', reply: used('src') } },
  { name: 'search_files in one file with Windows separators', tool: 'search_files', input: { pattern: 'shout', path: 'src\\util\\strings.ts' }, expect: { outcome: 'salvaged', reply: used('src/util/strings.ts') } },
];

const salvagedChanges: readonly ModelInputCase[] = [
  {
    name: 'edit_file with Windows separators after reading the file',
    tool: 'edit_file',
    input: { path: 'src\\config.ts', old_string: '  port: 8080,', new_string: '  port: 9090,' },
    before: [{ tool: 'read_file', input: { path: 'src/config.ts' } }],
    expect: { outcome: 'salvaged', reply: used('src/config.ts'), disk: { 'src/config.ts': CONFIG.replace('8080', '9090') } },
  },
  {
    name: 'edit_file with a trailing space, a Python file',
    tool: 'edit_file',
    input: { path: 'scripts/build.py ', old_string: 'return None', new_string: 'return ""' },
    before: [{ tool: 'read_file', input: { path: 'scripts/build.py' } }],
    expect: { outcome: 'salvaged', reply: used('scripts/build.py'), disk: { 'scripts/build.py': BUILD.replace('return None', 'return ""') } },
  },
  {
    name: 'edit_file on the NFD file by its NFC name, read by its NFC name too',
    tool: 'edit_file',
    input: { path: NFC_CAFE, old_string: 'Stored with a decomposed name.', new_string: 'Stored in NFD.' },
    before: [{ tool: 'read_file', input: { path: NFC_CAFE } }],
    expect: { outcome: 'salvaged', disk: { [NFD_CAFE]: '# Caf\u00e9\n\nStored in NFD.\n', [NFC_CAFE]: null } },
  },
  {
    name: 'write_file on a quoted path after a whole read',
    tool: 'write_file',
    input: { path: '"README.md"', content: '# Shop\n' },
    before: [{ tool: 'read_file', input: { path: 'README.md' } }],
    expect: { outcome: 'salvaged', reply: used('README.md'), disk: { 'README.md': '# Shop\n' } },
  },
  { name: 'delete_file with a trailing line break', tool: 'delete_file', input: { path: 'src/windows.ts\n' }, expect: { outcome: 'salvaged', reply: used('src/windows.ts'), disk: { 'src/windows.ts': null } } },
  {
    name: 'move_file with a Windows source and a plain destination',
    tool: 'move_file',
    input: { source: 'src\\config.ts', destination: 'src/settings.ts' },
    expect: { outcome: 'salvaged', reply: used('src/config.ts', 'source'), disk: { 'src/config.ts': null, 'src/settings.ts': CONFIG } },
  },
];

const didYouMean: readonly ModelInputCase[] = [
  { name: 'another letter case is a guess', tool: 'read_file', input: { path: 'Src/App.ts' }, expect: { outcome: 'refused', fix: 'call read_file with path `src/app.ts`' } },
  { name: 'a lower-case README', tool: 'read_file', input: { path: 'readme.md' }, expect: { outcome: 'refused', fix: 'call read_file with path `README.md`' } },
  { name: 'a lower-case Makefile for delete_file: nothing deleted', tool: 'delete_file', input: { path: 'makefile' }, expect: { outcome: 'refused', fix: 'call delete_file with path `Makefile`' } },
  { name: 'list_directory of a folder in capitals', tool: 'list_directory', input: { path: 'SRC' }, expect: { outcome: 'refused', fix: 'call list_directory with path `src`' } },
  { name: '`path:line` as a compiler prints it', source: 'grep -n / tsc output pasted as a path', tool: 'read_file', input: { path: 'src/app.ts:3' }, expect: { outcome: 'refused', fix: 'call read_file with path `src/app.ts` and start_line 3' } },
  { name: '`path:line:column`', tool: 'read_file', input: { path: 'src/app.ts:4:10' }, expect: { outcome: 'refused', fix: 'call read_file with path `src/app.ts` and start_line 4' } },
  { name: '`path:start-end`', tool: 'read_file', input: { path: 'src/util/strings.ts:5-7' }, expect: { outcome: 'refused', fix: 'call read_file with path `src/util/strings.ts` and start_line 5 and end_line 7' } },
  { name: 'a GitHub `#L` anchor', tool: 'read_file', input: { path: 'src/app.ts#L2-L4' }, expect: { outcome: 'refused', fix: 'call read_file with path `src/app.ts` and start_line 2 and end_line 4' } },
  { name: '`path:line` for edit_file, which takes no lines', tool: 'edit_file', input: { path: 'src/app.ts:3', old_string: 'main', new_string: 'run' }, expect: { outcome: 'refused', fix: 'call edit_file with path `src/app.ts`' } },
  { name: 'a home path from the developer machine', source: 'issue 26: `~` paths', tool: 'read_file', input: { path: `~/code/${REPOSITORY_NAME}/src/app.ts` }, expect: { outcome: 'refused', fix: 'call read_file with path `src/app.ts`' } },
  { name: 'an absolute path from another machine', tool: 'read_file', input: { path: `/home/dev/${REPOSITORY_NAME}/src/config.ts` }, expect: { outcome: 'refused', fix: 'call read_file with path `src/config.ts`' } },
  { name: 'a Windows absolute path', tool: 'read_file', input: { path: `C:\\Users\\dev\\${REPOSITORY_NAME}\\src\\app.ts` }, expect: { outcome: 'refused', fix: 'call read_file with path `src/app.ts`' } },
  { name: 'a `file://` URL from another machine', tool: 'read_file', input: { path: `file:///Users/dev/${REPOSITORY_NAME}/README.md` }, expect: { outcome: 'refused', fix: 'call read_file with path `README.md`' } },
  { name: 'the repository folder name in front', tool: 'read_file', input: { path: `${REPOSITORY_NAME}/src/app.ts` }, expect: { outcome: 'refused', fix: 'call read_file with path `src/app.ts`' } },
  { name: 'the repository folder name in front, for search_files', tool: 'search_files', input: { pattern: 'port', path: `${REPOSITORY_NAME}/config` }, expect: { outcome: 'refused', fix: 'call search_files with path `config`' } },
  {
    name: 'two lossless matches: never acts on either',
    tool: 'delete_file',
    input: { path: '"@todo.txt"' },
    files: { '@todo.txt': 'mention\n', 'todo.txt': 'plain\n' },
    expect: { outcome: 'refused', fix: /any of 2 existing paths: `@todo\.txt`, `todo\.txt`\. Nothing was done.*call delete_file again with path set to the one you meant/ },
  },
  {
    name: 'two names in other letter case: lists both',
    tool: 'read_file',
    input: { path: 'Readme.md' },
    files: { 'readme.md': 'lower\n' },
    expect: { outcome: 'refused', fix: /`README\.md` \(the same path in other letter case\); `readme\.md` \(the same path in other letter case\)\? Nothing was done; call read_file with path set to the one you meant/ },
  },
  {
    name: 'NFC and NFD files side by side, sent in a mixed form',
    tool: 'read_file',
    input: { path: 'docs/r\u00e9sume\u0301.md' },
    files: { 'docs/r\u00e9sum\u00e9.md': 'nfc\n', 'docs/re\u0301sume\u0301.md': 'nfd\n' },
    expect: { outcome: 'refused', fix: /any of 2 existing paths: `docs\/re\\u0301sume\\u0301\.md`, `docs\/r\\u00e9sum\\u00e9\.md`\. Nothing was done/ },
  },
  { name: 'write_file on a file that does not exist', tool: 'write_file', input: { path: 'src/new.ts', content: 'x\n' }, expect: { outcome: 'refused', fix: 'Use create_file to make a new one.' } },
];

const create = (path: string) => ({ path, content: 'export {};\n' });

const newPaths: readonly ModelInputCase[] = [
  { name: 'create_file with a trailing space', source: 'issue 26 (d): a file whose name ends in a space', tool: 'create_file', input: create('src/new.ts '), expect: { outcome: 'refused', fix: 'call create_file with path `src/new.ts`' } },
  { name: 'create_file with a trailing line break', source: 'issue 26 (d): a name ending in a newline', tool: 'create_file', input: create('src/new.ts\n'), expect: { outcome: 'refused', fix: 'call create_file with path `src/new.ts`' } },
  { name: 'create_file with a tab inside the name', tool: 'create_file', input: create('src/new\t.ts'), expect: { outcome: 'refused', fix: 'call create_file with path `src/new.ts`' } },
  { name: 'create_file with Windows separators', tool: 'create_file', input: create('src\\lib\\new.ts'), expect: { outcome: 'refused', fix: 'call create_file with path `src/lib/new.ts`' } },
  { name: 'create_file under `~`', source: 'issue 26 (d): a folder named `~`', tool: 'create_file', input: create('~/notes.md'), expect: { outcome: 'refused', fix: 'call create_file with path `notes.md`' } },
  { name: 'create_file under `~` through the repository folder', tool: 'create_file', input: create(`~/${REPOSITORY_NAME}/docs/new.md`), expect: { outcome: 'refused', fix: 'call create_file with path `docs/new.md`' } },
  { name: 'create_file with `%20` for a space', source: 'issue 26 (d): a `%20` name', tool: 'create_file', input: create('docs/release%20notes.md'), expect: { outcome: 'refused', fix: 'call create_file with path `docs/release notes.md`' } },
  {
    name: 'create_file of the NFC twin of an NFD file',
    source: 'issue 26 (d): an NFC twin of an existing NFD file',
    tool: 'create_file',
    input: create(NFC_CAFE),
    expect: { outcome: 'refused', fix: 'To change the existing file, read it with read_file and change it with edit_file' },
  },
  { name: 'create_file of a path ending in `/`', tool: 'create_file', input: create('lib/'), expect: { outcome: 'refused', fix: "Call create_file with path set to the new file's whole path, such as `lib/new-file.txt`" } },
  { name: 'create_file at an absolute path of another machine', tool: 'create_file', input: create(`/home/dev/${REPOSITORY_NAME}/src/new.ts`), expect: { outcome: 'refused', fix: 'call create_file with path `src/new.ts`' } },
  { name: 'create_file of an existing file with a line break after it', tool: 'create_file', input: create('src/app.ts\n'), expect: { outcome: 'refused', fix: 'It exists already: to change it, read it with read_file and use edit_file.' } },
  { name: 'move_file to a folder path ending in `/`', source: 'issue 26 (d): `move_file` to `lib/` makes a file named `lib`', tool: 'move_file', input: { source: 'src/config.ts', destination: 'lib/' }, expect: { outcome: 'refused', fix: 'call move_file with destination `lib/config.ts`' } },
  { name: 'move_file to a Windows destination', tool: 'move_file', input: { source: 'src/config.ts', destination: 'lib\\config.ts' }, expect: { outcome: 'refused', fix: 'call move_file with destination `lib/config.ts`' } },
  { name: 'move_file with a salvageable source and a bad destination: nothing moved', tool: 'move_file', input: { source: 'src\\config.ts', destination: 'archive/config.ts ' }, expect: { outcome: 'refused', fix: 'call move_file with destination `archive/config.ts`' } },
  { name: 'create_file of a name with `%` that is no escape', tool: 'create_file', input: create('notes/100%.txt'), expect: { outcome: 'salvaged', disk: { 'notes/100%.txt': 'export {};\n' } } },
  { name: 'create_file of a new name beyond ASCII with no twin', tool: 'create_file', input: create('docs/na\u00efve.md'), expect: { outcome: 'salvaged', disk: { 'docs/na\u00efve.md': 'export {};\n' } } },
];

export const PATH_CASES: readonly ModelInputCase[] = [...salvagedReads, ...salvagedChanges, ...didYouMean, ...newPaths];
