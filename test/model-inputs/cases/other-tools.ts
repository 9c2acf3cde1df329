/**
 * Calls of every tool but the file tools, as models trained on other harnesses send them:
 * Codex's `cmd` lists, `workdir` and `timeout_ms`; Gemini CLI's `directory`; Claude Code's
 * `timeout` (milliseconds), `description`, `run_in_background`, TodoWrite's `todos` and
 * TaskCreate/TaskUpdate sent flat; commands wrapped in Markdown; a command over the system's
 * argument limit; a task named by its subject where an id is wanted; other clock, note, GitHub
 * and skill tools' field names. Each is salvaged where its meaning is certain, else refused
 * with the call to make instead.
 *
 * run_shell cases assume the default shell options and no background jobs (`withBackground`
 * off), in mode `auto`. The ask-user, image, GitHub and skill cases are all refused before the
 * tool runs, so they need no user, vision model, `gh` or skill.
 */
import type { ModelInputCase } from '../case.js';

const shellFields: readonly ModelInputCase[] = [
  {
    name: "Codex's `workdir`: the command deletes in that folder, not in the root",
    source: 'issue 26 (d): `workdir: "logs"` with `rm -f *.log` deleted the wrong file',
    tool: 'run_shell',
    input: { command: 'rm -f *.log', workdir: 'logs' },
    files: { 'logs/old.log': 'old\n', 'logs/README.txt': 'Logs go here.\n', 'keep.log': 'keep\n' },
    expect: { outcome: 'salvaged', reply: 'as `working_directory`', disk: { 'logs/old.log': null, 'keep.log': 'keep\n' } },
  },
  {
    name: '`cwd` for the working folder',
    tool: 'run_shell',
    input: { command: 'touch made.txt', cwd: 'src' },
    expect: { outcome: 'salvaged', disk: { 'src/made.txt': '', 'made.txt': null } },
  },
  {
    name: "Gemini CLI's `directory`",
    source: 'Gemini CLI run_shell_command: `directory`, relative to the project root',
    tool: 'run_shell',
    input: { command: 'ls', directory: 'src/util' },
    expect: { outcome: 'salvaged', reply: 'strings.ts' },
  },
  {
    name: "Gemini CLI's later `dir_path`",
    tool: 'run_shell',
    input: { command: 'cat strings.ts', dir_path: 'src/util' },
    expect: { outcome: 'salvaged', reply: 'export function greet' },
  },
  { name: '`working_dir`', tool: 'run_shell', input: { command: 'ls', working_dir: 'config' }, expect: { outcome: 'salvaged', reply: 'settings.yaml' } },
  { name: '`workingDirectory` in camelCase', tool: 'run_shell', input: { command: 'ls', workingDirectory: 'docs' }, expect: { outcome: 'salvaged', reply: 'guide.md' } },
  {
    name: "Codex's `timeout_ms`, converted to seconds exactly",
    source: 'issue 26 (d): `timeout_ms` ran past its bound',
    tool: 'run_shell',
    input: { command: 'echo ok', timeout_ms: 30000 },
    expect: { outcome: 'salvaged', reply: 'as `timeout_seconds` 30' },
  },
  {
    name: '`timeout_ms` as a string of digits',
    tool: 'run_shell',
    input: { command: 'echo ok', timeout_ms: '5000' },
    expect: { outcome: 'salvaged', reply: 'as `timeout_seconds` 5' },
  },
  {
    name: "a bare `timeout`, whose unit differs between harnesses (Claude Code's Bash counts milliseconds)",
    tool: 'run_shell',
    input: { command: 'touch made.txt', timeout: 120000 },
    expect: { outcome: 'refused', fix: 'send `timeout_seconds` in seconds, such as 120, or `timeout_ms` in milliseconds' },
  },
  {
    name: "Claude Code's `description` of the command",
    source: 'Claude Code Bash: `description`',
    tool: 'run_shell',
    input: { command: 'touch made.txt', description: 'Create a marker file' },
    expect: { outcome: 'refused', fix: 'send the same call without `description`' },
  },
  {
    name: "Claude Code's `run_in_background` where no background jobs are offered",
    source: 'issue 26 (d): `run_in_background` ran in the foreground',
    tool: 'run_shell',
    input: { command: 'touch made.txt', run_in_background: true },
    expect: { outcome: 'refused', fix: 'send the call without `run_in_background` for a command that ends by itself' },
  },
  {
    name: "Cursor's `is_background` where no background jobs are offered",
    tool: 'run_shell',
    input: { command: 'touch made.txt', is_background: false },
    expect: { outcome: 'refused', fix: 'send the call without `run_in_background`' },
  },
  {
    name: "Codex's `shell` program",
    tool: 'run_shell',
    input: { command: 'echo ok', shell: '/bin/zsh' },
    expect: { outcome: 'refused', fix: 'send the call without `shell`' },
  },
  {
    name: "Codex exec_command's `yield_time_ms`",
    tool: 'run_shell',
    input: { cmd: 'npm test', yield_time_ms: 1000 },
    expect: { outcome: 'refused', fix: 'send the call without `yield_time_ms`' },
  },
  {
    name: "Codex exec_command's `max_output_tokens`",
    tool: 'run_shell',
    input: { cmd: 'ls', max_output_tokens: 2000 },
    expect: { outcome: 'refused', fix: 'send the call without `max_output_tokens`' },
  },
];

const shellCommandShapes: readonly ModelInputCase[] = [
  {
    name: "Codex's `cmd` list invoking bash: its script runs",
    source: 'Codex shell tool: `["bash", "-lc", "…"]`',
    tool: 'run_shell',
    input: { cmd: ['bash', '-lc', 'touch made.txt && ls src'] },
    expect: { outcome: 'salvaged', reply: 'app.ts', disk: { 'made.txt': '' } },
  },
  {
    name: '`cmd` as plain argv with a space in an argument: quoted, run word for word',
    tool: 'run_shell',
    input: { cmd: ['cat', 'notes/meeting notes.txt'] },
    expect: { outcome: 'salvaged', reply: 'Monday: plan' },
  },
  {
    name: '`cmd` as argv whose words look like shell syntax: they stay words',
    tool: 'run_shell',
    input: { cmd: ['printf', '[%s]', '$(touch made.txt)', 'a;b'] },
    expect: { outcome: 'salvaged', reply: '[$(touch made.txt)][a;b]', disk: { 'made.txt': null } },
  },
  { name: "Codex exec_command's `cmd` as text", tool: 'run_shell', input: { cmd: 'ls docs' }, expect: { outcome: 'salvaged', reply: 'guide.md' } },
  {
    name: "Codex's whole shape: a `cmd` list, `workdir` and `timeout_ms`",
    tool: 'run_shell',
    input: { cmd: ['bash', '-lc', 'ls'], workdir: 'src', timeout_ms: 10000 },
    expect: { outcome: 'salvaged', reply: 'config.ts' },
  },
  {
    name: '`command` itself sent as a Codex-style list',
    source: 'Codex shell tool: `command` is an argv list',
    tool: 'run_shell',
    input: { command: ['bash', '-lc', 'npm test'] },
    expect: { outcome: 'refused', fix: 'send the command as one string, not a list: "npm test"' },
  },
  {
    name: '`command` sent as plain argv',
    tool: 'run_shell',
    input: { command: ['git', 'commit', '-m', 'fix: a b'] },
    expect: { outcome: 'refused', fix: `send the command as one string, not a list: "git commit -m 'fix: a b'"` },
  },
];

const fencedCommands: readonly ModelInputCase[] = [
  {
    name: 'a command wrapped in a ```bash fence',
    source: 'issue 26 (d): a fenced command ran its output as a command',
    tool: 'run_shell',
    input: { command: '```bash\ntouch made.txt\n```' },
    expect: { outcome: 'salvaged', reply: 'wrapped in a Markdown fence', disk: { 'made.txt': '' } },
  },
  {
    name: 'a command in a fence without a language, two lines',
    tool: 'run_shell',
    input: { command: '```\ncd src\nls\n```' },
    expect: { outcome: 'salvaged', reply: 'app.ts' },
  },
  {
    name: 'a command in Markdown inline code',
    tool: 'run_shell',
    input: { command: '`ls docs`' },
    expect: { outcome: 'salvaged', reply: 'Markdown inline code' },
  },
  {
    name: 'a fence with prose before it: nothing of it runs',
    tool: 'run_shell',
    input: { command: 'Remove the readme:\n```bash\nrm -f README.md\n```' },
    expect: { outcome: 'refused', fix: 'Send only the command inside the fence: "rm -f README.md"' },
  },
  {
    name: 'a fence that never closes',
    tool: 'run_shell',
    input: { command: '```bash\ntouch made.txt' },
    expect: { outcome: 'refused', fix: 'Send the command without the fence: "touch made.txt"' },
  },
  {
    name: 'two fences in one command',
    tool: 'run_shell',
    input: { command: '```bash\nnpm ci\n```\n```bash\nnpm test\n```' },
    expect: { outcome: 'refused', fix: 'Send the commands to run as one `command`, without any ``` lines' },
  },
  {
    name: 'a fence of Python code sent to the shell',
    tool: 'run_shell',
    input: { command: '```python\nopen("made.txt", "w")\n```' },
    expect: { outcome: 'refused', fix: 'Save the code to a file with create_file and run that file with its interpreter' },
  },
  {
    name: 'a terminal session in a ```console fence, with `$ ` prompts',
    tool: 'run_shell',
    input: { command: '```console\n$ ls src\n```' },
    expect: { outcome: 'refused', fix: 'Send the commands without the fence and the `$ ` prompts: "ls src"' },
  },
  {
    name: 'a command over the system argument limit (E2BIG)',
    source: 'issue 26: "write it to a script file and run that", not "check that bash is installed"',
    tool: 'run_shell',
    input: { command: 'x'.repeat(3_000_000) },
    expect: { outcome: 'refused', fix: 'Write it to a script file with create_file (such as `script.sh`) and run that' },
  },
];

/** Two tasks a well-behaved model added first. */
const PARSER_TASKS = { tool: 'task_add', input: { tasks: [{ subject: 'Write the parser' }, { subject: 'Test the parser', blocked_by: ['@1'] }] } };

const tasks: readonly ModelInputCase[] = [
  {
    name: "Claude Code's TodoWrite `todos` with `content`, `status` and `activeForm`",
    source: 'Claude Code TodoWrite: `todos: [{ content, status, activeForm }]`',
    tool: 'task_add',
    input: { todos: [{ content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' }, { content: 'Fix the failures', status: 'pending', activeForm: 'Fixing the failures' }] },
    expect: { outcome: 'salvaged', reply: 'Added #1 "Run the tests" (in_progress) and #2 "Fix the failures".' },
  },
  {
    name: "Claude Code's TaskCreate: one task sent flat",
    tool: 'task_add',
    input: { subject: 'Write the docs', description: 'The README and the guide', activeForm: 'Writing the docs' },
    expect: { outcome: 'salvaged', reply: 'Added #1 "Write the docs".' },
  },
  {
    name: "Claude Code's TaskUpdate: `taskId` and `status` sent flat",
    tool: 'task_update',
    input: { taskId: '1', status: 'in_progress' },
    before: [PARSER_TASKS],
    expect: { outcome: 'salvaged', reply: 'Updated #1 (in_progress).' },
  },
  {
    name: '`title` for a task’s subject',
    tool: 'task_add',
    input: { tasks: [{ title: 'Build' }, { title: 'Deploy' }] },
    expect: { outcome: 'salvaged', reply: 'Added #1 "Build" and #2 "Deploy".' },
  },
  {
    name: '`depends_on` for blocked_by',
    tool: 'task_add',
    input: { tasks: [{ subject: 'Build' }, { subject: 'Deploy', depends_on: ['@1'] }] },
    expect: { outcome: 'salvaged', reply: 'Added #1 "Build" and #2 "Deploy".' },
  },
  {
    name: 'a status given to a new task is applied, never dropped',
    source: 'issue 26: a field task_add does not take (like `status`) is refused or applied',
    tool: 'task_add',
    input: { tasks: [{ subject: 'Read the code', status: 'completed' }, { subject: 'Write the fix', status: 'in_progress' }] },
    expect: { outcome: 'salvaged', reply: 'Added #1 "Read the code" (completed) and #2 "Write the fix" (in_progress).' },
  },
  {
    name: '`task_id` inside an update',
    tool: 'task_update',
    input: { updates: [{ task_id: '1', status: 'completed' }] },
    before: [PARSER_TASKS],
    expect: { outcome: 'salvaged', reply: 'Updated #1 (completed). #2 can start now.' },
  },
  {
    name: 'one `id` to task_remove',
    tool: 'task_remove',
    input: { id: '2' },
    before: [PARSER_TASKS],
    expect: { outcome: 'salvaged', reply: 'Removed #2.' },
  },
  {
    name: "Claude Code's TaskGet `taskId`",
    tool: 'task_get',
    input: { taskId: '2' },
    before: [PARSER_TASKS],
    expect: { outcome: 'salvaged', reply: '#2 [pending] Test the parser — blocked by #1 (pending)' },
  },
  {
    name: 'a task named by its subject where task_update wants an id',
    source: 'issue 26: "did you mean #1"',
    tool: 'task_update',
    input: { updates: [{ id: 'Write the parser', status: 'in_progress' }] },
    before: [PARSER_TASKS],
    expect: { outcome: 'refused', fix: 'did you mean #1 ("Write the parser")? Send its id, "1".' },
  },
  {
    name: 'a task named by part of its subject in task_remove',
    tool: 'task_remove',
    input: { ids: ['Test'] },
    before: [PARSER_TASKS],
    expect: { outcome: 'refused', fix: 'did you mean #2 ("Test the parser")? Send its id, "2".' },
  },
  {
    name: 'blocked_by naming a task of the same call by its subject',
    source: 'issue 26: ids the same call creates get the `@N` hint',
    tool: 'task_add',
    input: { tasks: [{ subject: 'Build' }, { subject: 'Deploy', blocked_by: ['Build'] }] },
    expect: { outcome: 'refused', fix: 'did you mean the 1st task of this call ("Build")? Write "@1" for it.' },
  },
  {
    name: 'blocked_by naming the id a task of the same call will get',
    tool: 'task_add',
    input: { tasks: [{ subject: 'Build' }, { subject: 'Deploy', blocked_by: ['1'] }] },
    expect: { outcome: 'refused', fix: 'to wait on it, write "@1" in blocked_by' },
  },
  {
    name: 'the whole TodoWrite list sent again to task_add',
    tool: 'task_add',
    input: { todos: [{ content: 'Write the parser', status: 'completed' }, { content: 'Test the parser', status: 'in_progress' }] },
    before: [PARSER_TASKS],
    expect: { outcome: 'refused', fix: 'call task_update with {"updates":[{"id":"1","status":"completed"},{"id":"2","status":"in_progress"}]}' },
  },
  {
    name: "old TodoWrite's own `id` for a new task",
    tool: 'task_add',
    input: { todos: [{ id: '1', content: 'Write the docs', status: 'pending' }] },
    expect: { outcome: 'refused', fix: 'send the tasks without `id`' },
  },
  {
    name: "old TodoWrite's `priority`",
    tool: 'task_add',
    input: { todos: [{ content: 'Write the docs', status: 'pending', priority: 'high' }] },
    expect: { outcome: 'refused', fix: 'The task list keeps no `priority`: send the tasks without it' },
  },
  {
    name: "Claude Code's `deleted` status",
    tool: 'task_update',
    input: { updates: [{ id: '2', status: 'deleted' }] },
    before: [PARSER_TASKS],
    expect: { outcome: 'refused', fix: 'call task_remove with { "ids": ["<the id>"] }' },
  },
  {
    name: "TaskUpdate's `addBlockedBy`, where blocked_by replaces the list",
    tool: 'task_update',
    input: { updates: [{ id: '2', addBlockedBy: ['1'] }] },
    before: [PARSER_TASKS],
    expect: { outcome: 'refused', fix: 'send `blocked_by` with every id it should wait on, the ones it waits on now included' },
  },
  {
    name: 'TodoWrite’s whole list sent to task_update',
    tool: 'task_update',
    input: { todos: [{ content: 'Write the parser', status: 'completed' }] },
    before: [PARSER_TASKS],
    expect: { outcome: 'refused', fix: 'send `updates: [{ "id": "1", "status": "completed" }]`' },
  },
  {
    name: '`activeForm` alone in an update, which must not rename the task',
    tool: 'task_update',
    input: { updates: [{ id: '1', activeForm: 'Writing the parser' }] },
    before: [PARSER_TASKS],
    expect: { outcome: 'refused', fix: 'send the entry without `activeForm`' },
  },
];

const scratch: readonly ModelInputCase[] = [
  {
    name: 'a note with a `title` and `text`',
    tool: 'note_write',
    input: { title: 'plan', text: '1. Parse\n2. Test\n' },
    expect: { outcome: 'salvaged', reply: 'Created note `plan`', disk: { '.toolbelt/notes/plan.md': '1. Parse\n2. Test\n' } },
  },
  {
    name: "Anthropic's memory tool `file_text` for the note's content",
    tool: 'note_write',
    input: { name: 'findings', file_text: 'The parser is in src/app.ts.\n' },
    expect: { outcome: 'salvaged', reply: 'Created note `findings`', disk: { '.toolbelt/notes/findings.md': 'The parser is in src/app.ts.\n' } },
  },
  {
    name: "Anthropic's memory tool `path` for a note",
    tool: 'note_write',
    input: { path: '/memories/plan.md', content: 'x' },
    expect: { outcome: 'refused', fix: 'send `name`, such as "plan"' },
  },
  { name: 'a log `message`', tool: 'log_append', input: { message: 'Read the config.' }, expect: { outcome: 'salvaged', reply: 'Logged entry 1', disk: { '.toolbelt/session.log': '[2026-03-02T10:00:00Z] Read the config.\n' } } },
  {
    name: 'a `limit` on the log, which could count from either end',
    tool: 'log_read',
    input: { limit: 5 },
    expect: { outcome: 'refused', fix: 'send `tail` with the number of newest entries to read' },
  },
];

const dates: readonly ModelInputCase[] = [
  {
    name: '`start_date` and `end_date` for a range',
    tool: 'get_days_between',
    input: { start_date: '2026-09-01', end_date: '2026-09-24' },
    expect: { outcome: 'salvaged', reply: '2026-09-24 is 23 days after 2026-09-01' },
  },
  {
    name: "the MCP time server's `timezone`",
    source: 'mcp-server-time: `timezone`',
    tool: 'get_day_of_week',
    input: { date: '2026-09-24', timezone: 'Asia/Tokyo' },
    expect: { outcome: 'salvaged', reply: '2026-09-24 is a Thursday' },
  },
  {
    name: '`weeks`, converted to days exactly',
    tool: 'get_date_time_after',
    input: { from: '2026-09-24', weeks: 2 },
    expect: { outcome: 'salvaged', reply: '2026-10-08' },
  },
  {
    name: '`months`, which have no fixed length',
    tool: 'get_date_time_after',
    input: { from: '2026-01-31', months: 1 },
    expect: { outcome: 'refused', fix: 'send `days` with the count of days you mean' },
  },
];

const refusedBeforeRunning: readonly ModelInputCase[] = [
  {
    name: "Cline's options as plain strings",
    source: "Cline ask_followup_question: `options` is a list of strings",
    tool: 'ask_user_question',
    input: { questions: [{ question: 'Ship it now?', header: 'Ship', options: ['Yes', 'No'] }] },
    expect: { outcome: 'refused', fix: 'send each option as an object: { "label": "Yes" }' },
  },
  {
    name: "Claude Code's AskUserQuestion with pre-filled `answers`",
    tool: 'ask_user_question',
    input: { questions: [{ question: 'Ship it now?', header: 'Ship', options: [{ label: 'Yes' }, { label: 'No' }], multiSelect: false }], answers: { 'Ship it now?': 'Yes' } },
    expect: { outcome: 'refused', fix: 'send the call without `answers`' },
  },
  {
    name: "the GitHub MCP server's `owner` and `repo`",
    tool: 'gh_view_issue',
    input: { owner: 'acme', repo: 'shop', issue_number: 12 },
    expect: { outcome: 'refused', fix: 'send the call without `owner`' },
  },
  {
    name: "the GitHub MCP server's `labels`, two of them",
    tool: 'gh_list_issues',
    input: { labels: ['bug', 'parser'] },
    expect: { outcome: 'refused', fix: 'call it once per label' },
  },
  {
    name: "Claude Code's Skill `args`",
    tool: 'load_skill',
    input: { skill: 'release-notes', args: 'v2.0' },
    expect: { outcome: 'refused', fix: 'send the call without `args`' },
  },
  {
    name: 'an image question sent twice, as `prompt` and `question`, differently',
    tool: 'query_image',
    input: { paths: ['docs/guide.md'], prompt: 'What is this?', question: 'Describe it.' },
    expect: { outcome: 'refused', fix: 'send only `question`' },
  },
];

export const OTHER_TOOL_CASES: readonly ModelInputCase[] = [...shellFields, ...shellCommandShapes, ...fencedCommands, ...tasks, ...scratch, ...dates, ...refusedBeforeRunning];
