import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpCli, type HttpCli } from './test-support/http-cli.js';

// The MCP conformance suite's server scenarios, each protocol era's requirement set run at its
// own wire against `agent-toolbelt mcp --http`, with its sessions in memory and in a session
// store (where 2025-era sessions are served request by request, http-legacy-stateless.ts). The
// suite drives servers over HTTP only (its `server` command takes a URL), so stdio is checked
// with the Inspector (inspector.int.test.ts).

const conformance = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json').replace(/package\.json$/, 'dist/index.js');

type Era = '2025-11-25' | '2026-07-28';
const ERAS: readonly Era[] = ['2025-11-25', '2026-07-28'];

/** The scenarios that apply to a server that offers tools and nothing else, by era. */
const APPLICABLE: Record<Era, readonly string[]> = {
  '2025-11-25': ['server-initialize', 'server-session-lifecycle', 'ping', 'tools-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'],
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'server-sse-multiple-streams',
    'dns-rebinding-protection',
    'caching',
    'http-header-validation',
    'input-required-result-unsupported-methods',
  ],
};

/** Checks of applicable scenarios that exercise something this server does not have, by `scenario:check`. */
const CHECKS_NOT_APPLICABLE: Record<string, string> = {
  'server-stateless:sep-2575-server-rejects-undeclared-capability':
    "calls the reference server's test_missing_capability tool (needs sampling); no toolbelt tool needs a capability the client has not declared: ask_user_question is listed and served only to clients that declare elicitation",
  'server-stateless:sep-2575-missing-capability-http-400': 'the same test_missing_capability tool',
  'server-stateless:sep-2575-server-sends-tools-list-changed-on-subscription':
    "calls the reference server's test_trigger_tool_change tool to change the tool list; the toolbelt's list never changes while it runs",
  'caching:sep-2549-prompts-list-caching-hints': 'the server offers no prompts',
  'caching:sep-2549-resources-list-caching-hints': 'the server offers no resources',
  'caching:sep-2549-resources-templates-list-caching-hints': 'the server offers no resource templates',
};

const referenceTool = (tool: string, more = '') => `calls the reference server's ${tool} tool${more}`;
const vacuous = ' (the suite counts it as passed: the toolbelt answers an unknown tool with an isError text result; nothing of the toolbelt is tested)';
const mrtr = (tool: string) => referenceTool(tool, '; the toolbelt\'s own input_required round trips (approvals, ask_user_question, a forged and a replayed requestState) are tested in modern-era.int.test.ts');

/** The rest of `conformance list --server`, each with why it does not apply. */
const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'the server declares no logging capability',
  'completion-complete': 'the server declares no completions capability (it has no prompts or resource templates to complete)',
  'tools-call-simple-text': referenceTool('test_simple_text', vacuous),
  'tools-call-image': referenceTool('test_image_content'),
  'tools-call-audio': referenceTool('test_audio_content'),
  'tools-call-embedded-resource': referenceTool('test_embedded_resource'),
  'tools-call-mixed-content': referenceTool('test_multiple_content_types'),
  'tools-call-with-logging': referenceTool('test_tool_with_logging'),
  'tools-call-error': referenceTool('test_error_handling', vacuous),
  'tools-call-with-progress': referenceTool('test_tool_with_progress', ' (progress is tested in progress.test.ts)'),
  'tools-call-sampling': referenceTool('test_sampling', '; the toolbelt never asks the client\'s model'),
  'tools-call-elicitation': referenceTool('test_elicitation', ' (elicitation is tested in index.test.ts and http.test.ts)'),
  'elicitation-sep1034-defaults': referenceTool('test_elicitation_sep1034_defaults'),
  'elicitation-sep1330-enums': referenceTool('test_elicitation_sep1330_enums'),
  'server-sse-polling': referenceTool('test_reconnection', ', which closes its stream mid-call to be resumed from an event store'),
  'json-schema-2020-12': "looks for the reference server's json_schema_2020_12_tool (built-in-tools.test.ts compiles every schema in 2020-12 strict mode)",
  'resources-list': 'the server offers no resources',
  'resources-read-text': 'the server offers no resources',
  'resources-read-binary': 'the server offers no resources',
  'resources-templates-read': 'the server offers no resource templates',
  'resources-subscribe': 'the server offers no resources',
  'resources-unsubscribe': 'the server offers no resources',
  'sep-2164-resource-not-found': 'the server offers no resources, so resources/read is answered -32601 (method not found), not -32602',
  'prompts-list': 'the server offers no prompts',
  'prompts-get-simple': 'the server offers no prompts',
  'prompts-get-with-args': 'the server offers no prompts',
  'prompts-get-embedded-resource': 'the server offers no prompts',
  'prompts-get-with-image': 'the server offers no prompts',
  'http-custom-header-server-validation': 'no toolbelt tool declares x-mcp-header parameters (pending in the suite)',
  'sep-2640-skills-directory': 'the skills extension (SEP-2640); the toolbelt serves skills through its load_skill tool',
  'sep-2640-skills-enumeration': 'the skills extension (SEP-2640); the toolbelt serves skills through its load_skill tool',
  'sep-2640-skills-manifest': 'the skills extension (SEP-2640); the toolbelt serves skills through its load_skill tool',
  ...Object.fromEntries(
    ['lifecycle', 'capability-negotiation', 'wire-fields', 'request-state-removal', 'mrtr-input', 'request-headers', 'dispatch-and-envelope', 'status-notifications', 'required-task-error', 'mrtr-composition'].map((name) => [
      `tasks-${name}`,
      "the tasks extension (SEP-2663), with the reference server's slow_compute and other task tools; the toolbelt's long commands are background jobs (run_shell with job_output), not MCP tasks",
    ]),
  ),
  'input-required-result-basic-elicitation': mrtr('test_input_required_result_elicitation'),
  'input-required-result-basic-sampling': mrtr('test_input_required_result_sampling'),
  'input-required-result-basic-list-roots': mrtr('test_input_required_result_list_roots'),
  'input-required-result-request-state': mrtr('test_input_required_result_request_state'),
  'input-required-result-multiple-input-requests': mrtr('test_input_required_result_multiple_inputs'),
  'input-required-result-multi-round': mrtr('test_input_required_result_multi_round'),
  'input-required-result-missing-input-response': mrtr('test_input_required_result_elicitation'),
  'input-required-result-non-tool-request': 'asks prompts/get for an input_required prompt; the server offers no prompts',
  'input-required-result-result-type': mrtr('test_input_required_result_elicitation'),
  'input-required-result-tampered-state': mrtr('test_input_required_result_tampered_state'),
  'input-required-result-capability-check': mrtr('test_input_required_result_capabilities'),
  'input-required-result-ignore-extra-params': mrtr('test_input_required_result_elicitation'),
  'input-required-result-validate-input': mrtr('test_input_required_result_elicitation'),
};

/** Statuses a check of an applicable scenario may end with. */
const PASSING = new Set(['SUCCESS', 'INFO', 'SKIPPED']);

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

const run = (args: string[], cwd: string) =>
  promisify(execFile)(process.execPath, [conformance, ...args], { cwd, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );

const serverScenarios = (listing: string) =>
  [...listing.slice(listing.indexOf('Server scenarios'), listing.indexOf('Client scenarios')).matchAll(/^\s+- ([\w-]+)/gm)].map((match) => match[1]!);

/** Each scenario's checks, from the folders `conformance server -o DIR` writes (`server-<scenario>-<time>/checks.json`). */
async function readResults(folder: string): Promise<Map<string, Check[]>> {
  const results = new Map<string, Check[]>();
  for (const entry of await readdir(folder)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(entry)?.[1];
    if (scenario !== undefined) results.set(scenario, JSON.parse(await readFile(path.join(folder, entry, 'checks.json'), 'utf8')) as Check[]);
  }
  return results;
}

const SERVERS = { 'in memory': [], 'in a file session store': ['--session-store', 'file:'] } as const;
type ServerKind = keyof typeof SERVERS;

let base: string;
const servers = new Map<ServerKind, HttpCli>();
beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-conformance-'));
  const root = path.join(base, 'root');
  await mkdir(root);
  for (const [kind, args] of Object.entries(SERVERS) as Array<[ServerKind, readonly string[]]>) {
    const flags = args.map((arg) => (arg === 'file:' ? `file:${path.join(base, 'sessions')}` : arg));
    servers.set(kind, await startHttpCli(['--root', root, ...flags], { timeoutMs: 60_000 }));
  }
}, 120_000);
afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.stop()));
  await rm(base, { recursive: true, force: true });
});

const CASES = ERAS.flatMap((era) => (Object.keys(SERVERS) as ServerKind[]).map((kind) => [era, kind] as const));

describe('the MCP conformance suite against agent-toolbelt mcp --http', () => {
  it('lists every server scenario here, as applicable or not with a reason', async () => {
    const listed = serverScenarios((await run(['list', '--server'], base)).stdout);
    const applicable = [...new Set(ERAS.flatMap((era) => APPLICABLE[era]))];
    expect(listed.length).toBeGreaterThan(60);
    expect(applicable.filter((name) => name in NOT_APPLICABLE)).toEqual([]);
    expect([...listed].sort()).toEqual([...applicable, ...Object.keys(NOT_APPLICABLE)].sort());
  });

  it('lists each scenario in the README with its verdict', async () => {
    const readme = await readFile(new URL('README.md', import.meta.url), 'utf8');
    const verdict = (name: string) => new RegExp(`^\\| [^|]*\`${name}\`[^|]*\\| ([^|]+) \\|`, 'm').exec(readme)?.[1]?.trim();
    for (const era of ERAS) for (const name of APPLICABLE[era]) expect(verdict(name), name).toMatch(/^passes/);
    for (const name of Object.keys(NOT_APPLICABLE)) expect(verdict(name), name).toBe('not applicable');
  });

  it.each(CASES)('passes every scenario of the %s requirements that applies, at that wire, with its sessions %s', async (era, kind) => {
    const output = path.join(base, `results-${era}-${Object.keys(SERVERS).indexOf(kind)}`);
    const { stdout } = await run(['server', '--url', servers.get(kind)!.url.href, '--requirements', era, '--output-dir', output], base);
    const results = await readResults(output);
    for (const name of results.keys()) expect(APPLICABLE[era].includes(name) || name in NOT_APPLICABLE, `unlisted scenario ${name}`).toBe(true);
    for (const name of APPLICABLE[era]) {
      const checks = results.get(name);
      expect(checks, `${name} did not run:\n${stdout}`).toBeDefined();
      expect(checks!.length, name).toBeGreaterThan(0);
      const failing = checks!.filter((check) => !PASSING.has(check.status) && !(`${name}:${check.id}` in CHECKS_NOT_APPLICABLE));
      expect(failing, name).toEqual([]);
      expect(checks!.filter((check) => check.status === 'SUCCESS').length, name).toBeGreaterThan(0);
    }
    // An exception that no longer names a check of the suite is stale.
    for (const key of Object.keys(CHECKS_NOT_APPLICABLE)) {
      const [name, id] = key.split(':') as [string, string];
      if (APPLICABLE[era].includes(name)) expect(results.get(name)!.map((check) => check.id), key).toContain(id);
    }
  });
});
