import { toStrictJsonSchema } from 'openai/lib/transform';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/index.js';
import { functionSpec } from './specs.js';
import { dropNullOptionals, toFunctionParameters, toLooseParameters } from './strict-schema.js';
import { strictViolations } from './test-support/strict-rules.js';

const searchInput = z.object({
  pattern: z.string().min(1).describe('The regular expression'),
  path: z.string().optional().describe('Folder to search'),
  limit: z.number().int().positive().max(500).default(100).describe('Most results to return'),
  mode: z.enum(['files', 'lines']).optional(),
  label: z.string().nullable().describe('A nullable label'),
  tasks: z.array(z.object({ subject: z.string(), blocked_by: z.array(z.string()).optional().describe('Ids') })).min(1),
  choice: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), a: z.string() }), z.object({ kind: z.literal('b') })]).optional(),
  either: z.union([z.string(), z.number()]),
});

describe('toFunctionParameters', () => {
  it('makes every property required, optional fields nullable with their default in the description, and objects closed', () => {
    const { parameters, strict } = toFunctionParameters(searchInput);
    expect(strict).toBe(true);
    expect(parameters).toEqual({
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'The regular expression' },
        path: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'Folder to search. Optional: send null to leave it out.' },
        limit: {
          anyOf: [{ type: 'integer', exclusiveMinimum: 0, maximum: 500 }, { type: 'null' }],
          description: 'Most results to return. Optional: send null for the default, 100.',
        },
        mode: { anyOf: [{ type: 'string', enum: ['files', 'lines'] }, { type: 'null' }], description: 'Optional: send null to leave it out.' },
        label: { description: 'A nullable label', anyOf: [{ type: 'string' }, { type: 'null' }] },
        tasks: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: {
              subject: { type: 'string' },
              blocked_by: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }], description: 'Ids. Optional: send null to leave it out.' },
            },
            required: ['subject', 'blocked_by'],
            additionalProperties: false,
          },
        },
        choice: {
          anyOf: [
            { type: 'object', properties: { kind: { type: 'string', const: 'a' }, a: { type: 'string' } }, required: ['kind', 'a'], additionalProperties: false },
            { type: 'object', properties: { kind: { type: 'string', const: 'b' } }, required: ['kind'], additionalProperties: false },
            { type: 'null' },
          ],
          description: 'Optional: send null to leave it out.',
        },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['pattern', 'path', 'limit', 'mode', 'label', 'tasks', 'choice', 'either'],
      additionalProperties: false,
    });
    expect(strictViolations(parameters)).toEqual([]);
  });

  it('produces schemas the openai package’s own strict normaliser accepts unchanged', () => {
    const { parameters } = toFunctionParameters(searchInput);
    expect(toStrictJsonSchema(parameters as never)).toEqual(parameters);
  });

  it.each([
    ['a record', z.object({ env: z.record(z.string(), z.string()) }), '`env` is a record or accepts extra keys'],
    ['a tuple', z.object({ point: z.tuple([z.number(), z.number()]) }), '`point` uses `prefixItems`'],
    ['a negation', z.object({ value: z.string().meta({ not: { const: '' } }) }), '`value` uses `not`'],
    ['an any field', z.object({ value: z.any() }), '`value` accepts any value'],
    ['a loose object', z.looseObject({ a: z.string() }), 'the top level is a record or accepts extra keys'],
  ])('falls back to strict: false for %s, giving the reason', (_name, schema, reason) => {
    const result = toFunctionParameters(schema);
    expect(result).toEqual({ parameters: toLooseParameters(schema), strict: false, reason });
  });

  it('warns once per tool that falls back, naming the tool and the reason', () => {
    const tool = defineTool({
      name: 'set_env', description: 'Sets variables.', kind: 'other',
      input: z.object({ env: z.record(z.string(), z.string()).describe('Variables') }), execute: () => 'ok',
    });
    const warn = vi.fn();
    const spec = functionSpec(tool, true, warn);
    expect(spec.strict).toBe(false);
    expect(warn).toHaveBeenCalledWith('agent-toolbelt: the parameters of `set_env` cannot be expressed in OpenAI strict mode (`env` is a record or accepts extra keys), so it is sent with `strict: false`.');
  });

  it('sends the loose schema without $schema when strict mode is off', () => {
    const parameters = toLooseParameters(z.object({ a: z.string().optional() }));
    expect(parameters).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });
});

describe('dropNullOptionals', () => {
  const loose = toLooseParameters(searchInput);

  it('drops nulls of optional fields at every level so defaults apply again, and keeps nulls a field accepts', () => {
    const sent = {
      pattern: 'x', path: null, limit: null, mode: null, label: null, either: 1, choice: null,
      tasks: [{ subject: 'a', blocked_by: null }],
    };
    const cleaned = dropNullOptionals(sent, loose);
    expect(cleaned).toEqual({ pattern: 'x', label: null, either: 1, tasks: [{ subject: 'a' }] });
    expect(searchInput.parse(cleaned)).toEqual({ pattern: 'x', label: null, either: 1, limit: 100, tasks: [{ subject: 'a' }] });
    expect(sent.path).toBeNull();
  });

  it('leaves a null in a required field for the Zod parse to reject', () => {
    expect(dropNullOptionals({ pattern: null }, loose)).toEqual({ pattern: null });
  });

  it('follows $ref into $defs', () => {
    const node = z.object({ name: z.string(), note: z.string().optional() }).meta({ id: 'Node' });
    const schema = toLooseParameters(z.object({ nodes: z.array(node) }));
    expect(JSON.stringify(schema)).toContain('$ref');
    expect(dropNullOptionals({ nodes: [{ name: 'a', note: null }] }, schema)).toEqual({ nodes: [{ name: 'a' }] });
  });
});
