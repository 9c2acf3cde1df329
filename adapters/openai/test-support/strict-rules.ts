/**
 * An independent check of OpenAI's strict-mode rules for function parameters, written from
 * the Structured Outputs documentation, to test the converter against something it did not
 * write itself. Returns every violation as `path: problem`.
 */
const ALLOWED = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'const',
  'description', 'title', '$ref', '$defs', 'definitions', 'pattern', 'format',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const MAX_DEPTH = 10;

export function strictViolations(root: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(root)) return ['<root>: not an object schema'];
  if (root.type !== 'object') problems.push('<root>: type is not "object"');
  if (root.anyOf !== undefined) problems.push('<root>: is a union');
  check(root, '<root>', 0, problems);
  return problems;
}

function check(schema: unknown, path: string, depth: number, problems: string[]): void {
  if (!isObject(schema)) {
    problems.push(`${path}: boolean or non-object schema`);
    return;
  }
  if (depth > MAX_DEPTH) problems.push(`${path}: nested deeper than ${MAX_DEPTH} levels`);
  for (const keyword of Object.keys(schema)) {
    if (!ALLOWED.has(keyword)) problems.push(`${path}: keyword \`${keyword}\` is not supported`);
  }
  if (typeof schema.format === 'string' && !FORMATS.has(schema.format)) problems.push(`${path}: format \`${schema.format}\``);
  if (Array.isArray(schema.type) && schema.type.filter((type) => type !== 'null').length > 1) {
    problems.push(`${path}: type array with several non-null types`);
  }
  const typed = schema.type !== undefined || schema.anyOf !== undefined || schema.$ref !== undefined || schema.enum !== undefined || schema.const !== undefined;
  if (!typed && path !== '<root>') problems.push(`${path}: no type`);

  const isObjectSchema = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));
  if (isObjectSchema || schema.properties !== undefined) {
    if (schema.additionalProperties !== false) problems.push(`${path}: additionalProperties is not false`);
    const keys = Object.keys(isObject(schema.properties) ? schema.properties : {});
    const required = Array.isArray(schema.required) ? schema.required : [];
    const missing = keys.filter((key) => !required.includes(key));
    if (missing.length > 0) problems.push(`${path}: properties not required: ${missing.join(', ')}`);
    for (const key of keys) check((schema.properties as Record<string, unknown>)[key], `${path}.${key}`, depth + 1, problems);
  }
  if (schema.type === 'array') {
    if (!isObject(schema.items)) problems.push(`${path}: array without one item schema`);
    else check(schema.items, `${path}[]`, depth + 1, problems);
  }
  if (Array.isArray(schema.anyOf)) schema.anyOf.forEach((branch, index) => check(branch, `${path}|${index}`, depth + 1, problems));
  for (const key of ['$defs', 'definitions']) {
    if (isObject(schema[key])) {
      for (const [name, definition] of Object.entries(schema[key] as Record<string, unknown>)) check(definition, `${key}.${name}`, depth + 1, problems);
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
