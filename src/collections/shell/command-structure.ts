/**
 * Proves that a command line is one simple command of literal words, on the bash grammar's
 * syntax tree, and cross-checks the result with the strict word reader: the allowlist allows
 * a command only when both agree on every word.
 */
import type { BashNode, BashParser } from './bash-parser.js';
import { readLiteralWords, type LiteralWord, type SyntaxFinding } from './literal-words.js';

/** A plain command's words, or the first finding that makes the command not plain. */
export type CommandStructure = { readonly words: readonly LiteralWord[] } | { readonly finding: SyntaxFinding };

/** Containers whose children say what is wrong (`a && b` is a `list` whose `&&` is named). */
const PASS_THROUGH = new Set(['program', 'list', 'pipeline', 'redirected_statement']);
/** Nodes a plain command is made of. Their text is then read again by the word reader. */
const PLAIN_NODES = new Set(['command', 'command_name', 'word', 'number', 'raw_string', 'string', 'string_content', 'concatenation', 'brace_expression', 'regex']);

const STRUCTURE_NAMES: Readonly<Record<string, string>> = {
  subshell: 'a subshell `( … )`',
  negated_command: 'a negation `!`',
  function_definition: 'a function definition',
  if_statement: 'an `if` statement',
  while_statement: 'a `while` loop',
  for_statement: 'a `for` loop',
  c_style_for_statement: 'a `for ((…))` loop',
  case_statement: 'a `case` statement',
};

const TOKEN_NAMES: Readonly<Record<string, string>> = {
  ';': '`;`',
  ';;': '`;`',
  '&': '`&`',
  '&&': '`&&`',
  '||': '`||`',
  '|': 'a pipe `|`',
  '|&': 'a pipe `|`',
};

/**
 * The structure of `command`: its words when it is one simple command whose every word is a
 * literal after quote removal, else the first construct (in reading order) that is not.
 */
export function commandStructure(parser: BashParser, command: string): CommandStructure {
  const tree = parser.parse(command);
  try {
    const root = tree.rootNode;
    const finding = firstFinding(root, command);
    if (finding !== undefined) return { finding };
    const statements = root.children;
    if (statements.length !== 1 || statements[0]!.type !== 'command') return { finding: UNREADABLE };
    const treeWords = commandWordNodes(statements[0]!);
    if (treeWords === undefined) return { finding: UNREADABLE };
    const read = readLiteralWords(command);
    if ('finding' in read) return read;
    // Both readers must cut the command into the same words at the same places.
    const agree =
      read.words.length === treeWords.length &&
      read.words.every((word, index) => word.start === treeWords[index]!.startIndex && word.end === treeWords[index]!.endIndex);
    return agree ? read : { finding: UNREADABLE };
  } finally {
    tree.delete();
  }
}

/** Told when the grammar and the word reader do not see the same words: nothing is assumed. */
const UNREADABLE: SyntaxFinding = { construct: 'syntax the allowlist cannot read as one plain command', kind: 'syntax' };

/** The nodes of a command's name and arguments, or `undefined` when it has anything else. */
function commandWordNodes(command: BashNode): BashNode[] | undefined {
  const words: BashNode[] = [];
  for (let index = 0; index < command.childCount; index += 1) {
    const field = command.fieldNameForChild(index);
    const child = command.child(index)!;
    if (field === 'name' && child.type === 'command_name' && child.namedChildCount === 1) words.push(child);
    else if (field === 'argument') words.push(child);
    else return undefined;
  }
  return words.length > 0 && words[0]!.type === 'command_name' ? words : undefined;
}

/** The first node, in reading order, that a plain command cannot contain, named. */
function firstFinding(root: BashNode, command: string): SyntaxFinding | undefined {
  // An explicit stack: deeply nested input must not exhaust the JavaScript stack.
  const pending: BashNode[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const finding = nodeFinding(node, command);
    if (finding !== undefined) return finding;
    for (let index = node.childCount - 1; index >= 0; index -= 1) pending.push(node.child(index)!);
  }
  return undefined;
}

function nodeFinding(node: BashNode, command: string): SyntaxFinding | undefined {
  if (node.isError) return { construct: 'text the bash grammar cannot parse', kind: 'syntax' };
  if (node.isMissing) return { construct: `a missing \`${node.type}\``, kind: 'syntax' };
  const type = node.type;
  if (!node.isNamed) return tokenFinding(node, command);
  if (PASS_THROUGH.has(type) || PLAIN_NODES.has(type)) return undefined;
  const text = command.slice(node.startIndex, node.endIndex);
  switch (type) {
    case 'command_substitution':
      return { construct: text.startsWith('`') ? 'command substitution with backticks' : 'command substitution `$(`', kind: 'compound' };
    case 'process_substitution':
      return { construct: `process substitution \`${text.slice(0, 2)}\``, kind: 'compound' };
    case 'expansion':
      return { construct: 'parameter expansion `${`', kind: 'compound' };
    case 'arithmetic_expansion':
      return { construct: text.startsWith('$[') ? 'arithmetic expansion `$[`' : 'arithmetic expansion `$((`', kind: 'compound' };
    case 'simple_expansion':
      return { construct: 'a variable expansion `$`', kind: 'expansion' };
    case 'ansi_c_string':
      return { construct: "ANSI-C quoting `$'…'`", kind: 'quoting' };
    case 'translated_string':
      return { construct: 'locale quoting `$"…"`', kind: 'quoting' };
    case 'file_redirect':
      return { construct: text.replace(/^[0-9{}a-zA-Z_]*/, '').startsWith('<') ? 'redirection `<`' : 'redirection `>`', kind: 'compound' };
    case 'heredoc_redirect':
    case 'heredoc_body':
      return { construct: 'a here-document `<<`', kind: 'compound' };
    case 'herestring_redirect':
      return { construct: 'a here-string `<<<`', kind: 'compound' };
    case 'variable_assignment':
    case 'variable_assignments':
      return { construct: 'a variable assignment `NAME=`', kind: 'assignment' };
    case 'comment':
      return { construct: 'a comment `#`', kind: 'comment' };
    case 'compound_statement':
      if (text.startsWith('((')) return builtin('((');
      return { construct: 'a group `{ … }`', kind: 'structure' };
    case 'test_command':
      return builtin(text.startsWith('[[') ? '[[' : '[');
    case 'declaration_command':
    case 'unset_command':
      // `declare`, `export`, `unset` and kin: the refusal says why each is refused.
      return builtin(text.split(/[ \t]/, 1)[0]!);
    default:
      return { construct: STRUCTURE_NAMES[type] ?? `shell syntax the allowlist does not accept (${type})`, kind: 'structure' };
  }
}

function builtin(name: string): SyntaxFinding {
  return { construct: `the builtin \`${name}\``, kind: 'builtin', builtin: name };
}

function tokenFinding(node: BashNode, command: string): SyntaxFinding | undefined {
  const parent = node.parent?.type;
  const token = node.type;
  // Quotes of a double-quoted string; the word reader checks what is between them.
  if (token === '"' && (parent === 'string' || parent === 'translated_string')) return undefined;
  // `a == b` and `a =~ b` as plain arguments: the grammar names them, the word reader reads them.
  if ((token === '==' || token === '=~') && parent === 'command') return undefined;
  const named = TOKEN_NAMES[token];
  if (named !== undefined) return { construct: named, kind: 'compound' };
  if (token === '$') {
    const next = command[node.endIndex];
    if (next === '"') return { construct: 'locale quoting `$"…"`', kind: 'quoting' };
    if (next === '[') return { construct: 'arithmetic expansion `$[`', kind: 'compound' };
    return { construct: 'a variable expansion `$`', kind: 'expansion' };
  }
  return { construct: `\`${token}\``, kind: 'compound' };
}
