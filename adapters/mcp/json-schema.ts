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
  return json;
}
