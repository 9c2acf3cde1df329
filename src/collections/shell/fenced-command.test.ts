import { describe, expect, it } from 'vitest';
import { readFencedCommand } from './fenced-command.js';

describe('readFencedCommand', () => {
  it('leaves a command without Markdown as it was sent, whitespace included', () => {
    expect(readFencedCommand('  npm test\n')).toEqual({ command: '  npm test\n' });
    expect(readFencedCommand('echo `date` and ``')).toEqual({ command: 'echo `date` and ``' });
  });

  it('unwraps a command that is wholly one shell fence, and says so', () => {
    for (const [sent, inside] of [
      ['```bash\nnpm test\n```', 'npm test'],
      ['```\nnpm ci\nnpm test\n```\n', 'npm ci\nnpm test'],
      ['  ```sh\r\nls -la\r\n```  ', 'ls -la'],
      ['````shell\necho "```"\n````', 'echo "```"'],
      ['~~~bash\nmake\n~~~', 'make'],
    ] as const) {
      const read = readFencedCommand(sent);
      expect(read).toMatchObject({ command: inside });
      expect('note' in read && read.note).toMatch(/^The command came wrapped in a Markdown fence \((```|````|~~~)\w*\); bash would have run it as command substitution, so the command inside the fence ran\. Send the bare command next time\.$/);
    }
  });

  it('unwraps a command that is wholly inline code', () => {
    expect(readFencedCommand('`git status`')).toEqual({
      command: 'git status',
      note: 'The command came as Markdown inline code (`…`); bash would have run its output as a command, so the command inside the backticks ran. Send the bare command next time.',
    });
  });

  it('refuses a fence with text around it, naming the command inside when there is one', () => {
    expect(readFencedCommand('Run this:\n```bash\nrm -f *.log\n```')).toEqual({
      refusal:
        'The command holds a Markdown fence (```) with other text around it; bash would run the text and the fence as commands, so nothing was run. Send only the command inside the fence: "rm -f *.log".',
    });
    expect(readFencedCommand('npm ci\n```\nnpm test')).toEqual({
      refusal: 'The command holds a Markdown fence (```) with other text around it; bash would run the text and the fence as commands, so nothing was run. Send only the commands to run, without ``` lines or prose.',
    });
  });

  it('refuses several fences, an unclosed one, an empty one and another language', () => {
    expect(readFencedCommand('```bash\nnpm ci\n```\n```bash\nnpm test\n```')).toMatchObject({ refusal: expect.stringMatching(/^The command holds more than one Markdown fence/) });
    expect(readFencedCommand('```bash\nnpm test')).toEqual({
      refusal: 'The command opens a Markdown fence (```) that never closes, so nothing was run. Send the command without the fence: "npm test".',
    });
    expect(readFencedCommand('```bash\n\n```')).toMatchObject({ refusal: expect.stringMatching(/^The command is an empty Markdown fence/) });
    expect(readFencedCommand('```python\nprint(1)\n```')).toEqual({
      refusal:
        'The command is a Markdown fence of `python` code, and run_shell runs bash, so nothing was run. Save the code to a file with create_file and run that file with its interpreter, or send a bash command without the fence.',
    });
  });

  it('refuses a terminal session, with its commands when every line has a prompt', () => {
    expect(readFencedCommand('```console\n$ npm ci\n$ npm test\n```')).toEqual({
      refusal: 'The command is a Markdown fence of a terminal session (`console`), so nothing was run. Send the commands without the fence and the `$ ` prompts: "npm ci\\nnpm test".',
    });
    expect(readFencedCommand('```console\n$ npm test\nok\n```')).toMatchObject({ refusal: expect.stringMatching(/without the fence, the `\$ ` prompts or their output\.$/) });
  });

  it('leaves fences inside a here-document alone: they are text the command writes', () => {
    const readme = "cat > README.md <<'EOF'\n# Usage\n```bash\nnpm test\n```\nEOF";
    expect(readFencedCommand(readme)).toEqual({ command: readme });
    expect(readFencedCommand("```bash\ncat > a.md <<'EOF'\n```js\nx\n```\nEOF\n```")).toMatchObject({ command: "cat > a.md <<'EOF'\n```js\nx\n```\nEOF" });
  });

  it('leaves fences inside single quotes alone, and refuses them in double quotes, where bash runs backticks', () => {
    const message = "git commit -m 'Fix the parser\n\n```\nparse(\"\")\n```\n'";
    expect(readFencedCommand(message)).toEqual({ command: message });
    expect(readFencedCommand('git commit -m "Fix\n```\nx\n```"')).toMatchObject({ refusal: expect.stringMatching(/^The command holds a Markdown fence/) });
  });
});
