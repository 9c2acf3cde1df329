/**
 * The second reading of a `SKILL.md`'s front matter, for when strict YAML fails. Skills in the
 * wild often hold an unquoted `: ` in a value (`description: Use this when deploying: checks,
 * then tests`), which YAML reads as a nested mapping and refuses; agents that load skills
 * read such files anyway. This reads them too, but only when every line can mean one thing:
 * flat `key: rest of the line` fields with known keys, nothing nested, continued, quoted
 * halfway or commented, so a file is never read in a way its author did not mean.
 * @module
 */
import { parseDocument } from 'yaml';

/**
 * Keys read line by line: the format's plain-text fields and the one-line fields of Claude
 * Code's skills. An unknown key could be the start of something nested, so it ends the reading.
 */
export const LENIENT_FRONT_MATTER_KEYS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'license',
  'compatibility',
  'allowed-tools',
  'version',
  'model',
  'argument-hint',
  'when_to_use',
]);

/** What the lenient reading found. */
export interface LenientFrontMatter {
  /** Each key's value: the rest of its line, trimmed (or YAML's value when the line alone is valid YAML). */
  readonly fields: Readonly<Record<string, string>>;
  /** The keys whose line is not valid YAML on its own: the values to quote. */
  readonly unquoted: readonly string[];
}

const FIELD_LINE = /^([A-Za-z][\w-]*):(?:[ \t]+(.*))?$/;
/**
 * A value starting with one of these means something else in YAML (a quote, a flow list or
 * map, a block scalar, an anchor, an alias, a tag, a directive, a comment, a list item): read
 * as plain text it might not be what the author meant.
 */
const AMBIGUOUS_START = /^(?:["'[\]{}|>&*!%#,]|-(?:\s|$)|\?(?:\s|$)|:(?:\s|$))/;

/**
 * Reads `text` (the front matter between the `---` lines) as flat `key: value` lines, or
 * returns `undefined` when any line could mean more than one thing: a line that is not
 * `key: value` (indented, a list item, a continuation), an unknown or repeated key, an empty
 * value (YAML would open a nested block), or a value YAML cannot read alone that starts like
 * quoted, flow or block YAML or holds ` #` (a comment in YAML, text here). Blank lines and
 * comment lines are passed over. Also `undefined` when every line is valid YAML alone, since
 * then the fault lies elsewhere and this reading would not fix it.
 */
export function readLenientFrontMatter(text: string): LenientFrontMatter | undefined {
  const fields: Record<string, string> = {};
  const unquoted: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || (trimmed.startsWith('#') && !/^\s/.test(line))) continue;
    const match = FIELD_LINE.exec(line.trimEnd());
    if (match === null) return undefined;
    const key = match[1]!;
    const raw = match[2]?.trim() ?? '';
    if (!LENIENT_FRONT_MATTER_KEYS.has(key) || Object.hasOwn(fields, key) || raw === '') return undefined;
    const alone = lineAlone(line, key);
    if (alone === 'not-scalar') return undefined;
    if (alone !== undefined) {
      fields[key] = alone;
      continue;
    }
    if (AMBIGUOUS_START.test(raw) || /\s#/.test(raw)) return undefined;
    fields[key] = raw;
    unquoted.push(key);
  }
  return unquoted.length === 0 ? undefined : { fields, unquoted };
}

/**
 * YAML's own value of one `key: value` line read alone, as text; `undefined` when the line
 * alone is not valid YAML, `'not-scalar'` when it is but its value is a list, a map or empty.
 */
function lineAlone(line: string, key: string): string | 'not-scalar' | undefined {
  const document = parseDocument(line, { prettyErrors: false });
  if (document.errors.length > 0) return undefined;
  const value = (document.toJS() as Record<string, unknown> | null)?.[key];
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return 'not-scalar';
}

/**
 * The fix the warning shows for the first unquoted value: the line as it should be written,
 * the value in double quotes (a long one shortened, for the eye).
 */
export function quotedExample(key: string, value: string): string {
  const shown = value.length <= 120 ? value : `${value.slice(0, 119)}…`;
  return `${key}: ${JSON.stringify(shown)}`;
}
