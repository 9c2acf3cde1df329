import { describe, expect, it } from 'vitest';
import { createSession, type Session } from '../../../session.js';
import { seededRandom } from '../../shell/test-support/mixed-output.js';
import type { ReadSnapshot, SessionSlice } from '../../../workspace/in-place.js';
import { forgetRead, readSnapshots, recordRead, recordWrite } from '../guard/read-state.js';
import { KeptSlices, layeredReads, MAX_KEPT_SESSIONS, MAX_KEPT_SNAPSHOTS, SliceSender } from './session-slices.js';

const ROOT = '/box/root';

/** The caller's snapshots under the root, as the box should see them. */
function underRoot(session: Session): Record<string, ReadSnapshot> {
  return Object.fromEntries(Object.entries(readSnapshots(session)).filter(([key]) => key === ROOT || key.startsWith(`${ROOT}/`)));
}

function asObject(reads: ReadonlyMap<string, ReadSnapshot> | undefined): Record<string, ReadSnapshot> | undefined {
  return reads === undefined ? undefined : Object.fromEntries(reads);
}

describe('SliceSender', () => {
  it('sends every snapshot under the root first, then only what changed, and names what was dropped', () => {
    const session = createSession();
    recordWrite(session, `${ROOT}/a.ts`, { mtimeMs: 1, size: 10 });
    recordWrite(session, `${ROOT}/b.ts`, { mtimeMs: 2, size: 20 });
    recordWrite(session, '/elsewhere/c.ts', { mtimeMs: 3, size: 30 });
    recordWrite(session, `${ROOT}-sibling/d.ts`, { mtimeMs: 4, size: 40 });
    const sender = new SliceSender(ROOT);

    const first = sender.next(session);
    expect(first.reads).toEqual(underRoot(session));
    expect(Object.keys(first.reads).sort()).toEqual([`${ROOT}/a.ts`, `${ROOT}/b.ts`]);
    expect(first.keep).toEqual({ key: expect.any(String), version: 1 });

    const unchanged = sender.next(session);
    expect(unchanged.reads).toEqual({});
    expect(unchanged.keep).toEqual({ key: first.keep!.key, version: 2, since: 1, deleted: [] });

    recordRead(session, `${ROOT}/a.ts`, { mtimeMs: 5, size: 11 }, { from: 1, to: 20, reachedEnd: false });
    recordWrite(session, `${ROOT}/new.ts`, { mtimeMs: 6, size: 60 });
    forgetRead(session, `${ROOT}/b.ts`);
    forgetRead(session, '/elsewhere/c.ts');
    const changed = sender.next(session);
    expect(changed.reads).toEqual({ [`${ROOT}/a.ts`]: readSnapshots(session)[`${ROOT}/a.ts`], [`${ROOT}/new.ts`]: readSnapshots(session)[`${ROOT}/new.ts`] });
    expect(changed.keep).toEqual({ key: first.keep!.key, version: 3, since: 2, deleted: [`${ROOT}/b.ts`] });

    const whole = sender.next(session, { whole: true });
    expect(whole.reads).toEqual(underRoot(session));
    expect(whole.keep).toEqual({ key: first.keep!.key, version: 4 });
  });

  it('keeps one key per session object, so two objects of one stored session never share what the box keeps', () => {
    const sender = new SliceSender(ROOT);
    const one = createSession();
    const copy = createSession({ id: one.id });
    expect(copy.id).toBe(one.id);
    expect(sender.next(one).keep!.key).not.toBe(sender.next(copy).keep!.key);
  });
});

describe('KeptSlices', () => {
  it('applies each slice to what it keeps, and answers nothing for a slice that builds on another version', () => {
    const box = new KeptSlices();
    const snapshot = (size: number): ReadSnapshot => ({ mtimeMs: 1, size, whole: true });
    const slice = (reads: Record<string, ReadSnapshot>, keep: SessionSlice['keep']): SessionSlice => ({ id: 's', reads, ...(keep === undefined ? {} : { keep }) });
    expect(asObject(box.take(slice({ a: snapshot(1), b: snapshot(2) }, { key: 'k', version: 1 })))).toEqual({ a: snapshot(1), b: snapshot(2) });
    expect(asObject(box.take(slice({ c: snapshot(3) }, { key: 'k', version: 2, since: 1, deleted: ['a'] })))).toEqual({ b: snapshot(2), c: snapshot(3) });
    // Version 3 never came: 4 cannot build on it, and what is kept stays at 2.
    expect(box.take(slice({}, { key: 'k', version: 4, since: 3, deleted: [] }))).toBeUndefined();
    expect(asObject(box.take(slice({}, { key: 'k', version: 5, since: 2, deleted: ['b'] })))).toEqual({ c: snapshot(3) });
    // A whole slice older than what is kept runs as it is and replaces nothing.
    expect(asObject(box.take(slice({ z: snapshot(9) }, { key: 'k', version: 3 })))).toEqual({ z: snapshot(9) });
    expect(asObject(box.take(slice({}, { key: 'k', version: 6, since: 5, deleted: [] })))).toEqual({ c: snapshot(3) });
    // No `keep`: the snapshots serve this step only.
    expect(asObject(box.take(slice({ y: snapshot(8) }, undefined)))).toEqual({ y: snapshot(8) });
    expect(box.take(slice({}, { key: 'unknown', version: 2, since: 1, deleted: [] }))).toBeUndefined();
  });

  it('refuses what is not a slice', () => {
    const box = new KeptSlices();
    for (const bad of [
      { id: 1, reads: {} },
      { id: 's', reads: null },
      { id: 's', reads: {}, keep: { key: '', version: 1 } },
      { id: 's', reads: {}, keep: { key: 'k', version: 1.5 } },
      { id: 's', reads: {}, keep: { key: 'k', version: 2, since: 1 } },
      { id: 's', reads: {}, keep: { key: 'k', version: 2, since: 2, deleted: [] } },
      { id: 's', reads: {}, keep: { key: 'k', version: 2, since: 1, deleted: [3] } },
    ]) {
      expect(() => box.take(bad as unknown as SessionSlice), JSON.stringify(bad)).toThrow(TypeError);
    }
  });

  it(`keeps at most ${MAX_KEPT_SESSIONS} sessions and ${MAX_KEPT_SNAPSHOTS} snapshots, dropping the least recently used`, () => {
    const box = new KeptSlices();
    const one = { mtimeMs: 1, size: 1, whole: true };
    for (let index = 0; index <= MAX_KEPT_SESSIONS; index += 1) box.take({ id: 's', reads: { [`f${index}`]: one }, keep: { key: `k${index}`, version: 1 } });
    // k0 was the oldest; k1 is used again, so k2 goes next.
    expect(box.take({ id: 's', reads: {}, keep: { key: 'k0', version: 2, since: 1, deleted: [] } })).toBeUndefined();
    expect(box.take({ id: 's', reads: {}, keep: { key: 'k1', version: 2, since: 1, deleted: [] } })).toBeDefined();
    box.take({ id: 's', reads: {}, keep: { key: 'another', version: 1 } });
    expect(box.take({ id: 's', reads: {}, keep: { key: 'k2', version: 2, since: 1, deleted: [] } })).toBeUndefined();
    expect(box.take({ id: 's', reads: {}, keep: { key: 'k1', version: 3, since: 2, deleted: [] } })).toBeDefined();

    const big = Object.fromEntries(Array.from({ length: MAX_KEPT_SNAPSHOTS / 2 }, (_, index) => [`big${index}`, one]));
    box.take({ id: 's', reads: big, keep: { key: 'big-one', version: 1 } });
    box.take({ id: 's', reads: big, keep: { key: 'big-two', version: 1 } });
    // Two halves and the small sessions are over the bound: the oldest go until it holds.
    expect(box.take({ id: 's', reads: {}, keep: { key: 'k1', version: 4, since: 3, deleted: [] } })).toBeUndefined();
    expect(box.take({ id: 's', reads: {}, keep: { key: 'big-two', version: 2, since: 1, deleted: [] } })?.size).toBe(MAX_KEPT_SNAPSHOTS / 2);
  });

  it('counts the snapshots a session dropped: a session that shrank leaves room for others', () => {
    const box = new KeptSlices();
    const one = { mtimeMs: 1, size: 1, whole: true };
    const names = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${index}`);
    const most = (MAX_KEPT_SNAPSHOTS * 3) / 4;
    box.take({ id: 's', reads: Object.fromEntries(names('a', most).map((name) => [name, one])), keep: { key: 'shrinks', version: 1 } });
    expect(box.take({ id: 's', reads: {}, keep: { key: 'shrinks', version: 2, since: 1, deleted: names('a', most - 10) } })?.size).toBe(10);
    box.take({ id: 's', reads: Object.fromEntries(names('b', most).map((name) => [name, one])), keep: { key: 'grows', version: 1 } });
    // 10 and three quarters of the bound are within it: the first session is still kept.
    expect(box.take({ id: 's', reads: {}, keep: { key: 'shrinks', version: 3, since: 2, deleted: [] } })?.size).toBe(10);
  });
});

describe('the two halves together', () => {
  /**
   * Random sessions changed at random (pages read, files written, forgotten, inside the root
   * and out), their slices lost, delivered late or evicted at random: every slice the box takes
   * gives the step exactly the caller's snapshots under the root when the slice was made, or
   * nothing (the caller then sends them all, which always gives them).
   */
  it('every step sees the caller’s snapshots as they were when it was sent, or is sent again whole', () => {
    const random = seededRandom(4242);
    const paths = [...Array.from({ length: 12 }, (_, index) => `${ROOT}/src/f${index}.ts`), '/elsewhere/x.ts', `${ROOT}-sibling/y.ts`, ROOT];
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    let resent = 0;
    let taken = 0;
    for (let round = 0; round < 40; round += 1) {
      const box = new KeptSlices();
      const sender = new SliceSender(ROOT);
      const sessions = [createSession(), createSession()];
      const inFlight: { slice: SessionSlice; expected: Record<string, ReadSnapshot>; session: Session }[] = [];
      const deliver = (sent: (typeof inFlight)[number]) => {
        const seen = asObject(box.take(sent.slice));
        if (seen !== undefined) {
          taken += 1;
          expect(seen).toEqual(sent.expected);
          return;
        }
        resent += 1;
        const again = sender.next(sent.session, { whole: true });
        expect(asObject(box.take(again))).toEqual(underRoot(sent.session));
      };
      for (let step = 0; step < 120; step += 1) {
        const session = pick(sessions);
        const file = pick(paths);
        const stats = { mtimeMs: Math.floor(random() * 3), size: Math.floor(random() * 3) };
        const action = random();
        if (action < 0.3) {
          const from = 1 + Math.floor(random() * 50);
          recordRead(session, file, stats, { from, to: from + Math.floor(random() * 30), reachedEnd: random() < 0.3 });
        } else if (action < 0.45) recordRead(session, file, stats, random() < 0.5);
        else if (action < 0.6) recordWrite(session, file, stats);
        else if (action < 0.75) forgetRead(session, file);
        inFlight.push({ slice: sender.next(session), expected: underRoot(session), session });
        const fate = random();
        if (fate < 0.05) inFlight.shift(); // lost: never reaches the box
        else if (fate < 0.1 && inFlight.length > 1) deliver(inFlight.splice(1, 1)[0]!); // overtakes the one before it
        else if (fate < 0.13) for (let other = 0; other < MAX_KEPT_SESSIONS; other += 1) box.take({ id: 'x', reads: {}, keep: { key: `other-${round}-${step}-${other}`, version: 1 } });
        while (inFlight.length > (random() < 0.5 ? 0 : 2)) deliver(inFlight.shift()!);
      }
      while (inFlight.length > 0) deliver(inFlight.shift()!);
    }
    // The property held over both paths, many times each.
    expect(taken).toBeGreaterThan(3_000);
    expect(resent).toBeGreaterThan(100);
  });

  it('in order and without eviction, the box never asks for a slice again', () => {
    const random = seededRandom(7);
    const box = new KeptSlices();
    const sender = new SliceSender(ROOT);
    const session = createSession();
    for (let step = 0; step < 500; step += 1) {
      const file = `${ROOT}/f${Math.floor(random() * 40)}.ts`;
      if (random() < 0.2) forgetRead(session, file);
      else recordWrite(session, file, { mtimeMs: step, size: step });
      expect(asObject(box.take(sender.next(session)))).toEqual(underRoot(session));
    }
  });
});

describe('layeredReads', () => {
  it('reads through to what is kept, keeps its own sets and deletes to itself, and lists what it sees', () => {
    const kept = new Map<string, ReadSnapshot>([
      ['a', { mtimeMs: 1, size: 1, whole: true }],
      ['b', { mtimeMs: 2, size: 2, whole: false }],
    ]);
    const { view, set, deleted } = layeredReads(kept);
    expect(view.a).toEqual(kept.get('a'));
    expect('b' in view).toBe(true);
    view.c = { mtimeMs: 3, size: 3, whole: true };
    delete view.a;
    expect(view.a).toBeUndefined();
    expect('a' in view).toBe(false);
    expect(Object.keys(view).sort()).toEqual(['b', 'c']);
    expect({ ...view }).toEqual({ b: kept.get('b'), c: { mtimeMs: 3, size: 3, whole: true } });
    expect(kept.has('a')).toBe(true);
    expect(kept.has('c')).toBe(false);
    expect([...set.keys()]).toEqual(['c']);
    expect([...deleted]).toEqual(['a']);
    // Set again after a delete: the step's own value, and no longer deleted.
    view.a = { mtimeMs: 9, size: 9, whole: true };
    expect(view.a).toEqual({ mtimeMs: 9, size: 9, whole: true });
    expect([...deleted]).toEqual([]);
    // What the caller sends later shows through where the step set nothing.
    kept.set('d', { mtimeMs: 4, size: 4, whole: true });
    expect(view.d).toEqual({ mtimeMs: 4, size: 4, whole: true });
  });
});
