/**
 * @module A command a model wrapped in Markdown, as it writes commands in chat: a fence
 * (```` ```bash ```` … ```` ``` ````) or inline code (`` `npm test` ``). Bash would not see
 * Markdown: the backticks are command substitution, so it would run the text inside and then
 * run its output as a command. A command that is wholly one shell fence, or wholly one piece
 * of inline code, is read as what is inside (and the reply says so); a fence with text around
 * it, several fences, an unclosed one or a fence of another language is refused with the
 * command to send instead. Fences inside a here-document (`cat <<EOF`) or single quotes are
 * text and are left alone.
 */

/** The command to run, with the note for the reply when it was unwrapped; or why it is refused. */
export type FencedCommand = { readonly command: string; readonly note?: string } | { readonly refusal: string };

/** Info strings of a fence whose text is a shell command. */
const SHELL_LANGUAGES: ReadonlySet<string> = new Set(['', 'bash', 'sh', 'shell']);

/** Info strings of a fence that shows a terminal session: `$ ` prompts, perhaps output. */
const SESSION_LANGUAGES: ReadonlySet<string> = new Set(['console', 'terminal', 'shell-session', 'sh-session', 'shellsession']);

/** A line that opens or closes a fence: its fence characters and info string. */
const FENCE_LINE = /^[ \t]*(`{3,}|~{3,})[ \t]*([^`\s]*)[ \t]*$/;

/**
 * What to run for `command` as the model sent it: the command itself when it holds no Markdown,
 * the text inside when it is wholly one shell fence or one inline code span.
 *
 * @example
 * readFencedCommand('```bash\nnpm test\n```'); // { command: 'npm test', note: '…' }
 * readFencedCommand('npm test'); // { command: 'npm test' }
 */
export function readFencedCommand(command: string): FencedCommand {
  const text = command.trim();
  const lines = text.split(/\r?\n/);
  const opening = FENCE_LINE.exec(lines[0]!);
  if (opening !== null) return readFence(lines, opening[1]!, opening[2]!.toLowerCase());
  // A here-document may hold Markdown of its own (a README written with cat <<EOF), and so may
  // text in single quotes (a commit message); in double quotes the backticks still substitute.
  const fences = text.includes('<<') ? [] : fenceLineIndexes(lines);
  if (fences.length > 0) return fenceInsideText(lines, fences);
  const inline = /^`([^`\n]+)`$/.exec(text);
  if (inline !== null && inline[1]!.trim() !== '') {
    return {
      command: inline[1]!.trim(),
      note: 'The command came as Markdown inline code (`…`); bash would have run its output as a command, so the command inside the backticks ran. Send the bare command next time.',
    };
  }
  return { command };
}

function readFence(lines: readonly string[], fence: string, language: string): FencedCommand {
  const closing = lines.length > 1 ? FENCE_LINE.exec(lines.at(-1)!) : null;
  const closes = closing !== null && closing[2] === '' && closing[1]![0] === fence[0] && closing[1]!.length >= fence.length;
  const body = (closes ? lines.slice(1, -1) : lines.slice(1)).join('\n');
  if (body.trim() === '') return { refusal: 'The command is an empty Markdown fence (```), so nothing was run. Send the command itself, such as "npm test", without ``` lines.' };
  if (!closes) {
    return { refusal: `The command opens a Markdown fence (${fence}) that never closes, so nothing was run. Send the command without the fence: ${JSON.stringify(body.trim())}.` };
  }
  if (!body.includes('<<') && fenceLineIndexes(lines.slice(1, -1)).length > 0) {
    return { refusal: 'The command holds more than one Markdown fence (```), so nothing was run. Send the commands to run as one `command`, without any ``` lines.' };
  }
  if (SESSION_LANGUAGES.has(language)) return { refusal: sessionRefusal(body, language) };
  if (!SHELL_LANGUAGES.has(language)) {
    return {
      refusal:
        `The command is a Markdown fence of \`${language}\` code, and run_shell runs bash, so nothing was run. ` +
        'Save the code to a file with create_file and run that file with its interpreter, or send a bash command without the fence.',
    };
  }
  return {
    command: body,
    note: `The command came wrapped in a Markdown fence (${fence}${language}); bash would have run it as command substitution, so the command inside the fence ran. Send the bare command next time.`,
  };
}

/** A terminal session in a fence: the commands after its `$ ` prompts, when every line has one. */
function sessionRefusal(body: string, language: string): string {
  const lines = body.split('\n').filter((line) => line.trim() !== '');
  const prompted = lines.every((line) => /^\s*\$ /.test(line));
  return (
    `The command is a Markdown fence of a terminal session (\`${language}\`), so nothing was run. ` +
    (prompted
      ? `Send the commands without the fence and the \`$ \` prompts: ${JSON.stringify(lines.map((line) => line.replace(/^\s*\$ /, '')).join('\n'))}.`
      : 'Send only the commands to run, without the fence, the `$ ` prompts or their output.')
  );
}

/** The fence lines bash would read as code, by index: those not inside single quotes. */
function fenceLineIndexes(lines: readonly string[]): number[] {
  const indexes: number[] = [];
  let quote: "'" | '"' | undefined;
  lines.forEach((line, index) => {
    if (quote !== "'" && FENCE_LINE.test(line)) indexes.push(index);
    for (let position = 0; position < line.length; position += 1) {
      const character = line[position]!;
      if (quote === "'") quote = character === "'" ? undefined : quote;
      else if (character === '\\') position += 1;
      else if (quote === '"') quote = character === '"' ? undefined : quote;
      else if (character === "'" || character === '"') quote = character;
    }
  });
  return indexes;
}

/** Text around a fence: refused, with the fence's command when there is exactly one whole shell fence. */
function fenceInsideText(lines: readonly string[], fenceLines: readonly number[]): FencedCommand {
  const [open, close] = fenceLines;
  const language = FENCE_LINE.exec(lines[open!]!)![2]!.toLowerCase();
  const inside = fenceLines.length === 2 && SHELL_LANGUAGES.has(language) ? lines.slice(open! + 1, close).join('\n').trim() : '';
  return {
    refusal:
      'The command holds a Markdown fence (```) with other text around it; bash would run the text and the fence as commands, so nothing was run. ' +
      (inside === '' ? 'Send only the commands to run, without ``` lines or prose.' : `Send only the command inside the fence: ${JSON.stringify(inside)}.`),
  };
}
