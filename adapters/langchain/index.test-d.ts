import { describe, expectTypeOf, it } from 'vitest';
import type { ClientTool } from '@langchain/core/tools';
import { fakeModel } from '@langchain/core/testing';
import { createAgent, type AgentMiddleware } from 'langchain';
import type { ApprovalDecision, ApproveFunction, Session } from '../../src/index.js';
import { toLangChain, type ApprovalInterrupt, type ApprovalResume, type LangChainOptions, type ToolbeltStructuredTool } from './index.js';

describe('toLangChain types', () => {
  it('returns tools and middleware createAgent accepts', () => {
    const belt = toLangChain([]);
    expectTypeOf(belt.tools).toEqualTypeOf<ToolbeltStructuredTool[]>();
    expectTypeOf(belt.middleware).toEqualTypeOf<AgentMiddleware>();
    expectTypeOf(belt.instructions).toBeString();
    expectTypeOf(belt.sessionFor).toEqualTypeOf<(threadId?: string) => Promise<Session>>();
    createAgent({ model: fakeModel(), tools: belt.tools, middleware: [belt.middleware] });
    const mixed: ClientTool[] = [...belt.tools];
    createAgent({ model: fakeModel(), tools: mixed });
  });

  it('resumes approvals with the core decisions', () => {
    expectTypeOf<ApprovalResume>().toEqualTypeOf<ApprovalDecision>();
    expectTypeOf<ApprovalInterrupt['type']>().toEqualTypeOf<'approval'>();
    expectTypeOf<LangChainOptions['onApproval']>().toEqualTypeOf<ApproveFunction | undefined>();
    // @ts-expect-error a mode outside the four
    toLangChain([], { mode: 'yolo' });
    // @ts-expect-error background takes tool names
    toLangChain([], { background: [1] });
  });
});
