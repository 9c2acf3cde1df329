import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../approval.js';
import { runTool } from '../../../run-tool.js';
import { makeWriteKit, type WriteKit } from '../test-support/write-kit.js';

/**
 * Policy before approval: a person is never asked to approve a change the jail, the private
 * folder or the read-before-write rule would refuse anyway.
 */
let kit: WriteKit;
let asked: ApprovalRequest[];

beforeEach(async () => {
  kit = await makeWriteKit();
  asked = [];
  await kit.put('a.txt', 'alpha\n');
});

afterEach(async () => {
  await kit.cleanup();
});

/** Every tool asks here, so a call that reaches the approver would show up in `asked`. */
function runAsking(name: keyof WriteKit['tools'], input: Record<string, unknown>) {
  return runTool(kit.tools[name], input, {
    session: kit.session,
    needsApproval: { [name]: true },
    approve: (request) => {
      asked.push(request);
      return 'approve';
    },
  });
}

const outsideCalls: Array<[keyof WriteKit['tools'], Record<string, unknown>]> = [
  ['create_file', { path: '../outside/new.txt', content: 'x' }],
  ['write_file', { path: '../outside/secret.txt', content: 'x' }],
  ['edit_file', { path: '../outside/secret.txt', old_string: 'secret', new_string: 'x' }],
  ['move_file', { source: 'a.txt', destination: '../outside/a.txt' }],
  ['move_file', { source: '../outside/secret.txt', destination: 'b.txt' }],
  ['delete_file', { path: '../outside/secret.txt' }],
];

describe('the writing tools check the policy before asking', () => {
  it.each(outsideCalls)('%s refuses a path outside the workspace without asking', async (name, input) => {
    await fs.writeFile(path.join(kit.outside, 'secret.txt'), 'secret\n');
    const result = await runAsking(name, input);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^`\.\.\/outside\/[a-z.]+` is outside the workspace\. Use a path relative to the workspace root/);
    expect(asked).toEqual([]);
    expect(await fs.readdir(kit.outside)).toEqual(['secret.txt']);
    expect(await kit.text('a.txt')).toBe('alpha\n');
  });

  it('refuses a link out without asking', async () => {
    await fs.writeFile(path.join(kit.outside, 'secret.txt'), 'secret\n');
    await fs.symlink(path.join(kit.outside, 'secret.txt'), path.join(kit.root, 'leak.txt'));
    const result = await runAsking('write_file', { path: 'leak.txt', content: 'x' });
    expect(result.text).toBe('`leak.txt` leads outside the workspace through a symbolic link, so it cannot be used. Work with files inside the workspace.');
    expect(asked).toEqual([]);
    expect(await fs.readFile(path.join(kit.outside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  it('refuses the private folder without asking', async () => {
    const result = await runAsking('create_file', { path: '.toolbelt/notes/x.md', content: 'x' });
    expect(result.text).toMatch(/^`\.toolbelt\/notes\/x\.md` is inside the workspace's private folder `\.toolbelt\/`/);
    expect(asked).toEqual([]);
  });

  it('refuses an edit of a file not read in this session without asking', async () => {
    const result = await runAsking('edit_file', { path: 'a.txt', old_string: 'alpha', new_string: 'beta' });
    expect(result.text).toBe(
      'You have not read `a.txt` in this session, so edit_file will not change it. Read it with read_file first (the part you want to change is enough), then call edit_file again.',
    );
    expect(asked).toEqual([]);
  });

  it('refuses an overwrite of a file changed since it was read, without asking', async () => {
    await kit.read('a.txt');
    await kit.put('a.txt', 'changed behind the agent\n');
    const result = await runAsking('write_file', { path: 'a.txt', content: 'x\n' });
    expect(result.text).toMatch(/^`a\.txt` changed since you last read it/);
    expect(asked).toEqual([]);
    expect(await kit.text('a.txt')).toBe('changed behind the agent\n');
  });

  it('asks about a call that passes the policy, and runs it', async () => {
    await kit.read('a.txt');
    const result = await runAsking('edit_file', { path: 'a.txt', old_string: 'alpha', new_string: 'beta' });
    expect(result.isError).toBe(false);
    expect(asked.map((request) => request.toolName)).toEqual(['edit_file']);
    expect(await kit.text('a.txt')).toBe('beta\n');
  });
});
