import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { argumentsDigest, assertRequestStateKeys, createCallStateCodec, SpentStates } from './request-state.js';

const context = {} as ServerContext;
const oldKey = 'old-key-0123456789abcdef0123456789abcdef';
const newKey = 'new-key-0123456789abcdef0123456789abcdef';
const call = { tool: 'run_shell', arguments: argumentsDigest({ command: 'npm test' }), conversation: 'mcp:anonymous:default' };

describe('the requestState of a question put to a modern client', () => {
  it('is signed with the first key and verified with any, so a key rotates without breaking open questions', async () => {
    const minted = await createCallStateCodec([oldKey]).mint(call);
    await expect(createCallStateCodec([newKey, oldKey]).verify(minted, context)).resolves.toMatchObject(call);
    // Once the old key is dropped, what it signed is refused.
    await expect(createCallStateCodec([newKey]).verify(minted, context)).rejects.toThrow();
    const rotated = await createCallStateCodec([newKey, oldKey]).mint(call);
    await expect(createCallStateCodec([newKey]).verify(rotated, context)).resolves.toMatchObject(call);
  });

  it('refuses a state whose payload was changed, and gives each state a nonce of its own', async () => {
    const codec = createCallStateCodec([newKey]);
    const minted = await codec.mint(call);
    const [version, body, mac] = minted.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'));
    payload.p.tool = 'delete_file';
    const changed = `${version}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    await expect(codec.verify(changed, context)).rejects.toThrow();
    const [first, second] = await Promise.all([codec.verify(minted, context), codec.verify(await codec.mint(call), context)]);
    expect(first.nonce).not.toBe(second.nonce);
  });

  it('digests arguments whatever the order of their keys, and spends a nonce once', () => {
    expect(argumentsDigest({ a: 1, b: { c: 2, d: [1, 2] } })).toBe(argumentsDigest({ b: { d: [1, 2], c: 2 }, a: 1 }));
    expect(argumentsDigest({ a: 1 })).not.toBe(argumentsDigest({ a: 2 }));
    const spent = new SpentStates();
    expect(spent.spend('n1')).toBe(true);
    expect(spent.spend('n1')).toBe(false);
  });

  it('takes only keys of at least 32 bytes, naming the option', () => {
    expect(() => assertRequestStateKeys(['short'])).toThrow('Expected the `requestStateKeys` option to be a non-empty array of keys of at least 32 bytes each');
    expect(() => assertRequestStateKeys([])).toThrow('requestStateKeys');
    expect(() => assertRequestStateKeys([newKey, new Uint8Array(32)])).not.toThrow();
  });
});
