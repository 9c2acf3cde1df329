import { describe, expect, it } from 'vitest';
import { assertSupportedNode, MIN_NODE_MAJOR, unsupportedNodeMessage } from './node-version.js';

describe('the Node.js version check', () => {
  it('names the version needed, the one running and how to get the right one', () => {
    expect(unsupportedNodeMessage('v20.20.2')).toBe(
      'agent-toolbelt needs Node.js 22 or newer; this is v20.20.2. Install Node.js 22 (https://nodejs.org/en/download, or `nvm install 22`) and run again.',
    );
    expect(() => assertSupportedNode('v18.0.0')).toThrow('agent-toolbelt needs Node.js 22 or newer; this is v18.0.0.');
  });

  it('passes Node.js 22 and newer, and this process', () => {
    expect(MIN_NODE_MAJOR).toBe(22);
    for (const version of ['v22.0.0', 'v22.23.5', 'v24.1.0', '30.0.0']) expect(unsupportedNodeMessage(version)).toBeUndefined();
    expect(() => assertSupportedNode()).not.toThrow();
  });
});
