import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../../adapters/mcp/index.js';
import type { ApprovalDecision } from '../../../src/index.js';
import type { Driver, DriverRun, ModelView, SeenResult } from '../driver.js';

/** How `createMcpServer` words its elicitation form; the driver reads the tool name and description back out. */
const FORM_MESSAGE = /^The agent wants to run ([^:]+):\n([\s\S]*)$/;

/**
 * MCP: `createMcpServer` and the SDK's `Client` over an in-memory transport pair. There is no
 * model in MCP: the client calls the tools the script names, in order, as a host would.
 * `callback` serves `onApproval` to a client without elicitation; `native` gives the client
 * elicitation and answers the server's approval forms.
 */
export function mcpDriver(approvals: Driver['approvals']): Driver {
  return {
    name: `MCP (${approvals === 'callback' ? 'onApproval' : 'elicitation'})`,
    framework: 'mcp',
    approvals,
    hasPrompt: false,
    validatesArgumentsFirst: false,
    async run(run: DriverRun): Promise<ModelView> {
      const { approver } = run;
      const server = createMcpServer(run.collections, {
        session: run.session,
        mode: run.mode,
        needsApproval: run.needsApproval,
        onApproval: approvals === 'callback' && approver !== undefined ? (request) => approver(request) : undefined,
      });
      const native = approvals === 'native' && approver !== undefined;
      const client = new Client({ name: 'conformance', version: '1.0.0' }, native ? { capabilities: { elicitation: {} } } : {});
      if (native) {
        client.setRequestHandler(ElicitRequestSchema, (request) => {
          const [, toolName = '', description] = FORM_MESSAGE.exec(request.params.message) ?? [];
          return toFormAnswer(approver({ toolName, description }));
        });
      }
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await server.connect(serverTransport);
      await client.connect(clientTransport);
      try {
        const results: SeenResult[] = [];
        for (const calls of run.turns) {
          for (const call of calls) {
            const result = await client.callTool({ name: call.tool, arguments: call.input });
            const content = result.content as Array<{ type: string; text?: string }>;
            results.push({ tool: call.tool, text: content.map((part) => part.text ?? '').join(''), isError: result.isError === true });
          }
        }
        return { results };
      } finally {
        await client.close();
      }
    },
  };
}

function toFormAnswer(decision: ApprovalDecision): ElicitResult {
  if (decision === 'approve' || decision === 'always') return { action: 'accept', content: { decision } };
  if (decision === 'deny') return { action: 'decline' };
  if (decision.type === 'deny') return { action: 'accept', content: { decision: 'deny', ...(decision.reason === undefined ? {} : { reason: decision.reason }) } };
  throw new TypeError('An MCP approval form has no edited input; use the onApproval driver for edits.');
}
