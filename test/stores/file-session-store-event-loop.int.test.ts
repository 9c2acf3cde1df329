/**
 * The file store's turn runs its small steps as synchronous file calls (see
 * src/stores/file-session-store.ts): here a turn of a 1 MB session must not hold the event
 * loop long. The session is one large text, whose JSON is cheap, so what is measured is the
 * store's own work: a 1 MB write, a link and a 1 MB read. About 3 ms on an idle machine (the
 * bench has the figures); the bound is generous because the machine is shared, where a busy
 * core stretches every slice, and still catches a store that blocks for real.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { createFileSessionStore } from '../../src/index.js';
import { measureEventLoopBlock } from '../support/event-loop.js';

const GENEROUS_BLOCK_MS = 100;

it('holds the event loop for a few milliseconds in a turn of a 1 MB session', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'toolbelt-file-store-block-'));
  try {
    const store = createFileSessionStore({ dir });
    await store.withSession('big', (session) => session.setState('notes', { text: 'a line of notes. '.repeat(65_536) }));
    expect((await stat(path.join(dir, 'big', 'v1.json'))).size).toBeGreaterThan(1_000_000);
    const blocks: number[] = [];
    for (let turn = 0; turn < 9; turn += 1) {
      const { maxDelayMs } = await measureEventLoopBlock(() => store.withSession('big', (session) => session.approve(`turn ${turn}`)));
      // The first turns pay for warming up (the first large allocations), not for the store.
      if (turn >= 2) blocks.push(maxDelayMs);
    }
    blocks.sort((a, b) => a - b);
    expect(blocks[3]).toBeLessThan(GENEROUS_BLOCK_MS);
    expect((await store.load('big'))?.approvals).toHaveLength(9);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
