import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import { Workspace } from '../../workspace/workspace.js';
import { createImageTools } from './index.js';
import type { VisionRequest } from './vision.js';

const fixtures = fileURLToPath(new URL('../../../fixtures/images/', import.meta.url));
let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'toolbelt-image-aliases-'));
  await copyFile(path.join(fixtures, 'screenshot.png'), path.join(root, 'screenshot.png'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('query_image with other tools’ field names', () => {
  it('reads one `image_path` as the list of paths, and `prompt` as the question', async () => {
    const requests: VisionRequest[] = [];
    const vision = {
      ask: async (request: VisionRequest) => {
        requests.push(request);
        return 'A login form.';
      },
    };
    const [tool] = createImageTools({ workspace: new Workspace(root), vision }).tools;
    const result = await runTool(tool!, { image_path: 'screenshot.png', prompt: 'What is on the screen?' }, { session: createSession() });
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/^A login form\.[\s\S]*\(Read `image_path` as `paths`; read `prompt` as `question`/);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.question).toBe('What is on the screen?');
  });
});
