import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createFileTools } from '../../dialects/file-tools.js';
import { makeReadKit, type ReadKit } from './test-support/read-kit.js';
import { makeWriteKit, type WriteKit } from './test-support/write-kit.js';

/** The file tools' alias tables as every adapter meets them: through runTool, with the note after the result. */
const numbered = (count: number): string => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n') + '\n';
const REFUSED_READ = 'Nothing was run. read_file takes `path`, `start_line` (optional), `end_line` (optional). Call read_file again with those fields.';

describe('the reading tools read other harnesses’ field names', () => {
  let kit: ReadKit;
  beforeEach(async () => {
    kit = await makeReadKit();
    await kit.put('big.txt', numbered(40));
    await kit.put('src/app.ts', 'export const app = 1;\n');
    await kit.put('src/app.py', 'app = 1\n');
  });
  afterEach(async () => {
    await kit.cleanup();
  });

  it('reads offset and limit as the lines either counting meant, and says how it read them', async () => {
    const claude = await kit.run('read_file', { file_path: 'big.txt', offset: 10, limit: 3 });
    expect(claude.text).toBe(
      'big.txt: lines 10-13 of 40. More follows: continue with start_line=14.\n10: line 10\n11: line 11\n12: line 12\n13: line 13\n\n' +
        '(Read `file_path` as `path`; read `offset` 10 as `start_line` 10; read `limit` 3 as `end_line` 13: send the fields by these names next time.)',
    );
    // offset 0 is the first line in every counting; limit beside our own start_line is exact.
    expect((await kit.run('read_file', { filePath: 'big.txt', offset: 0, limit: 2 })).text).toMatch(/^big\.txt: lines 1-2 of 40\./);
    expect((await kit.run('read_file', { path: 'big.txt', start_line: 38, limit: 2 })).text).toMatch(/^big\.txt: lines 38-39 of 40\./);
    expect((await kit.run('read_file', { absolute_path: 'big.txt', head: 2 })).text).toMatch(/^big\.txt: lines 1-2 of 40\./);
  });

  it('refuses a range in one field with the two fields to send', async () => {
    expect((await kit.run('read_file', { path: 'big.txt', view_range: [3, 5] })).text).toBe(
      `You sent \`view_range\`, which stands for \`start_line\` but could not be read as it: send start_line=3 end_line=5 instead of \`view_range\` (read_file takes the range as two fields). ${REFUSED_READ}`,
    );
    expect((await kit.run('read_file', { path: 'big.txt', view_range: [3, -1] })).text).toContain('send start_line=3 and no end_line (to read to the end) instead of `view_range`');
    expect((await kit.run('read_file', { path: 'big.txt', lines: '2000-2010' })).text).toContain('send start_line=2000 end_line=2010 instead of `lines`');
    expect((await kit.run('read_file', { path: 'big.txt', tail: 5 })).text).toContain('then read the last lines with start_line=TOTAL-N+1');
  });

  it('reads end_line -1 as the end, and refuses line 0 with the numbering', async () => {
    expect(await kit.run('read_file', { path: 'big.txt', start_line: 39, end_line: -1 })).toMatchObject({ isError: false, text: 'big.txt: lines 39-40 of 40 (end of file).\n39: line 39\n40: line 40' });
    expect((await kit.run('read_file', { path: 'big.txt', start_line: 0 })).text).toBe(
      'Invalid arguments for read_file: `start_line`: lines are numbered from 1, as read_file shows them, so 0 is no line: send start_line=1 to start at the first line, and the other line numbers as read_file shows them. Fix the arguments and call read_file again.',
    );
    expect((await kit.run('read_file', { path: 'big.txt', end_line: 0 })).text).toContain('leave end_line out (or send -1) to read to the end');
    expect((await kit.run('read_file', { path: 'big.txt', end_line: -5 })).text).toContain('leave end_line out (or send -1) to read to the end');
  });

  it("reads Claude Code's Grep fields, and refuses what search_files does not do with the call that does it", async () => {
    const grep = await kit.run('search_files', { pattern: 'APP', output_mode: 'content', '-n': true, '-i': true, glob: '*.ts' });
    expect(grep.text).toBe(
      '1 matching line in 1 file for `APP` (1 file searched in the workspace):\nsrc/app.ts\n1: export const app = 1;\n\n' +
        '(Read `output_mode` "content" as `mode` "lines"; read `-n` true as `mode` "lines"; read `-i` as `ignore_case`; read `glob` as `include`: send the fields by these names next time.)',
    );
    expect((await kit.run('search_files', { pattern: 'app', type: 'py' })).text).toMatch(/^You sent `type`, which stands for `include` but could not be read as it: send `include: "\*\.py"` instead of `type`/);
    expect((await kit.run('search_files', { pattern: 'app', '-C': 3 })).text).toContain('then read the lines around a match with read_file, e.g. start_line=N-3 end_line=N+3');
    expect((await kit.run('search_files', { pattern: 'app', head_limit: 0 })).text).toContain('send `limit` from 1 to 1000 (default 100)');
    const cline = await kit.run('search_files', { regex: 'app', file_pattern: '*.py', case_sensitive: 'false' });
    expect(cline.text).toContain('src/app.py');
    expect(cline.text).toContain('read `case_sensitive` "false" as `ignore_case` true');
  });

  it("reads Gemini CLI's dir_path and glob, and refuses find_files' and list_directory's missing options with the fix", async () => {
    expect((await kit.run('find_files', { glob: '*.ts', dir_path: 'src' })).text).toBe(
      'Found 1 file matching `*.ts` in `src`, newest first:\nsrc/app.ts\n\n(Read `glob` as `pattern`; read `dir_path` as `path`: send the fields by these names next time.)',
    );
    expect((await kit.run('find_files', { pattern: '*.ts', case_sensitive: true })).text).toMatch(/^You sent `case_sensitive`, but find_files always matches case: leave it out/);
    expect((await kit.run('list_directory', { dir_path: 'src' })).text).toContain('app.ts (22 bytes)');
    expect((await kit.run('list_directory', { path: 'src', recursive: true })).text).toContain('call find_files with pattern "*" and the same path');
  });
});

describe('the writing tools read other harnesses’ field names', () => {
  let kit: WriteKit;
  beforeEach(async () => {
    kit = await makeWriteKit();
  });
  afterEach(async () => {
    await kit.cleanup();
  });

  it("edits with Anthropic's old_str/new_str and Claude Code's file_path", async () => {
    await kit.put('a.txt', 'alpha\n');
    await kit.read('a.txt');
    const result = await kit.run('edit_file', { file_path: 'a.txt', old_str: 'alpha', new_str: 'beta' });
    expect(result.text).toBe('Edited `a.txt`: 1 replacement. The changed lines now read:\n1: beta\n\n(Read `file_path` as `path`; read `old_str` as `old_string`; read `new_str` as `new_string`: send the fields by these names next time.)');
    expect(await kit.text('a.txt')).toBe('beta\n');
  });

  it("reads Gemini CLI's expected_replacements 1 as edit_file's rule, and refuses a count it cannot check", async () => {
    await kit.put('a.txt', 'x x\n');
    await kit.read('a.txt');
    expect((await kit.run('edit_file', { path: 'a.txt', old_string: 'x', new_string: 'y', expected_replacements: 2 })).text).toContain('send `replace_all: true` to change every occurrence');
    expect((await kit.run('edit_file', { path: 'a.txt', old_string: 'x', new_string: 'y', edits: [] })).text).toContain('call it once for each edit');
    expect(await kit.text('a.txt')).toBe('x x\n');
  });

  it('creates with file_text, moves with from/to, deletes one path sent as a list', async () => {
    expect((await kit.run('create_file', { file_path: 'new.txt', file_text: 'hi\n' })).isError).toBe(false);
    expect(await kit.text('new.txt')).toBe('hi\n');
    expect((await kit.run('move_file', { from: 'new.txt', to: 'moved.txt' })).isError).toBe(false);
    expect((await kit.run('delete_file', { paths: ['moved.txt'] })).isError).toBe(false);
    const two = await kit.run('delete_file', { paths: ['a.txt', 'b.txt'] });
    expect(two.text).toContain('send one `path` per call: delete_file takes one, so call it once for each of "a.txt", "b.txt"');
  });

  it("applies a patch sent as Codex's `input`", async () => {
    const files = createFileTools({ workspace: kit.workspace, applyPatch: true });
    const applyPatch = files.tools.find((tool) => tool.name === 'apply_patch')!;
    const result = await runTool(applyPatch, { input: '*** Begin Patch\n*** Add File: added.txt\n+hello\n*** End Patch' }, { session: kit.session, mode: 'auto' });
    expect(result.text).toContain('(Read `input` as `patch`: send the fields by these names next time.)');
    expect(await kit.text('added.txt')).toBe('hello\n');
  });
});
