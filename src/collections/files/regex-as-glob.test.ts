import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { globForRegex } from './regex-as-glob.js';
import { makeReadKit, type ReadKit } from './test-support/read-kit.js';

describe('globForRegex', () => {
  it('translates the regular expressions models send for names into the glob that matches the same names', () => {
    const cases: Record<string, string> = {
      '.*\\.ts$': '*.ts',
      '^.*\\.ts$': '*.ts',
      '\\.ts$': '*.ts',
      '.+\\.json$': '*.json',
      '\\.test\\.': '*.test.*',
      '.*\\.(ts|tsx)$': '*.{ts,tsx}',
      '.*_test\\.go$': '*_test.go',
      '^README': 'README*',
      '^src/': 'src/**',
      'src/.*': 'src/**',
      '^src/.*\\.test\\.ts$': 'src/**/*.test.ts',
      '.*/test/.*': '**/test/**',
      '*.test.ts$': '*.test.ts',
    };
    for (const [regex, glob] of Object.entries(cases)) expect([regex, globForRegex(regex)]).toEqual([regex, { type: 'regex', glob }]);
  });

  it('leaves globs alone, dotfile globs and classes included, and gives no glob for what it cannot translate', () => {
    for (const glob of ['*.ts', 'src/**/*.ts', '.*rc', '[A-Z]*.md', '{a,b}.json', 'package.json']) expect(globForRegex(glob)).toEqual({ type: 'glob' });
    expect(globForRegex('foo|bar')).toEqual({ type: 'regex' });
    expect(globForRegex('(?:a)+\\.ts$')).toEqual({ type: 'regex' });
  });
});

describe('find_files given a regular expression', () => {
  let kit: ReadKit;
  beforeEach(async () => {
    kit = await makeReadKit();
    await kit.put('src/app.ts', '');
    await kit.put('src/app.test.ts', '');
  });
  afterEach(async () => {
    await kit.cleanup();
  });

  it('answers "globs only" with the glob it probably meant, naming the call', async () => {
    expect(await kit.run('find_files', { pattern: '.*\\.ts$' })).toMatchObject({
      isError: true,
      text: '`pattern` takes a glob, not a regular expression, and `.*\\.ts$` reads as one (no file name matched it as a glob). The glob for it is `*.ts`: call find_files with pattern "*.ts".',
    });
    expect((await kit.run('find_files', { pattern: '\\.test\\.', path: 'src' })).text).toContain('The glob for it is `*.test.*`: call find_files with pattern "*.test.*" and path "src".');
    expect((await kit.run('find_files', { pattern: '^src/' })).text).toContain('call find_files with pattern "src/**".');
  });

  it('names the glob syntax when the expression has no glob spelling', async () => {
    expect((await kit.run('find_files', { pattern: 'app|main' })).text).toContain('In a glob, * is any characters in a name, ** any folders and {a,b} either: call find_files again with pattern such as "*.ts" or "src/**/*.test.ts".');
  });

  it('says nothing of regular expressions for a glob that matched nothing', async () => {
    expect(await kit.run('find_files', { pattern: '*.py' })).toMatchObject({ isError: false, text: expect.stringMatching(/^No files match `\*\.py`/) });
  });
});
