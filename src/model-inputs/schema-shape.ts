/**
 * @module What a Zod schema takes, as far as repairing a model's input needs to know: whether a
 * field may be left out, and whether its value is a number, a boolean, a list, an object or
 * text. Read from Zod's own definition objects, so every schema the tools declare is covered.
 */
import type { z } from 'zod';

/** The kinds of value a repair can convert to. */
export type ValueKind = 'number' | 'boolean' | 'array' | 'object' | 'string' | 'other';

interface Definition {
  readonly type: string;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly catchall?: z.ZodType;
  readonly in?: z.ZodType;
  readonly options?: readonly z.ZodType[];
}

function definitionOf(schema: z.ZodType): Definition {
  return (schema as unknown as { _zod: { def: Definition } })._zod.def;
}

/**
 * The schema under `optional`, `default`, `nullable`, `readonly` and `pipe`: for
 * `z.preprocess(fn, schema)` the schema after the function, for `schema.transform(fn)` the
 * schema before it (what the model's value must be).
 */
export function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const definition = definitionOf(current);
    if (definition.innerType !== undefined) current = definition.innerType;
    else if (definition.type === 'pipe' && definition.in !== undefined) {
      current = definitionOf(definition.in).type === 'transform' ? (definition as unknown as { out: z.ZodType }).out : definition.in;
    } else return current;
  }
}

/** True when the field may be left out (`optional`, or with a `default`). */
export function isOptional(schema: z.ZodType): boolean {
  let current: z.ZodType | undefined = schema;
  while (current !== undefined) {
    const { type, innerType } = definitionOf(current);
    if (type === 'optional' || type === 'default' || type === 'prefault') return true;
    current = type === 'nullable' || type === 'readonly' ? innerType : undefined;
  }
  return false;
}

/** What kind of value the schema takes. A union counts as `other`: its meaning is not one kind. */
export function valueKind(schema: z.ZodType): ValueKind {
  const { type } = definitionOf(unwrap(schema));
  if (type === 'number' || type === 'int' || type === 'bigint') return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === 'array') return 'array';
  if (type === 'object') return 'object';
  if (type === 'string' || type === 'enum' || type === 'literal') return 'string';
  return 'other';
}

/** The element schema of a list. */
export function elementOf(schema: z.ZodType): z.ZodType | undefined {
  return definitionOf(unwrap(schema)).element;
}

/** The fields of an object schema, and whether it takes keys beyond them. */
export function fieldsOf(schema: z.ZodType): { readonly shape: Readonly<Record<string, z.ZodType>>; readonly open: boolean } | undefined {
  const definition = definitionOf(unwrap(schema));
  if (definition.type !== 'object' || definition.shape === undefined) return undefined;
  const catchall = definition.catchall === undefined ? undefined : definitionOf(definition.catchall).type;
  return { shape: definition.shape, open: catchall !== undefined && catchall !== 'never' };
}
