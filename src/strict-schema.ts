/**
 * OpenAI's strict-mode JSON Schemas for tool inputs: every property required, optional fields
 * as `anyOf [T, null]`, `additionalProperties: false`; and the way back (nulls for left-out
 * fields dropped before the Zod parse). In the core because two adapters send them: the
 * OpenAI adapter, and the AI SDK adapter for OpenAI models.
 */
import { z } from 'zod';

/** A JSON Schema node as plain JSON. */
export type JsonSchema = { [keyword: string]: unknown };

/** The `parameters` of one function spec and whether OpenAI's strict mode can enforce them. */
export type FunctionParameters =
  | { readonly parameters: JsonSchema; readonly strict: true }
  | { readonly parameters: JsonSchema; readonly strict: false; readonly reason?: string };

/** Keywords strict mode accepts, as OpenAI documents them for Structured Outputs. */
const STRICT_KEYWORDS = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'const',
  'description', 'title', '$ref', '$defs', 'definitions', 'pattern', 'format',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);

/** Keywords that change what a value may look like in ways strict mode cannot express. */
const STRUCTURAL_KEYWORDS = new Set([
  'allOf', 'not', 'if', 'then', 'else', 'prefixItems', 'patternProperties', 'propertyNames',
  'dependentSchemas', 'dependentRequired', 'dependencies', 'unevaluatedItems', 'unevaluatedProperties',
  'additionalItems', 'contains', '$dynamicRef', '$recursiveRef',
]);

/** The `format` values strict mode supports; other formats are dropped (Zod still checks them). */
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** Thrown inside the conversion when a schema cannot be made strict; becomes `strict: false`. */
class NotStrictError extends Error {}

/**
 * The tool's input schema as plain JSON Schema (zod's own `toJSONSchema`, input semantics),
 * without `$schema`. Sent as it is when strict mode is off.
 */
export function toLooseParameters(input: z.ZodObject): JsonSchema {
  const schema = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete schema.$schema;
  return schema;
}

/**
 * Converts a tool's input schema for OpenAI strict mode: every property required, optional
 * fields as `anyOf [T, null]` with their default stated in the description,
 * `additionalProperties: false` on every object, `oneOf` as `anyOf`, and constraint keywords
 * strict mode rejects (`minLength`, `default`, …) left to the Zod parse that follows. Schemas
 * strict mode cannot express (records, tuples, intersections, "any" fields) come back as the
 * loose schema with `strict: false` and the reason.
 */
export function toFunctionParameters(input: z.ZodObject): FunctionParameters {
  const loose = toLooseParameters(input);
  try {
    return { parameters: strictNode(structuredClone(loose), '', true), strict: true };
  } catch (error) {
    if (!(error instanceof NotStrictError)) throw error;
    return { parameters: loose, strict: false, reason: error.message };
  }
}

function strictNode(node: unknown, path: string, isRoot = false): JsonSchema {
  const where = path === '' ? 'the top level' : `\`${path}\``;
  if (typeof node !== 'object' || node === null || Array.isArray(node)) {
    throw new NotStrictError(`${where} is a boolean schema`);
  }
  const schema = { ...(node as JsonSchema) };
  if (schema.propertyNames !== undefined || (schema.additionalProperties !== undefined && schema.additionalProperties !== false)) {
    throw new NotStrictError(`${where} is a record or accepts extra keys`);
  }
  for (const keyword of Object.keys(schema)) {
    if (STRUCTURAL_KEYWORDS.has(keyword)) throw new NotStrictError(`${where} uses \`${keyword}\``);
  }
  if (schema.oneOf !== undefined) {
    schema.anyOf = [...((schema.anyOf as unknown[] | undefined) ?? []), ...(schema.oneOf as unknown[])];
    delete schema.oneOf;
  }
  if (schema.default !== undefined && !isRoot) {
    schema.description = withNote(schema.description, `Default: ${JSON.stringify(schema.default)}.`);
  }
  if (typeof schema.format === 'string' && !STRICT_FORMATS.has(schema.format)) delete schema.format;
  for (const keyword of Object.keys(schema)) {
    if (!STRICT_KEYWORDS.has(keyword)) delete schema[keyword];
  }
  if (Array.isArray(schema.type)) return strictNode(splitTypes(schema), path);

  if (schema.anyOf !== undefined) {
    if (isRoot) throw new NotStrictError('the top level is a union');
    schema.anyOf = (schema.anyOf as unknown[]).map((branch, index) => strictNode(branch, `${path}|${index}`));
  }
  for (const key of ['$defs', 'definitions'] as const) {
    if (schema[key] !== undefined) {
      const definitions = schema[key] as Record<string, unknown>;
      schema[key] = Object.fromEntries(Object.entries(definitions).map(([name, definition]) => [name, strictNode(definition, `${key}.${name}`)]));
    }
  }
  if (schema.type === 'object' || schema.properties !== undefined) return strictObject(schema, path, where);
  if (schema.type === 'array') {
    if (typeof schema.items !== 'object' || schema.items === null || Array.isArray(schema.items)) {
      throw new NotStrictError(`${where} is an array without one item schema`);
    }
    schema.items = strictNode(schema.items, `${path}[]`);
  }
  const described = schema.type !== undefined || schema.anyOf !== undefined || schema.$ref !== undefined
    || schema.enum !== undefined || schema.const !== undefined;
  if (!described) throw new NotStrictError(`${where} accepts any value`);
  return schema;
}

function strictObject(schema: JsonSchema, path: string, where: string): JsonSchema {
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) throw new NotStrictError(`${where} is a record or accepts extra keys`);
  const properties = (schema.properties as Record<string, unknown> | undefined) ?? {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const strictProperties: Record<string, JsonSchema> = {};
  for (const [key, property] of Object.entries(properties)) {
    const propertyPath = path === '' ? key : `${path}.${key}`;
    const converted = strictNode(property, propertyPath);
    strictProperties[key] = required.has(key) ? converted : optionalAsNullable(converted, property as JsonSchema);
  }
  return {
    ...schema,
    type: 'object',
    properties: strictProperties,
    required: Object.keys(strictProperties),
    additionalProperties: false,
  };
}

/** An optional field in strict mode: the model must send it, and sends `null` to leave it out. */
function optionalAsNullable(converted: JsonSchema, original: JsonSchema): JsonSchema {
  const { description: _description, ...rest } = converted;
  const note = original.default === undefined
    ? 'Optional: send null to leave it out.'
    : `Optional: send null for the default, ${JSON.stringify(original.default)}.`;
  const branches = rest.anyOf !== undefined && Object.keys(rest).length === 1 ? (rest.anyOf as JsonSchema[]) : [rest];
  const hasNull = branches.some((branch) => branch.type === 'null');
  const result: JsonSchema = { anyOf: hasNull ? branches : [...branches, { type: 'null' }] };
  result.description = withNote(original.description, note);
  return result;
}

/** `{ type: ['string', 'number'] }` as `anyOf`, each branch keeping the keywords of its type. */
function splitTypes(schema: JsonSchema): JsonSchema {
  const { type, description, title, ...rest } = schema;
  const branches = (type as string[]).map((single) => ({ ...keywordsFor(single, rest), type: single }));
  const result: JsonSchema = { anyOf: branches };
  if (description !== undefined) result.description = description;
  if (title !== undefined) result.title = title;
  return result;
}

const TYPE_KEYWORDS: Record<string, readonly string[]> = {
  string: ['pattern', 'format', 'enum', 'const'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'enum', 'const'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'enum', 'const'],
  boolean: ['enum', 'const'],
  array: ['items', 'minItems', 'maxItems'],
  object: ['properties', 'required', 'additionalProperties'],
  null: [],
};

function keywordsFor(type: string, keywords: JsonSchema): JsonSchema {
  const allowed = TYPE_KEYWORDS[type] ?? [];
  const picked = Object.entries(keywords).filter(([keyword]) => allowed.includes(keyword));
  const result = Object.fromEntries(picked) as JsonSchema;
  if (Array.isArray(result.enum)) result.enum = result.enum.filter((value) => jsonTypeOf(value) === type || (type === 'number' && jsonTypeOf(value) === 'integer'));
  return result;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function withNote(description: unknown, note: string): string {
  const text = typeof description === 'string' ? description.trim() : '';
  if (text === '') return note;
  return /[.!?]$/.test(text) ? `${text} ${note}` : `${text}. ${note}`;
}

/**
 * Removes the `null`s a strict-mode model sends for optional fields it leaves out, so the
 * Zod parse applies their defaults. A `null` stays where the tool's own schema accepts it.
 * Walks the loose schema (from {@link toLooseParameters}); the value is not mutated.
 */
export function dropNullOptionals(value: unknown, schema: JsonSchema, root: JsonSchema = schema): unknown {
  const resolved = resolveRef(schema, root);
  if (Array.isArray(value)) {
    const items = resolved.items;
    if (typeof items !== 'object' || items === null || Array.isArray(items)) return value;
    return value.map((item) => dropNullOptionals(item, items as JsonSchema, root));
  }
  if (typeof value !== 'object' || value === null) return value;

  const branches = [...((resolved.anyOf as JsonSchema[] | undefined) ?? []), ...((resolved.oneOf as JsonSchema[] | undefined) ?? [])];
  let result = value as Record<string, unknown>;
  for (const branch of branches) result = dropNullOptionals(result, branch, root) as Record<string, unknown>;

  const properties = resolved.properties as Record<string, JsonSchema> | undefined;
  if (properties === undefined) return result;
  const required = new Set((resolved.required as string[] | undefined) ?? []);
  const cleaned: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(result)) {
    const fieldSchema = properties[key];
    if (fieldSchema === undefined) {
      cleaned[key] = field;
    } else if (field === null && !required.has(key) && !acceptsNull(fieldSchema, root)) {
      continue;
    } else {
      cleaned[key] = dropNullOptionals(field, fieldSchema, root);
    }
  }
  return cleaned;
}

function acceptsNull(schema: JsonSchema, root: JsonSchema): boolean {
  const resolved = resolveRef(schema, root);
  const type = resolved.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(resolved.enum) && resolved.enum.includes(null)) return true;
  if (resolved.const === null) return true;
  const branches = [...((resolved.anyOf as JsonSchema[] | undefined) ?? []), ...((resolved.oneOf as JsonSchema[] | undefined) ?? [])];
  return branches.some((branch) => acceptsNull(branch, root));
}

function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let target: unknown = root;
  for (const segment of ref.slice(2).split('/')) {
    target = (target as Record<string, unknown> | undefined)?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return typeof target === 'object' && target !== null ? (target as JsonSchema) : schema;
}
