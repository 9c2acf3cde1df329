import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileTools } from './dialects/file-tools.js';
import { createShellTools } from './collections/shell/index.js';
import { describeToolCall } from './describe-call.js';
import { Workspace } from './workspace/workspace.js';

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-describe-'));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('describeToolCall', () => {
  it("uses the first line of the tool's own wording", () => {
    const workspace = new Workspace(root);
    const files = createFileTools({ workspace });
    const tool = (name: string) => [...files.tools, ...createShellTools({ workspace }).tools].find((candidate) => candidate.name === name)!;
    expect(describeToolCall(tool('edit_file'), { path: 'src/a.ts', old_string: 'a', new_string: 'b' })).toBe('Edit src/a.ts');
    expect(describeToolCall(tool('write_file'), { path: 'notes.txt', content: 'one\ntwo\n' })).toBe('Overwrite notes.txt with 2 lines (8 characters)');
    expect(describeToolCall(tool('run_shell'), { command: 'npm test' })).toBe('Run: npm test');
    expect(describeToolCall(tool('read_file'), { path: 'README.md', start_line: 10 })).toBe('Read file: README.md, 10');
  });

  it('falls back to the name in words, and never throws', () => {
    expect(describeToolCall({ name: 'task_get' }, {})).toBe('Task get');
    expect(describeToolCall({ name: 'shout', describeCall: () => { throw new Error('no'); } }, { text: 'hi' })).toBe('Shout: hi');
    expect(describeToolCall({ name: 'shout' }, undefined)).toBe('Shout');
    expect(describeToolCall({ name: 'shout' }, { text: 'x'.repeat(300) })).toHaveLength(120);
  });
});
