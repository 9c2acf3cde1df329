import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skillText, writeSkill } from '../../src/collections/skills/test-support/skill-folders.js';
import { Workspace } from '../../src/index.js';

// The CLI runs from source through tsx, as in cli.int.test.ts.
const repository = fileURLToPath(new URL('../..', import.meta.url));
const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-skills-'));
  await writeSkill(new Workspace(root), '.agents/skills', 'deploy', skillText('deploy', 'Deploy the app to staging.'), { 'checklist.md': '- tests pass\n' });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function start(flags: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', cli, 'mcp', '--root', root, ...flags], cwd: repository, stderr: 'pipe' });
  const client = new Client({ name: 'cli-skills-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('agent-toolbelt mcp --skills', () => {
  it('adds load_skill and lists the skills in the server instructions', async () => {
    const client = await start(['--skills', '--read-only']);
    try {
      expect(client.getInstructions()).toContain('- deploy: Deploy the app to staging.');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('load_skill');
      const result = await client.callTool({ name: 'load_skill', arguments: { name: 'deploy' } });
      expect(result.isError).toBeFalsy();
      expect((result.content as Array<{ text: string }>)[0]!.text).toContain('- .agents/skills/deploy/checklist.md');
    } finally {
      await client.close();
    }
  }, 30_000);
});
