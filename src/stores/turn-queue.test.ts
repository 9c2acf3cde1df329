import { describe, expect, it } from 'vitest';
import { SessionBusyError } from '../errors/session-busy-error.js';
import { holderTag } from './lease-holder.js';
import { TurnQueue } from './turn-queue.js';

describe('the line of a store’s turns for one session', () => {
  it('lets turns go one at a time, in the order they came', async () => {
    const queue = new TurnQueue();
    const order: number[] = [];
    const first = await queue.enter('chat', 1_000, Date.now() + 1_000, undefined);
    const later = [1, 2, 3].map((turn) => queue.enter('chat', 1_000, Date.now() + 1_000, undefined).then((place) => (order.push(turn), place)));
    const other = await queue.enter('another chat', 0, Date.now(), undefined);
    expect(order).toEqual([]);
    first.leave();
    const second = await later[0]!;
    second.leave();
    (await later[1]!).leave();
    (await later[2]!).leave();
    other.leave();
    expect(order).toEqual([1, 2, 3]);
  });

  it('gives up at the deadline, saying what holds the session, and leaves the line to the others', async () => {
    const queue = new TurnQueue();
    const first = await queue.enter('chat', 0, Date.now(), undefined);
    first.running();
    await new Promise((resolve) => setTimeout(resolve, 120));
    const busy = await queue.enter('chat', 50, Date.now() + 50, undefined).catch((caught: unknown) => caught);
    expect(busy).toBeInstanceOf(SessionBusyError);
    expect(busy).toMatchObject({ waitMs: 50, holder: { state: 'running', thisProcess: true } });
    expect((busy as SessionBusyError).holder!.runningForMs).toBeGreaterThanOrEqual(150);
    expect(await queue.enter('chat', 0, Date.now(), undefined).catch((caught: unknown) => (caught as Error).message)).toMatch(/^Session "chat" is busy: a turn in this process has been running for \d\.\d s; this one waited 0 ms\./);
    // While the first in line still waits for the storage system, those behind it hear what it heard.
    const queue2 = new TurnQueue();
    const waiting = await queue2.enter('chat', 0, Date.now(), undefined);
    waiting.heard({ retryInMs: 1_000, holder: holderTag(5_000), at: Date.now() });
    const behind = await queue2.enter('chat', 0, Date.now(), undefined).catch((caught: unknown) => caught);
    expect(behind).toMatchObject({ holder: { state: 'stale', expiresInMs: expect.any(Number) } });
    first.leave();
    waiting.leave();
    expect(await queue.enter('chat', 0, Date.now(), undefined)).toBeDefined();
  });

  it('leaves the line when the caller aborts, and the next turn still goes', async () => {
    const queue = new TurnQueue();
    const first = await queue.enter('chat', 1_000, Date.now() + 1_000, undefined);
    const controller = new AbortController();
    const aborted = queue.enter('chat', 1_000, Date.now() + 1_000, controller.signal).catch((caught: unknown) => caught);
    const third = queue.enter('chat', 1_000, Date.now() + 1_000, undefined);
    controller.abort(new Error('the user left'));
    expect(await aborted).toMatchObject({ message: 'the user left' });
    first.leave();
    (await third).leave();
  });
});
