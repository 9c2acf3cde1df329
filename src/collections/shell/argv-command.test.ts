import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { commandFromArgv, quoteWord } from './argv-command.js';
import { readLiteralWords } from './literal-words.js';

/** The words bash hands the program of `command` (run as printf's arguments, so they come back exactly). */
function wordsBashSees(command: string): string[] {
  const output = execFileSync('bash', ['-c', `printf '%s\\0' ${command.slice(command.indexOf(' ') + 1)}`], { encoding: 'utf8' });
  return output.split('\0').slice(0, -1);
}

describe('commandFromArgv', () => {
  it('takes the script of an invocation of the shell run_shell uses', () => {
    expect(commandFromArgv(['bash', '-lc', 'npm test'], 'bash')).toBe('npm test');
    expect(commandFromArgv(['/bin/bash', '-c', 'echo "a; b"'], 'bash')).toBe('echo "a; b"');
    expect(commandFromArgv(['bash', '-l', '-c', 'ls -la'], 'bash')).toBe('ls -la');
    expect(commandFromArgv(['bash', '--login', '-c', 'ls'], 'bash')).toBe('ls');
  });

  it('quotes the words of anything else, so it runs exactly that argv', () => {
    // Another shell, arguments after the script ($0, $1 …), or a long option bash would not read after -c.
    expect(commandFromArgv(['sh', '-c', 'echo $0'], 'bash')).toBe("sh -c 'echo $0'");
    expect(commandFromArgv(['bash', '-c', 'echo $1', 'x', 'y'], 'bash')).toBe("bash -c 'echo $1' x y");
    expect(commandFromArgv(['bash', '-c', '--login', 'ls'], 'bash')).toBe('bash -c --login ls');
    expect(commandFromArgv(['git', 'commit', '-m', "it's done; really"], 'bash')).toBe("git commit -m 'it'\\''s done; really'");
    expect(commandFromArgv(['ls', '*.ts', '~', '$HOME', ''], 'bash')).toBe("ls '*.ts' '~' '$HOME' ''");
  });

  it('quotes a first word bash would read as syntax or as an assignment', () => {
    expect(commandFromArgv(['time', 'ls'], 'bash')).toBe("'time' ls");
    expect(commandFromArgv(['A=1', 'env'], 'bash')).toBe("'A=1' env");
  });

  it('refuses an empty list, words that are not text and NUL characters, saying the accepted form', () => {
    for (const argv of [[], ['ls', 3], [null], ['echo', 'a\0b']]) {
      expect(() => commandFromArgv(argv, 'bash')).toThrow(/^`command` as one string/);
    }
  });

  it('gives bash exactly the words of the list (checked by bash, and by the strict word reader)', () => {
    const lists = [
      ['printf', '%s', 'a b', "c'd", 'e"f', '$(rm -rf /)', '`id`', '\\n', '*', '!x', '#c', 'é ü', ';', '|', '&&', '<x', '{a,b}'],
      ['echo', '', ' ', "'", "''"],
    ];
    for (const list of lists) {
      const command = commandFromArgv(list, 'bash');
      expect(wordsBashSees(command)).toEqual(list.slice(1));
      const read = readLiteralWords(command);
      expect('words' in read && read.words.map((word) => word.value)).toEqual(list);
    }
    // Control characters too, which the strict reader refuses as a matter of policy.
    expect(wordsBashSees(commandFromArgv(['printf', 'a\tb', 'c\nd'], 'bash'))).toEqual(['a\tb', 'c\nd']);
  });
});

describe('quoteWord', () => {
  it('leaves plain words bare and single-quotes the rest', () => {
    expect(quoteWord('src/app.ts')).toBe('src/app.ts');
    expect(quoteWord('--name=value')).toBe('--name=value');
    expect(quoteWord('a b')).toBe("'a b'");
    expect(quoteWord("it's")).toBe("'it'\\''s'");
  });
});
