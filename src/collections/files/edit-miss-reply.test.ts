import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWriteKit, type WriteKit } from './test-support/write-kit.js';

/** edit_file misses as models make them: salvaged only when certain, else the exact lines and what differs. */
let kit: WriteKit;
beforeEach(async () => {
  kit = await makeWriteKit();
});
afterEach(async () => {
  await kit.cleanup();
});

async function edit(file: string, content: string, input: Record<string, unknown>) {
  await kit.put(file, content);
  expect((await kit.read(file)).isError).toBe(false);
  return kit.run('edit_file', { path: file, ...input });
}

describe('edit_file salvages a miss when the cleanup is certain', () => {
  it('takes read_file line numbers off old_string and new_string', async () => {
    const result = await edit('src/a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n', { old_string: '2: const b = 2;\n3: const c = 3;', new_string: '2: const b = 20;\n3: const c = 30;' });
    expect(result.text).toBe(
      "Edited `src/a.ts`: 1 replacement (old_string's lines started with line numbers (`2: `), which the file does not hold: they were taken off, and off new_string's lines too). The changed lines now read:\n2: const b = 20;\n3: const c = 30;",
    );
    expect(await kit.text('src/a.ts')).toBe('const a = 1;\nconst b = 20;\nconst c = 30;\n');
  });

  it("takes cat -n's and Claude Code's numbers off too, keeping the indentation after them", async () => {
    const catN = await edit('a.py', 'def f():\n    return 1\n', { old_string: '     1\tdef f():\n     2\t    return 1', new_string: 'def f():\n    return 2' });
    expect(catN.isError).toBe(false);
    expect(await kit.text('a.py')).toBe('def f():\n    return 2\n');
    const arrow = await edit('b.py', 'def g():\n    return 1\n', { old_string: '     2→    return 1', new_string: '    return 3' });
    expect(arrow.text).toContain('line numbers (`     2→`)');
    expect(await kit.text('b.py')).toBe('def g():\n    return 3\n');
  });

  it('reads `\\n` sent as two characters as line breaks, in both strings', async () => {
    const result = await edit('a.py', 'def a():\n    return 1\n', { old_string: 'def a():\\n    return 1', new_string: 'def a():\\n    return \\"x\\\\n\\"' });
    expect(result.text).toContain('old_string held `\\n` as two characters (escaped once more than needed): it was read with real line breaks, and so was new_string');
    expect(await kit.text('a.py')).toBe('def a():\n    return "x\\n"\n');
  });

  it('matches curly quotes to a file of straight ones, and writes new_string straight when the file has no curly quote', async () => {
    const result = await edit('a.ts', 'print("hi");\nconst s = \'x\';\n', { old_string: 'print(“hi”);', new_string: 'print(“bye”);' });
    expect(result.text).toContain("new_string's curly quotes were written straight, since the file has no curly ones");
    expect(await kit.text('a.ts')).toBe('print("bye");\nconst s = \'x\';\n');
  });

  it('matches straight quotes to curly ones when new_string has no quote to get wrong', async () => {
    const result = await edit('guide.md', 'Say \u201chello\u201d to start.\n', { old_string: 'Say "hello" to start.', new_string: 'Say hello to begin.' });
    expect(result.isError).toBe(false);
    expect(await kit.text('guide.md')).toBe('Say hello to begin.\n');
  });

  it('reads HTML entities as their characters in a file that holds none', async () => {
    const result = await edit('a.ts', 'if (a && b) { run(); }\n', { old_string: 'if (a &amp;&amp; b)', new_string: 'if (a &amp;&amp; c)' });
    expect(result.text).toContain("new_string's entities were written as characters, since the file holds none");
    expect(await kit.text('a.ts')).toBe('if (a && c) { run(); }\n');
  });

  it('salvages in a CRLF file and keeps its line endings', async () => {
    const result = await edit('win.txt', 'one\r\ntwo\r\nthree\r\n', { old_string: '2: two\n3: three', new_string: '2: TWO\n3: THREE' });
    expect(result.isError).toBe(false);
    expect(await kit.text('win.txt')).toBe('one\r\nTWO\r\nTHREE\r\n');
  });
});

describe('edit_file refuses a miss it cannot salvage with certainty, and changes nothing', () => {
  it('never re-indents: a Makefile tab sent as spaces gets the exact lines and what differs', async () => {
    const makefile = 'build:\n\tnode build.js\n\ntest:\n\tnode --test\n';
    const result = await edit('Makefile', makefile, { old_string: 'build:\n    node build.js', new_string: 'build:\n    node build.mjs' });
    expect(result).toMatchObject({ isError: true });
    expect(result.text).toBe(
      'old_string was not found in `Makefile` as written: the text is at lines 1–2, but its whitespace differs, and edit_file never re-indents for you (in Python, YAML and Makefiles indentation is meaning):\n' +
        '- line 2: the file indents it with 1 tab, old_string with 4 spaces\n' +
        "The file's lines read:\n1: build:\n2: \tnode build.js\n" +
        'Copy them exactly (without the "N: " prefixes) into old_string, write new_string the same way, and call edit_file again.',
    );
    expect(await kit.text('Makefile')).toBe(makefile);
  });

  it('names each Python line whose indentation differs', async () => {
    const python = 'def build(target):\n    if target:\n        return "built " + target\n    return None\n';
    const result = await edit('build.py', python, { old_string: '  if target:\n    return "built " + target', new_string: '  if target:\n    return "made " + target' });
    expect(result.text).toContain('- line 3: the file indents it with 8 spaces, old_string with 4 spaces\n');
    expect(result.text).not.toContain('- line 2');
    expect(await kit.text('build.py')).toBe(python);
  });

  it('shows the curly quotes to copy when new_string has straight ones that could be wrong either way', async () => {
    const guide = 'Say \u201chello\u201d to start.\n';
    const result = await edit('guide.md', guide, { old_string: 'Say "hello" to start.', new_string: 'Say "hi" to start.' });
    expect(result.text).toBe(
      'old_string was not found in `guide.md` as written: the text is at line 1, but its quotes differ:\n- line 1: the file has \u201c \u201d where old_string has "\nThe file\'s line reads:\n1: Say \u201chello\u201d to start.\nCopy it exactly (without the "N: " prefixes) into old_string, write new_string the same way, and call edit_file again.',
    );
    expect(await kit.text('guide.md')).toBe(guide);
  });

  it('shows the entities to copy in a file that holds them', async () => {
    const guide = 'Use a &amp; b in the query.\n';
    const result = await edit('guide.md', guide, { old_string: 'Use a & b in the query.', new_string: 'Use a & c in the query.' });
    expect(result.text).toContain('but its HTML entities differ:\n- line 1: the file has &amp; where old_string has &\n');
    expect(await kit.text('guide.md')).toBe(guide);
  });

  it('does not take numbers off in a file that holds such lines unless they name the lines found', async () => {
    const yaml = 'responses:\n  200: ok\n  404: missing\n';
    const wrong = await edit('api.yaml', yaml, { old_string: '7: 404: missing', new_string: '404: gone' });
    expect(wrong.text).toContain('its lines start with what look like line numbers (`7: `), but the file holds lines like that itself');
    expect(await kit.text('api.yaml')).toBe(yaml);
    const right = await kit.run('edit_file', { path: 'api.yaml', old_string: '3: 404: missing', new_string: '3: 404: gone' });
    expect(right.isError).toBe(false);
    expect(await kit.text('api.yaml')).toBe('responses:\n  200: ok\n  404: gone\n');
  });

  it('says how often the cleaned text occurs', async () => {
    const result = await edit('a.py', 'x = 1\ny = 2\nx = 1\n', { old_string: '1: x = 1', new_string: 'x = 9' });
    expect(result.text).toBe(
      'old_string was not found in `a.py` as written (even with its line numbers (`1: `) taken off), and so cleaned it occurs 2 times. Send old_string without line numbers or escapes, with surrounding lines added until it occurs exactly once.',
    );
  });
});

describe('edit_file refuses line numbers in new_string that old_string does not have', () => {
  it('refuses before writing, with new_string as it should be', async () => {
    const result = await edit('src/a.ts', 'const a = 1;\nconst b = 2;\n', { old_string: 'const b = 2;', new_string: '2: const b = 20;\n3: const bb = 21;' });
    expect(result).toMatchObject({ isError: true });
    expect(result.text).toBe(
      'new_string starts its lines with line numbers (`2: `), as read_file shows them, but old_string does not: they would be written into the file, so nothing was changed. Send new_string without the "N: " prefixes, such as:\nconst b = 20;\nconst bb = 21;',
    );
    expect(await kit.text('src/a.ts')).toBe('const a = 1;\nconst b = 2;\n');
  });

  it('writes numbered text that does not start at the line edited: a list, YAML keys', async () => {
    const list = await edit('notes.txt', 'Steps:\nnone yet\n', { old_string: 'none yet\n', new_string: '1: install\n2: run\n' });
    expect(list.isError).toBe(false);
    expect(await kit.text('notes.txt')).toBe('Steps:\n1: install\n2: run\n');
  });

  it('writes YAML keys that look like numbers in a file that has such lines, when they are not the lines edited', async () => {
    const result = await edit('api.yaml', 'codes:\n  200: ok\nnames:\n', { old_string: 'names:\n', new_string: '201: created\n202: accepted\n' });
    expect(result.isError).toBe(false);
    expect(await kit.text('api.yaml')).toBe('codes:\n  200: ok\n201: created\n202: accepted\n');
  });
});
