// The test sandbox implements the AI SDK's published session type, and that type fits the
// structural one connectWorkspace() takes (so a real Vercel Sandbox session is accepted).
import type { Experimental_SandboxSession } from 'ai';
import { expectTypeOf, test } from 'vitest';
import type { SandboxSessionLike } from '../../src/workspace/remote/sandbox-session.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import { createLocalSandboxSession } from './local-sandbox-session.js';

test('the local sandbox session is an Experimental_SandboxSession', () => {
  const session = createLocalSandboxSession({ base: '/tmp', env: {} });
  expectTypeOf(session).toExtend<Experimental_SandboxSession>();
  const typed: Experimental_SandboxSession = session;
  void typed;
});

test('every Experimental_SandboxSession is accepted by connectWorkspace', () => {
  expectTypeOf<Experimental_SandboxSession>().toExtend<SandboxSessionLike>();
  const connect = (sandbox: Experimental_SandboxSession) => connectWorkspace({ sandbox, root: '/vercel/sandbox' });
  void connect;
  // @ts-expect-error a root is required with a sandbox
  const withoutRoot = (sandbox: Experimental_SandboxSession) => connectWorkspace({ sandbox });
  void withoutRoot;
});
