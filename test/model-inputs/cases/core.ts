/**
 * What the core repairs for every tool and every adapter, before any tool's own table: numbers
 * and booleans sent as text, `null` for a field left out, arguments encoded twice or wrapped in
 * `{ "arguments": … }`, field names in camelCase or kebab-case, keys the tool does not take
 * (near a field, or near none), an alias sent beside its field, and the annotation keys models
 * add to explain a call. A repair is taken only where the schema makes the meaning certain; any
 * other key is refused before anything runs, naming it and what to send instead.
 */
import type { ModelInputCase } from '../case.js';
import { REPOSITORY } from '../repository.js';

const CONFIG = REPOSITORY['src/config.ts']!;
const STRINGS = REPOSITORY['src/util/strings.ts']!;
const readConfig = { tool: 'read_file', input: { path: 'src/config.ts' } };
const readStrings = { tool: 'read_file', input: { path: 'src/util/strings.ts' } };
const addTwoTasks = { tool: 'task_add', input: { tasks: [{ subject: 'Write the parser' }, { subject: 'Test the parser' }] } };
/** What a refusal of a key the tool does not take starts with. */
const notAField = (key: string, tool: string) => `You sent \`${key}\`, which is not a field of ${tool}`;

const coercions: readonly ModelInputCase[] = [
  {
    name: 'line numbers sent as text',
    source: 'issue 26: numbers as strings (kimi-cli #2513, vllm #54964)',
    tool: 'read_file',
    input: { path: 'src/util/strings.ts', start_line: '5', end_line: '7' },
    expect: { outcome: 'salvaged', reply: 'lines 5-7 of 7' },
  },
  { name: 'a number as text with spaces around it', tool: 'read_file', input: { path: 'src/config.ts', start_line: ' 2 ', end_line: '3' }, expect: { outcome: 'salvaged', reply: 'lines 2-3 of 4' } },
  { name: 'a negative number as text', tool: 'get_date_time_after', input: { from: '2026-03-10T09:00:00Z', days: '-3' }, expect: { outcome: 'salvaged', reply: '2026-03-07' } },
  { name: 'a count as text for search_files', tool: 'search_files', input: { pattern: 'export', limit: '1' }, expect: { outcome: 'salvaged', reply: /1 (file|match)/ } },
  { name: 'seconds as text for run_shell', tool: 'run_shell', input: { command: 'echo coerced', timeout_seconds: '30' }, expect: { outcome: 'salvaged', reply: 'coerced' } },
  {
    name: 'a count as text for log_read',
    tool: 'log_read',
    input: { tail: '1' },
    before: [
      { tool: 'log_append', input: { entry: 'Read the config.' } },
      { tool: 'log_append', input: { entry: 'Changed the port.' } },
    ],
    expect: { outcome: 'salvaged', reply: 'Changed the port.' },
  },
  { name: 'a word where a number goes is refused naming the field', tool: 'read_file', input: { path: 'src/config.ts', start_line: 'two' }, expect: { outcome: 'refused', fix: /`start_line`: .*expected number/ } },
  { name: 'a fraction for a whole line number is refused naming the field', tool: 'read_file', input: { path: 'src/config.ts', start_line: '2.5' }, expect: { outcome: 'refused', fix: /`start_line`: .*expected int/ } },
  { name: '"true" for a boolean', tool: 'search_files', input: { pattern: 'GREET', ignore_case: 'true' }, expect: { outcome: 'salvaged', reply: 'src/util/strings.ts' } },
  {
    name: '"false" for a boolean in an edit',
    tool: 'edit_file',
    input: { path: 'src/config.ts', old_string: "host: 'localhost'", new_string: "host: '0.0.0.0'", replace_all: 'false' },
    before: [readConfig],
    expect: { outcome: 'salvaged', disk: { 'src/config.ts': CONFIG.replace('localhost', '0.0.0.0') } },
  },
  { name: '"yes" for a boolean is refused naming the field', tool: 'search_files', input: { pattern: 'greet', ignore_case: 'yes' }, expect: { outcome: 'refused', fix: /`ignore_case`: .*expected boolean/ } },
];

const nulls: readonly ModelInputCase[] = [
  {
    name: 'null for every optional field, as strict clients send them',
    source: 'OpenAI strict mode: optional fields as `anyOf [T, null]`',
    tool: 'read_file',
    input: { path: 'src/config.ts', start_line: null, end_line: null },
    expect: { outcome: 'salvaged', reply: 'lines 1-4 of 4' },
  },
  {
    name: 'null for the optional fields of search_files',
    tool: 'search_files',
    input: { pattern: 'shout', path: null, include: null, mode: null, ignore_case: null, limit: null },
    expect: { outcome: 'salvaged', reply: 'src/util/strings.ts' },
  },
  { name: 'null for an optional field of get_days_between', tool: 'get_days_between', input: { from: '2026-03-01', to: '2026-03-15', time_zone: null }, expect: { outcome: 'salvaged', reply: '14 days' } },
  { name: 'null for a required field is refused naming it', tool: 'read_file', input: { path: null }, expect: { outcome: 'refused', fix: /`path`: .*expected string, received null/ } },
];

const encodings: readonly ModelInputCase[] = [
  { name: 'the arguments as plain JSON text', tool: 'read_file', input: '{"path": "src/config.ts"}', expect: { outcome: 'salvaged', reply: 'lines 1-4 of 4' } },
  {
    name: 'the arguments encoded twice: a JSON string holding the object',
    source: 'issue 26: arguments double-encoded as a JSON string (mastra #12396)',
    tool: 'read_file',
    input: JSON.stringify(JSON.stringify({ path: 'src/config.ts', start_line: 2 })),
    expect: { outcome: 'salvaged', reply: 'lines 2-4 of 4' },
  },
  {
    name: 'a list of tasks sent as JSON text',
    tool: 'task_add',
    input: { tasks: JSON.stringify([{ subject: 'Write the parser' }, { subject: 'Test the parser', blocked_by: ['@1'] }]) },
    expect: { outcome: 'salvaged', reply: 'Test the parser' },
  },
  {
    name: 'questions sent as JSON text',
    tool: 'ask_user_question',
    input: { questions: JSON.stringify([{ question: 'Which port?', header: 'Port', options: [{ label: '8080' }, { label: '9090' }] }]) },
    expect: { outcome: 'salvaged', reply: '8080' },
  },
  {
    name: 'the arguments wrapped in `arguments`',
    source: 'clients that nest the call as { name, arguments }',
    tool: 'read_file',
    input: { arguments: { path: 'src/config.ts' } },
    expect: { outcome: 'salvaged', reply: 'lines 1-4 of 4' },
  },
  { name: 'the arguments wrapped in `parameters`', tool: 'find_files', input: { parameters: { pattern: '*.yaml' } }, expect: { outcome: 'salvaged', reply: 'config/settings.yaml' } },
  { name: 'the arguments wrapped in `arguments` as JSON text', tool: 'read_file', input: { arguments: '{"path": "src/config.ts"}' }, expect: { outcome: 'salvaged', reply: 'lines 1-4 of 4' } },
  {
    name: 'arguments cut off mid-object: refused as not JSON, nothing run',
    source: 'a model that stopped at its output limit mid-call',
    tool: 'delete_file',
    input: '{"path": "src/config.ts"',
    expect: { outcome: 'refused', fix: /not valid JSON|JSON parsing failed/ },
  },
  { name: 'a list of ids sent as JSON text', tool: 'task_remove', input: { ids: '["1", "2"]' }, before: [addTwoTasks], expect: { outcome: 'salvaged', reply: 'Removed #1 and #2.' } },
  {
    name: 'a wrapper holding a key the tool does not take is refused, not unwrapped',
    tool: 'delete_file',
    input: { arguments: { path: 'src/config.ts', force: true } },
    expect: { outcome: 'refused', fix: notAField('arguments', 'delete_file') },
  },
];

const spellings: readonly ModelInputCase[] = [
  { name: 'camelCase line numbers', tool: 'read_file', input: { path: 'src/util/strings.ts', startLine: 1, endLine: 3 }, expect: { outcome: 'salvaged', reply: /lines 1-3 of 7[\s\S]*Read `startLine` as `start_line`; read `endLine` as `end_line`/ } },
  { name: 'a kebab-case field', tool: 'read_file', input: { path: 'src/util/strings.ts', 'start-line': 5 }, expect: { outcome: 'salvaged', reply: /lines 5-7 of 7[\s\S]*Read `start-line` as `start_line`/ } },
  { name: 'camelCase ignore_case', tool: 'search_files', input: { pattern: 'SHOUT', ignoreCase: true }, expect: { outcome: 'salvaged', reply: 'Read `ignoreCase` as `ignore_case`' } },
  {
    name: 'camelCase edit fields',
    tool: 'edit_file',
    input: { path: 'src/util/strings.ts', oldString: 'text.toUpperCase()', newString: 'text.toLocaleUpperCase()', replaceAll: false },
    before: [readStrings],
    expect: { outcome: 'salvaged', reply: 'Read `oldString` as `old_string`', disk: { 'src/util/strings.ts': STRINGS.replace('toUpperCase', 'toLocaleUpperCase') } },
  },
  { name: 'SCREAMING_CASE fields', tool: 'move_file', input: { SOURCE: 'src/config.ts', DESTINATION: 'src/settings.ts' }, expect: { outcome: 'salvaged', reply: 'Read `SOURCE` as `source`', disk: { 'src/config.ts': null, 'src/settings.ts': CONFIG } } },
  {
    name: 'camelCase inside a list of updates',
    tool: 'task_update',
    input: { updates: [{ id: '2', blockedBy: ['1'] }] },
    before: [addTwoTasks],
    expect: { outcome: 'salvaged', reply: /Updated #2[\s\S]*Read `blockedBy` as `blocked_by`/ },
  },
  {
    name: 'camelCase inside a question',
    tool: 'ask_user_question',
    input: { questions: [{ question: 'Which checks?', header: 'Checks', options: [{ label: 'Lint' }, { label: 'Test' }], multiSelect: true }] },
    expect: { outcome: 'salvaged', reply: 'Lint' },
  },
];

const unknownKeys: readonly ModelInputCase[] = [
  { name: 'a slip of one letter in a field name', tool: 'read_file', input: { path: 'src/config.ts', end_lin: 2 }, expect: { outcome: 'refused', fix: '(did you mean `end_line`?)' } },
  {
    name: 'a misspelt working folder: the command must not run in the root',
    source: 'issue 26 (d): `rm -f *.log` run in the root deletes the wrong file',
    tool: 'run_shell',
    input: { command: 'rm -f *.log', working_directroy: 'logs' },
    files: { 'logs/old.log': 'old\n', 'keep.log': 'keep me\n' },
    expect: { outcome: 'refused', fix: '(did you mean `working_directory`?)' },
  },
  { name: 'a misspelt replace_all', tool: 'edit_file', input: { path: 'src/config.ts', old_string: '8080', new_string: '9090', replace_al: true }, before: [readConfig], expect: { outcome: 'refused', fix: '(did you mean `replace_all`?)' } },
  { name: 'an encoding read_file does not take', tool: 'read_file', input: { path: 'src/config.ts', encoding: 'utf-8' }, expect: { outcome: 'refused', fix: notAField('encoding', 'read_file') } },
  {
    name: 'a file mode write_file does not take: nothing written',
    tool: 'write_file',
    input: { path: 'src/config.ts', content: 'export const config = {};\n', mode: '0644' },
    before: [readConfig],
    expect: { outcome: 'refused', fix: notAField('mode', 'write_file') },
  },
  { name: 'a priority task_add does not take: no task added', tool: 'task_add', input: { tasks: [{ subject: 'Ship it' }], priority: 'high' }, expect: { outcome: 'refused', fix: notAField('priority', 'task_add') } },
  { name: 'tags note_write does not take: no note written', tool: 'note_write', input: { name: 'plan', content: 'Step 1', tags: ['todo'] }, expect: { outcome: 'refused', fix: notAField('tags', 'note_write') } },
  { name: 'an unknown key inside a task', tool: 'task_update', input: { updates: [{ id: '1', status: 'completed', owner: 'me' }] }, before: [addTwoTasks], expect: { outcome: 'refused', fix: 'You sent `owner` in `updates[]`, which is not a field of task_update' } },
];

const conflicts: readonly ModelInputCase[] = [
  {
    name: 'an alias and its field with different values',
    tool: 'delete_file',
    input: { path: 'src/config.ts', file_path: 'src/app.ts' },
    expect: { outcome: 'refused', fix: 'You sent both `file_path` and `path`, which mean the same; send only `path`' },
  },
  { name: 'an alias and its field with the same value', tool: 'read_file', input: { path: 'src/config.ts', file_path: 'src/config.ts' }, expect: { outcome: 'salvaged', reply: /lines 1-4 of 4[\s\S]*Read `file_path` as `path`/ } },
  { name: 'a camelCase and a snake_case field with different values', tool: 'read_file', input: { path: 'src/config.ts', start_line: 1, startLine: 3 }, expect: { outcome: 'refused', fix: 'You sent both `startLine` and `start_line`, which mean the same; send only `start_line`' } },
];

const annotations: readonly ModelInputCase[] = [
  { name: 'an `explanation` beside the fields', source: 'Cursor-style tools ask for an explanation field', tool: 'read_file', input: { path: 'src/config.ts', explanation: 'To see the port.' }, expect: { outcome: 'salvaged', reply: 'lines 1-4 of 4' } },
  { name: 'a `reason` beside a command', tool: 'run_shell', input: { command: 'echo annotated', reason: 'Check the shell works.' }, expect: { outcome: 'salvaged', reply: 'annotated' } },
  {
    name: 'a `thought` beside an edit',
    tool: 'edit_file',
    input: { path: 'src/config.ts', old_string: '  port: 8080,', new_string: '  port: 3000,', thought: 'The port should be 3000.' },
    before: [readConfig],
    expect: { outcome: 'salvaged', disk: { 'src/config.ts': CONFIG.replace('8080', '3000') } },
  },
];

const singles: readonly ModelInputCase[] = [
  { name: 'one id where a list of ids goes', tool: 'task_remove', input: { ids: '2' }, before: [addTwoTasks], expect: { outcome: 'salvaged', reply: 'Removed #2.' } },
  { name: 'one task where a list of tasks goes', tool: 'task_add', input: { tasks: { subject: 'Write the parser' } }, expect: { outcome: 'salvaged', reply: 'Write the parser' } },
];

export const CORE_CASES: readonly ModelInputCase[] = [...coercions, ...nulls, ...encodings, ...spellings, ...unknownKeys, ...conflicts, ...annotations, ...singles];
