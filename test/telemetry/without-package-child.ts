/**
 * Runs calls with `@opentelemetry/api` unresolvable (see block-opentelemetry.mjs) and prints
 * what happened as JSON: the results, an audit record, and whether the API could be imported.
 */
import { z } from 'zod';
import { createSession, defineTool, runTool, type AuditRecord } from '../../src/index.js';
import { openTelemetryApi } from '../../src/telemetry/open-telemetry.js';

const change = defineTool({ name: 'change', description: 'Changes.', kind: 'edit', input: z.object({}), execute: () => ({ text: 'changed', data: { path: 'a.txt' } }) });
const records: AuditRecord[] = [];
const session = createSession();
const first = await runTool(change, {}, { session });
const second = await runTool(change, {}, { session, onAudit: (record) => void records.push(record) });
let importable = true;
await import('@opentelemetry/api').catch(() => (importable = false));
console.log(JSON.stringify({ results: [first.text, second.text], records: records.map((record) => [record.tool, record.outcome, record.paths]), api: await openTelemetryApi(), importable }));
