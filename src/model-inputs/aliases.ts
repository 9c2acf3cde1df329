/**
 * @module A tool's alias table: the field names other harnesses use for its fields (Claude
 * Code's `file_path`, Codex's `workdir`, Gemini CLI's `dir_path`), each with the field it
 * means here and how its value converts. The core applies the table to every call, for every
 * adapter, before the input is parsed; an alias is taken only where its meaning is certain.
 */

/** One entry of an alias table. */
export type InputAlias =
  /** Another name for `to`, the value unchanged. */
  | string
  | {
      /** The field it stands for. */
      readonly to: string;
      /**
       * The value as `to` takes it, from the alias's value and the whole input as sent (for
       * a range given as a start and a count). Throw a `TypeError` with the accepted form
       * when the value cannot be converted exactly; the call is then refused with it.
       */
      readonly convert?: (value: unknown, input: Readonly<Record<string, unknown>>) => unknown;
    }
  /** A name whose meaning is not certain here: the call is refused with this text (say the accepted form). */
  | { readonly refuse: string };

/**
 * A tool's alias table, by the name sent. Keys of a nested object are written with their
 * path: `tasks[].title` for the `title` of each entry of `tasks`.
 */
export type InputAliases = Readonly<Record<string, InputAlias>>;

/**
 * Keys models add to a call to explain it, which carry no input: taken out without a word.
 * Any other key the schema does not know is mapped by the alias table or refused.
 */
export const ANNOTATION_KEYS: ReadonlySet<string> = new Set(['explanation', 'reason', 'reasoning', 'rationale', 'thought', 'thoughts', 'justification', 'comment']);

/** An alias for a count of milliseconds where the field takes seconds: exact, since 1 s = 1,000 ms. */
export function millisecondsToSeconds(to: string): InputAlias {
  return {
    to,
    convert: (value) => {
      const milliseconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds) || milliseconds < 0) {
        throw new TypeError(`a number of milliseconds, such as 30000 (or \`${to}\` in seconds, such as 30)`);
      }
      return milliseconds / 1000;
    },
  };
}
