import { z } from 'zod';

/** The first MCP version whose schemas default to JSON Schema 2020-12 (and whose forms have titled options). */
export const JSON_SCHEMA_2020_PROTOCOL = '2025-11-25';

/** True when the negotiated protocol version predates {@link JSON_SCHEMA_2020_PROTOCOL} (dates compare as text). */
export function isLegacyProtocol(protocolVersion: string): boolean {
  return protocolVersion < JSON_SCHEMA_2020_PROTOCOL;
}

/**
 * A tool's Zod schema as the JSON Schema a client of this protocol version expects: draft
 * 2020-12 from 2025-11-25 on (the dialect a schema without `$schema` is read in), draft-07
 * before. `$schema` is left out either way: it would only restate the default, and clients
 * with a validator for one dialect (the MCP SDK's own) reject a schema naming another.
 * `io` picks the side of transforms and defaults: what a caller may send, or what a result holds.
 */
export function toolJsonSchema(schema: z.ZodObject, protocolVersion: string, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: isLegacyProtocol(protocolVersion) ? 'draft-7' : 'draft-2020-12', io });
  return withoutTypeArrays(json) as Record<string, unknown>;
}

/**
 * The schema with every `type: [A, B]` (Zod's form of a nullable field) written as
 * `anyOf: [{ type: A }, { type: B }]`: the same values, in the form every client's
 * validator and tool-schema reader accepts (the MCP Inspector flags type arrays as not
 * portable, and several model providers reject them).
 */
function withoutTypeArrays(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutTypeArrays);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node as Record<string, unknown>).map(([key, value]) => [key, withoutTypeArrays(value)] as const);
  const rewritten: Record<string, unknown> = Object.fromEntries(entries);
  const type = rewritten.type;
  if (!Array.isArray(type) || rewritten.anyOf !== undefined) return rewritten;
  const { type: _types, ...rest } = rewritten;
  return type.length === 1 ? { ...rest, type: type[0] } : { ...rest, anyOf: type.map((one) => ({ type: one })) };
}
