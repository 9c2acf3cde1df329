import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The bug the offline demo finds and fixes. */
export const BUGGY_MATH = `/** Adds two numbers. */\nexport function add(a, b) {\n  return a - b;\n}\n`;

/** A tiny project with a failing test, made in a temp folder so the demo never touches yours. */
export async function createSampleProject(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'agent-toolbelt-demo-'));
  await mkdir(path.join(root, 'src'));
  await mkdir(path.join(root, 'test'));
  await writeFile(path.join(root, 'package.json'), `${JSON.stringify({ name: 'demo-project', type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`);
  await writeFile(path.join(root, 'src/math.js'), BUGGY_MATH);
  await writeFile(
    path.join(root, 'test/math.test.js'),
    `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from '../src/math.js';\n\ntest('add adds', () => {\n  assert.equal(add(2, 3), 5);\n});\n`,
  );
  return root;
}
