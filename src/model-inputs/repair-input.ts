/**
 * @module Repairs a model's call before its input is parsed, the same for every adapter: the
 * alias table's names mapped to the tool's fields, values converted where the schema makes
 * the meaning certain, and every other key the schema does not know refused with the field
 * the model probably meant. Nothing is ever dropped without a word but annotation keys.
 */
import type { z } from 'zod';
import { ANNOTATION_KEYS, type InputAliases } from './aliases.js';
import { closestField, sameNameAs } from './closest-name.js';
import { elementOf, fieldsOf, isOptional, valueKind } from './schema-shape.js';

/** The input to parse, with what the model should be told of the repair; or the refusal. */
export type RepairedInput =
  | { readonly input: unknown; readonly notes: readonly string[]; readonly refusal?: undefined }
  | { readonly refusal: string };

/** Keys some clients wrap a call's arguments in. */
const WRAPPER_KEYS = ['input', 'arguments', 'args', 'params', 'parameters'];

interface Repair {
  readonly toolName: string;
  readonly aliases: InputAliases;
  readonly notes: string[];
  readonly problems: string[];
}

/**
 * Repairs `raw`, a call of the tool `toolName` whose input schema is `schema`. The result's
 * `input` still goes through the schema: a repair only ever turns a call into the one the
 * model meant, never into a valid one it did not.
 */
export function repairInput(toolName: string, schema: z.ZodType, aliases: InputAliases | undefined, raw: unknown): RepairedInput {
  const repair: Repair = { toolName, aliases: aliases ?? {}, notes: [], problems: [] };
  const value = unwrapArguments(schema, parseJsonText(raw ?? {}, 'object'));
  const input = repairValue(repair, schema, value, '');
  if (repair.problems.length > 0) return { refusal: refusalText(repair, schema, input) };
  return { input, notes: repair.notes };
}

/** A JSON text of the kind the schema wants, parsed once; anything else as it is. */
function parseJsonText(value: unknown, kind: 'object' | 'array'): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (!(kind === 'object' ? text.startsWith('{') && text.endsWith('}') : text.startsWith('[') && text.endsWith(']'))) return value;
  try {
    const parsed: unknown = JSON.parse(text);
    const isKind = kind === 'array' ? Array.isArray(parsed) : typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    return isKind ? parsed : value;
  } catch {
    return value;
  }
}

/** `{ arguments: { path } }` → `{ path }`, when the wrapper is no field and everything inside is one. */
function unwrapArguments(schema: z.ZodType, value: unknown): unknown {
  const fields = fieldsOf(schema);
  if (fields === undefined || !isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length !== 1 || !WRAPPER_KEYS.includes(keys[0]!) || keys[0]! in fields.shape) return value;
  const inner = parseJsonText(value[keys[0]!], 'object');
  if (!isPlainObject(inner) || Object.keys(inner).length === 0 || !Object.keys(inner).every((key) => key in fields.shape)) return value;
  return inner;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function repairValue(repair: Repair, schema: z.ZodType, value: unknown, path: string): unknown {
  switch (valueKind(schema)) {
    case 'number':
      return typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
    case 'boolean':
      return typeof value === 'string' && /^\s*(true|false)\s*$/i.test(value) ? value.trim().toLowerCase() === 'true' : value;
    case 'array':
      return repairList(repair, schema, value, path);
    case 'object':
      return repairObject(repair, schema, parseJsonText(value, 'object'), path);
    default:
      return value;
  }
}

function repairList(repair: Repair, schema: z.ZodType, value: unknown, path: string): unknown {
  const element = elementOf(schema)!;
  const list = parseJsonText(value, 'array');
  // A single value where a list is expected means a list of one, when it is of the list's kind.
  const items = Array.isArray(list) ? list : value === undefined || value === null || !fitsKind(element, value) ? undefined : [value];
  if (items === undefined) return list;
  return items.map((item) => repairValue(repair, element, item, `${path}[]`));
}

function fitsKind(schema: z.ZodType, value: unknown): boolean {
  const kind = valueKind(schema);
  if (kind === 'object') return isPlainObject(value);
  if (kind === 'string') return typeof value === 'string';
  if (kind === 'number') return typeof value === 'number';
  return false;
}

function repairObject(repair: Repair, schema: z.ZodType, value: unknown, path: string): unknown {
  const fields = fieldsOf(schema);
  if (fields === undefined || !isPlainObject(value)) return value;
  const names = Object.keys(fields.shape);
  const result: Record<string, unknown> = {};
  const taken = (field: string, key: string, converted: unknown): void => {
    if (field in result && JSON.stringify(result[field]) !== JSON.stringify(converted)) {
      repair.problems.push(`You sent both \`${key}\` and \`${field}\`${where(path)}, which mean the same; send only \`${field}\``);
    } else result[field] = converted;
  };
  for (const [key, sent] of Object.entries(value)) {
    if (key in fields.shape) {
      // `null` for a field that may be left out is how strict clients say "not given".
      if (sent === null && isOptional(fields.shape[key]!)) continue;
      taken(key, key, repairValue(repair, fields.shape[key]!, sent, childPath(path, key)));
      continue;
    }
    const alias = repair.aliases[childPath(path, key)];
    if (alias !== undefined) {
      if (typeof alias === 'object' && 'refuse' in alias) {
        repair.problems.push(alias.refuse);
        continue;
      }
      const field = typeof alias === 'string' ? alias : alias.to;
      try {
        const converted = typeof alias === 'string' || alias.convert === undefined ? sent : alias.convert(sent, value);
        const repaired = repairValue(repair, fields.shape[field]!, converted, childPath(path, field));
        repair.notes.push(typeof alias === 'object' && alias.convert !== undefined ? `read \`${key}\` ${JSON.stringify(sent)} as \`${field}\` ${JSON.stringify(repaired)}` : `read \`${key}\` as \`${field}\``);
        taken(field, key, repaired);
      } catch (error) {
        repair.problems.push(`You sent \`${key}\`${where(path)}, which stands for \`${field}\` but could not be read as it: send ${error instanceof Error ? error.message : String(error)}`);
      }
      continue;
    }
    const same = sameNameAs(key, names);
    if (same !== undefined) {
      repair.notes.push(`read \`${key}\` as \`${same}\``);
      if (!(sent === null && isOptional(fields.shape[same]!))) taken(same, key, repairValue(repair, fields.shape[same]!, sent, childPath(path, same)));
      continue;
    }
    if (ANNOTATION_KEYS.has(key)) continue;
    if (fields.open) {
      result[key] = sent;
      continue;
    }
    const near = closestField(key, names.filter((name) => !(name in value)));
    repair.problems.push(`You sent \`${key}\`${where(path)}, which is not a field of ${repair.toolName}${near === undefined ? '' : ` (did you mean \`${near}\`?)`}`);
  }
  return result;
}

/** The path of `key` inside the object at `path` (`''` at the top): `updates[].status`. */
function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function where(path: string): string {
  return path === '' ? '' : ` in \`${path}\``;
}

/** The refusal: each problem, the fields the tool takes, and what is still missing. */
function refusalText(repair: Repair, schema: z.ZodType, repaired: unknown): string {
  const fields = fieldsOf(schema)!;
  const listed = Object.entries(fields.shape).map(([name, field]) => `\`${name}\`${isOptional(field) ? ' (optional)' : ''}`);
  const present = isPlainObject(repaired) ? repaired : {};
  const missing = Object.entries(fields.shape)
    .filter(([name, field]) => !isOptional(field) && !(name in present))
    .map(([name]) => `\`${name}\``);
  const problems = repair.problems.join('. ');
  return (
    `${problems}. Nothing was run. ${repair.toolName} takes ${listed.join(', ')}` +
    `${missing.length === 0 ? '' : `; ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} missing`}. Call ${repair.toolName} again with those fields.`
  );
}
