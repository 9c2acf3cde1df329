import { parseDocument } from 'yaml';
import { quotedExample, readLenientFrontMatter } from './lenient-front-matter.js';

/** The Agent Skills format's rule for `name`: lowercase letters, digits and single hyphens, not at either end. */
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The format's longest `name`. */
export const MAX_SKILL_NAME_LENGTH = 64;
/** The format's longest `description`. */
export const MAX_SKILL_DESCRIPTION_LENGTH = 1_024;
/** The format's longest `compatibility` note. */
export const MAX_SKILL_COMPATIBILITY_LENGTH = 500;

/** What a valid `SKILL.md` holds. */
export interface SkillFile {
  readonly name: string;
  readonly description: string;
  readonly license?: string;
  readonly compatibility?: string;
  /** The Markdown after the front matter. */
  readonly body: string;
  /**
   * Set when the front matter is not valid YAML but could be read line by line without doubt
   * (an unquoted `: ` in a value): what is wrong and how to fix it, for the author.
   */
  readonly warning?: string;
}

/**
 * Reads a `SKILL.md`: YAML front matter between `---` lines (parsed with the `yaml` package),
 * then the Markdown body. Returns the reason it is not a valid skill, in words for the model
 * and the person who wrote it, instead of throwing.
 */
export function parseSkillFile(text: string, folderName: string): SkillFile | { readonly problem: string } {
  const source = text.replace(/^\uFEFF/, '').replaceAll('\r\n', '\n');
  const opening = /^---[ \t]*\n/.exec(source);
  if (opening === null) return { problem: 'it does not start with YAML front matter (a `---` line, `name:` and `description:`, another `---` line)' };
  const closing = /^---[ \t]*$/m.exec(source.slice(opening[0].length));
  if (closing === null) return { problem: 'its front matter has no closing `---` line' };
  const yamlText = source.slice(opening[0].length, opening[0].length + closing.index);
  const body = source.slice(opening[0].length + closing.index + closing[0].length).replace(/^\n+/, '');

  const read = readFrontMatter(yamlText);
  if ('problem' in read) return read;
  const { fields, warning } = read;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return { problem: 'its front matter is not a set of `key: value` fields' };
  const { name, description, license, compatibility } = fields as Record<string, unknown>;

  if (typeof name !== 'string' || name === '') return { problem: 'its front matter has no `name`' };
  if (name.length > MAX_SKILL_NAME_LENGTH) return { problem: `its \`name\` is ${name.length} characters long; the most is ${MAX_SKILL_NAME_LENGTH}` };
  if (!SKILL_NAME_PATTERN.test(name)) {
    return { problem: `its \`name\` \`${name}\` is not lowercase letters, digits and single hyphens (not at the start or end)` };
  }
  if (name !== folderName) return { problem: `its \`name\` \`${name}\` differs from its folder's name \`${folderName}\`; the two must match` };
  if (typeof description !== 'string' || description.trim() === '') return { problem: 'its front matter has no `description`' };
  if (description.length > MAX_SKILL_DESCRIPTION_LENGTH) {
    return { problem: `its \`description\` is ${description.length.toLocaleString('en-US')} characters long; the most is ${MAX_SKILL_DESCRIPTION_LENGTH.toLocaleString('en-US')}` };
  }
  if (compatibility !== undefined && (typeof compatibility !== 'string' || compatibility.length > MAX_SKILL_COMPATIBILITY_LENGTH)) {
    return { problem: `its \`compatibility\` must be text of at most ${MAX_SKILL_COMPATIBILITY_LENGTH} characters` };
  }
  return {
    name,
    description: description.trim(),
    ...(typeof license === 'string' && license.trim() !== '' ? { license: license.trim() } : {}),
    ...(typeof compatibility === 'string' && compatibility.trim() !== '' ? { compatibility: compatibility.trim() } : {}),
    body,
    ...(warning === undefined ? {} : { warning }),
  };
}

/**
 * The front matter's fields: strict YAML first; when that fails, the lenient line-by-line
 * reading when it is unambiguous, with a warning that names the values to quote.
 */
function readFrontMatter(yamlText: string): { fields: unknown; warning?: string } | { problem: string } {
  const document = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
  let reason: string;
  if (document.errors.length === 0) {
    try {
      return { fields: document.toJS({ maxAliasCount: 50 }) };
    } catch (error) {
      reason = firstLine(error instanceof Error ? error.message : String(error));
    }
  } else {
    reason = firstLine(document.errors[0]!.message);
  }
  const lenient = readLenientFrontMatter(yamlText);
  if (lenient === undefined) return { problem: `its front matter is not valid YAML (${reason})` };
  const keys = lenient.unquoted.map((key) => `\`${key}\``);
  const named = keys.length === 1 ? `the value of ${keys[0]}` : `the values of ${keys.slice(0, -1).join(', ')} and ${keys.at(-1)}`;
  const first = lenient.unquoted[0]!;
  const fault = lenient.unquoted.some((key) => lenient.fields[key]!.includes(': ')) ? `${named} ${keys.length === 1 ? 'holds' : 'hold'} an unquoted \`: \`` : `${named} cannot be read unquoted`;
  return {
    fields: lenient.fields,
    warning:
      `its front matter is not valid YAML (${reason}): ${fault}. The skill was loaded by reading each line as \`key: value\`; ` +
      `put ${keys.length === 1 ? 'the value' : 'each of them'} in double quotes so that YAML readers load it too: ${quotedExample(first, lenient.fields[first]!)}`,
  };
}

function firstLine(message: string): string {
  const line = message.split('\n')[0]!.trim().replace(/\.$/, '');
  return line.length <= 160 ? line : `${line.slice(0, 159)}…`;
}
