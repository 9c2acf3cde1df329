import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpCli, type HttpCli } from './test-support/http-cli.js';

// The MCP conformance suite's server scenarios, run against `agent-toolbelt mcp --http`.

const conformance = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json').replace(/package\.json$/, 'dist/index.js');

/** The scenarios that apply to a server that offers tools and nothing else. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'];

/** The rest of `conformance list`'s server scenarios, each with why it does not apply. */
const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'the server declares no logging capability',
  'completion-complete': 'the server declares no completions capability (it has no prompts or resource templates to complete)',
  'tools-call-simple-text': "calls the reference server's test_simple_text tool",
  'tools-call-image': "calls the reference server's test_image_content tool",
  'tools-call-audio': "calls the reference server's test_audio_content tool",
  'tools-call-embedded-resource': "calls the reference server's test_embedded_resource tool",
  'tools-call-mixed-content': "calls the reference server's test_multiple_content_types tool",
  'tools-call-with-logging': "calls the reference server's test_tool_with_logging tool",
  'tools-call-error': "calls the reference server's test_error_handling tool",
  'tools-call-with-progress': "calls the reference server's test_tool_with_progress tool (progress is tested in progress.test.ts)",
  'tools-call-sampling': "calls the reference server's test_sampling tool; the toolbelt never asks the client's model",
  'tools-call-elicitation': "calls the reference server's test_elicitation tool (elicitation is tested in index.test.ts and http.test.ts)",
  'server-sse-polling': "calls the reference server's test_reconnection tool, which closes its stream mid-call to be resumed from an event store",
  'json-schema-2020-12': "looks for the reference server's json_schema_2020_12_tool (built-in-tools.test.ts compiles every schema in 2020-12 strict mode)",
  'elicitation-sep1034-defaults': "calls the reference server's test_elicitation_sep1034_defaults tool",
  'elicitation-sep1330-enums': "calls the reference server's test_elicitation_sep1330_enums tool",
  'resources-list': 'the server offers no resources',
  'resources-read-text': 'the server offers no resources',
  'resources-read-binary': 'the server offers no resources',
  'resources-templates-read': 'the server offers no resource templates',
  'resources-subscribe': 'the server offers no resources',
  'resources-unsubscribe': 'the server offers no resources',
  'prompts-list': 'the server offers no prompts',
  'prompts-get-simple': 'the server offers no prompts',
  'prompts-get-with-args': 'the server offers no prompts',
  'prompts-get-embedded-resource': 'the server offers no prompts',
  'prompts-get-with-image': 'the server offers no prompts',
};

const run = (args: string[], cwd: string) =>
  promisify(execFile)(process.execPath, [conformance, ...args], { cwd, timeout: 60_000 }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );

let base: string;
let server: HttpCli;
beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-conformance-'));
  server = await startHttpCli(['--root', base]);
});
afterAll(async () => {
  await server?.stop();
  await rm(base, { recursive: true, force: true });
});

describe('the MCP conformance suite against agent-toolbelt mcp --http', () => {
  it('lists every server scenario here, as applicable or not with a reason', async () => {
    const { stdout } = await run(['list'], base);
    const serverPart = stdout.slice(stdout.indexOf('Server scenarios'), stdout.indexOf('Client scenarios'));
    const listed = [...serverPart.matchAll(/^\s+- ([\w-]+)/gm)].map((match) => match[1]);
    expect(listed.length).toBeGreaterThan(20);
    expect([...listed].sort()).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
  });

  it.each(APPLICABLE)('passes %s', async (scenario) => {
    // Results are written under the working folder, so each run gets the temporary one.
    const result = await run(['server', '--url', server.url.href, '--scenario', scenario], base);
    expect(result.stdout, result.stdout).toMatch(/Passed: \d+\/\d+, 0 failed/);
    expect(result.code, result.stdout).toBe(0);
  });
});
