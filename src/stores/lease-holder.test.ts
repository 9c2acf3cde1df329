import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { SessionBusyError } from '../errors/session-busy-error.js';
import { describeHolder, holderTag } from './lease-holder.js';

const other = JSON.stringify({ pid: 4121, host: 'web-2', leaseMs: 5_000 });

describe('what a refused lease says about its holder', () => {
  it('reads a holder that renews on schedule as running, and one that missed a renewal as stale', () => {
    // Renewed 0.4 s ago: 4.6 s of its 5 s lease left.
    expect(describeHolder({ retryInMs: 4_600, holder: other, at: 1_000 }, 1_000)).toEqual({
      state: 'running',
      thisProcess: false,
      pid: 4121,
      host: 'web-2',
      renewedMsAgo: 400,
      expiresInMs: 4_600,
    });
    // Renewals come every 1.67 s; 2.5 s without one is past the margin.
    expect(describeHolder({ retryInMs: 2_600, holder: other, at: 1_000 }, 1_000)?.state).toBe('running');
    expect(describeHolder({ retryInMs: 2_400, holder: other, at: 1_000 }, 1_000)?.state).toBe('stale');
    // The time since the refusal counts too.
    expect(describeHolder({ retryInMs: 4_600, holder: other, at: 1_000 }, 4_000)).toMatchObject({ state: 'stale', renewedMsAgo: 3_400, expiresInMs: 1_600 });
  });

  it('knows a holder of this process, and says nothing it cannot know of a lease without a note', () => {
    expect(describeHolder({ retryInMs: 30_000, holder: holderTag(30_000), at: 0 }, 0)).toMatchObject({ state: 'running', thisProcess: true, pid: process.pid, host: hostname() });
    expect(describeHolder({ retryInMs: 1_200, holder: undefined, at: 0 }, 200)).toEqual({ state: 'unknown', thisProcess: false, expiresInMs: 1_000 });
    expect(describeHolder({ retryInMs: 1_200, holder: 'not a note', at: 0 }, 0)?.state).toBe('unknown');
    expect(describeHolder(undefined, 0)).toBeUndefined();
  });

  it('puts each kind of holder in the busy message', () => {
    const message = (holder: ConstructorParameters<typeof SessionBusyError>[2]) => new SessionBusyError('chat-42', 2_000, holder).message;
    expect(message({ holder: describeHolder({ retryInMs: 4_600, holder: other, at: 0 }, 0) })).toBe(
      'Session "chat-42" is busy: a turn in process 4121 on web-2 is running (it renewed its lease 0.4 s ago); this one waited 2000 ms. Send again once that turn has finished.',
    );
    expect(message({ holder: describeHolder({ retryInMs: 1_800, holder: other, at: 0 }, 0) })).toBe(
      'Session "chat-42" is busy: its lease is held by a turn in process 4121 on web-2 that has not renewed it for 3.2 s (the turn ended without releasing it, or its process died or stalled), and expires in 1.8 s; this one waited 2000 ms. Send again after that.',
    );
    expect(message({ holder: { state: 'running', thisProcess: true, runningForMs: 3_100 } })).toBe(
      'Session "chat-42" is busy: a turn in this process has been running for 3.1 s; this one waited 2000 ms. Send again once that turn has finished.',
    );
    expect(message({ holder: { state: 'unknown', thisProcess: false, expiresInMs: 12_000 } })).toBe(
      'Session "chat-42" is busy: another turn holds its lease, which expires in 12.0 s unless renewed; this one waited 2000 ms. Send again once that turn has finished.',
    );
    expect(message(undefined)).toBe('Session "chat-42" is busy: another turn held it for all of the 2000 ms this one waited. Send again once that turn has finished.');
  });
});
