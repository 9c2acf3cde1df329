/**
 * @module The glob a model probably meant when it gave `find_files` (or `include`) a regular
 * expression: `.*\.ts$` → `*.ts`, `\.test\.` → `*.test.*`, `^src/` → `src/**`. Used only for
 * a glob that matched nothing, so a glob that works is never second-guessed; the reply names
 * the glob and lets the model call again, since a translation is a reading, not a certainty.
 */

/**
 * Signs of a regular expression that a glob would take literally and a file name seldom holds.
 * A leading `.*` is not one: as a glob it is a dotfile's name (`.*rc`).
 */
const REGEX_SIGNS = /^\^|(?<!\\)\$$|(?<!^)\.\*|\.\+|\\[.dwsbDWS]|\(\?[:=!]|\)[+*?]|\]\+|\|/;

/** A group of plain alternatives, `(ts|tsx)` or `(?:ts|tsx)`, as a glob's `{ts,tsx}`. */
const ALTERNATIVES = /\((?:\?:)?([\w.\\-]+(?:\|[\w.\\-]+)+)\)/g;

/** Regular-expression syntax a glob has no spelling for, left after the translation. */
const UNTRANSLATED = /[\\()|+^$]|[^*\]}]\?/;

/** What {@link globForRegex} makes of a pattern: not a regex, a regex with its glob, or a regex it cannot translate. */
export type RegexReading = { readonly type: 'glob' } | { readonly type: 'regex'; readonly glob?: string };

/**
 * Whether `pattern` reads as a regular expression, and the glob that matches the names (or,
 * with `/`, the paths) it matches. A pattern without `^` matches anywhere in a name, so its
 * glob starts with `*`; one without `$` may go on, so its glob ends with `*`.
 */
export function globForRegex(pattern: string): RegexReading {
  if (!REGEX_SIGNS.test(pattern)) return { type: 'glob' };
  let body = pattern;
  const fromStart = body.startsWith('^');
  if (fromStart) body = body.slice(1);
  const toEnd = /(?<!\\)\$$/.test(body);
  if (toEnd) body = body.slice(0, -1);
  body = body
    .replace(ALTERNATIVES, (_whole, alternatives: string) => `{${alternatives.split('|').join(',')}}`)
    // `.*` across folders is `**`: at the start, at the end and between them.
    .replace(/^\.[*+]\//, '**/')
    .replace(/\/\.[*+]$/, '/**')
    .replace(/\/\.[*+](?=.)/g, '/**/*')
    .replace(/\.[*+]/g, '*')
    .replace(/\\d[+*]?/g, '[0-9]')
    .replace(/\\([.\-_/{}[\]])/g, '$1');
  if (UNTRANSLATED.test(body) || body === '') return { type: 'regex' };
  const paths = body.includes('/');
  if (!fromStart && !paths && !body.startsWith('*')) body = `*${body}`;
  if (!toEnd && body.endsWith('/')) body = `${body}**`;
  else if (!toEnd && !body.endsWith('*')) body = `${body}*`;
  return { type: 'regex', glob: body.replace(/\*{3,}/g, '**') };
}

/**
 * The reply to a regex given where a glob is wanted, naming the call to make; `undefined`
 * when `pattern` does not read as a regular expression.
 */
export function regexInsteadOfGlob(pattern: string, call: { readonly tool: string; readonly field: string; readonly path?: string }): string | undefined {
  const reading = globForRegex(pattern);
  if (reading.type === 'glob') return undefined;
  const where = call.path === undefined ? '' : ` and path ${JSON.stringify(call.path)}`;
  const intro = `\`${call.field}\` takes a glob, not a regular expression, and \`${pattern}\` reads as one (no file name matched it as a glob).`;
  if (reading.glob === undefined) {
    return `${intro} In a glob, * is any characters in a name, ** any folders and {a,b} either: call ${call.tool} again with ${call.field} such as "*.ts" or "src/**/*.test.ts"${where}.`;
  }
  return `${intro} The glob for it is \`${reading.glob}\`: call ${call.tool} with ${call.field} ${JSON.stringify(reading.glob)}${where}.`;
}
