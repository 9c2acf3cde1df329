/**
 * @module The field a model probably meant by a name the tool does not have: the same letters
 * in another case or separator style first (`filePath`, `file-path`), then the nearest by edit
 * distance, when it is near enough to be a slip rather than another word.
 */

/** `filePath`, `file-path`, `FILE_PATH` → `file_path`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
}

/** Levenshtein distance, for the short names of fields. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** The field `name` spells in another case or separator style, if exactly one does. */
export function sameNameAs(name: string, fields: readonly string[]): string | undefined {
  const wanted = snakeCase(name);
  const matches = fields.filter((field) => snakeCase(field) === wanted);
  return matches.length === 1 ? matches[0] : undefined;
}

/** The field nearest to `name`: within a third of its length in edits, or containing it (or it them). */
export function closestField(name: string, fields: readonly string[]): string | undefined {
  const wanted = snakeCase(name);
  let best: { field: string; cost: number } | undefined;
  for (const field of fields) {
    const cost = distance(wanted, field);
    if (best === undefined || cost < best.cost) best = { field, cost };
  }
  if (best !== undefined && best.cost <= Math.max(1, Math.floor(wanted.length / 3))) return best.field;
  const containing = fields.filter((field) => field.length >= 3 && wanted.length >= 3 && (field.includes(wanted) || wanted.includes(field)));
  return containing.length === 1 ? containing[0] : undefined;
}
