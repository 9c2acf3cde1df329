/**
 * The session-store contract: one suite that every store runs unchanged (the idea of
 * LangGraph's checkpoint-validation). A store's test file starts its server, describes how
 * to open the store, take it down and bring it back, and calls {@link sessionStoreContract}.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFileTools,
  createSession,
  createTaskListTools,
  DEFAULT_SESSION_LEASE_MS,
  runTool,
  SessionBusyError,
  SessionLeaseLostError,
  SessionStoreError,
  SessionVersionError,
  Workspace,
  type Session,
  type SessionStore,
  type SessionStoreDefaults,
  type ToolCollection,
} from '../../src/index.js';
import { startHolder, startTurns } from './children.js';
import { openStore, type StoreConfig } from './store-config.js';

/** A store under test: how to open it and how to make it fail. */
export interface StoreUnderTest {
  /** Opens the store in a child process too. */
  readonly config: StoreConfig;
  /** How the store's errors name it. */
  readonly namePattern: RegExp;
  /** Makes the store unreachable (stops the server, unmounts the folder). */
  takeDown(): Promise<void>;
  /** Brings it back with its data. */
  bringUp(): Promise<void>;
  /** Stops the server and removes its files. */
  destroy(): Promise<void>;
  /** Makes the store stop answering with its connections left open (SIGSTOP), when it can. */
  freeze?(): void;
  /** Lets a frozen store answer again (SIGCONT). */
  thaw?(): void;
}

const tasks = createTaskListTools();
const tool = (collection: ToolCollection, name: string) => collection.tools.find((definition) => definition.name === name)!;
const addTask = (session: Session, subject: string) => runTool(tool(tasks, 'task_add'), { tasks: [{ subject }] }, { session });
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const subjects = async (session: Session | undefined) => (session === undefined ? [] : (await tasks.getTasks(session)).map((task) => task.subject));

/** Runs the contract against the store `setup` starts; `skip` is the reason the suite cannot run here. */
export function sessionStoreContract(name: string, skip: string | undefined, setup: () => Promise<StoreUnderTest>): void {
  if (skip !== undefined) console.warn(`Skipping the ${name} session-store contract: ${skip}.`);

  describe.skipIf(skip !== undefined)(`the session-store contract: ${name}`, () => {
    let target: StoreUnderTest;
    const opened: SessionStore[] = [];
    const open = (defaults: SessionStoreDefaults = {}) => {
      const store = openStore(target.config, defaults);
      opened.push(store);
      return store;
    };

    beforeAll(async () => {
      target = await setup();
    }, 60_000);
    afterAll(async () => {
      await Promise.allSettled(opened.map((store) => store.close()));
      await target?.destroy();
    });

    it('round-trips a session with every collection’s state through another instance', async () => {
      const root = await mkdtemp(path.join(tmpdir(), 'toolbelt-store-workspace-'));
      await writeFile(path.join(root, 'notes.txt'), 'one\ntwo\n');
      const files = createFileTools({ workspace: new Workspace(root), keepBackups: true });
      const id = `round-trip-${randomUUID()}`;
      const first = open();
      const written = await first.withSession(id, async (session) => {
        expect(session.id).toBe(id);
        await addTask(session, 'Read the notes');
        const read = await runTool(tool(files, 'read_file'), { path: 'notes.txt' }, { session });
        expect(read.isError, read.text).toBeFalsy();
        const edit = await runTool(tool(files, 'edit_file'), { path: 'notes.txt', old_string: 'two', new_string: 'three' }, { session, approved: true });
        expect(edit.isError, edit.text).toBeFalsy();
        session.approve('run_shell:git status');
        session.setState('custom', { nested: [1, 'two', null, true, { deep: 'ünïcode ✓' }] });
        return session.toJSON();
      });
      expect(Object.keys(written.state).sort()).toEqual(['custom', 'files.reads', 'files.undo', 'tasks']);

      const loaded = await open().load(id);
      expect(loaded?.toJSON()).toEqual(written);
      expect(await subjects(loaded)).toEqual(['Read the notes']);
      expect(loaded?.isApproved('run_shell:git status')).toBe(true);
      expect(await open().load(`never-saved-${randomUUID()}`)).toBeUndefined();
    });

    it('lands all of 50 concurrent turns on one id from two instances, one at a time', async () => {
      const id = `concurrent-${randomUUID()}`;
      const servers = [open(), open()];
      let inside = 0;
      let most = 0;
      await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          servers[index % 2]!.withSession(
            id,
            async (session) => {
              inside += 1;
              most = Math.max(most, inside);
              await addTask(session, `turn ${index}`);
              await new Promise((resolve) => setTimeout(resolve, 1));
              inside -= 1;
            },
            { waitMs: 60_000 },
          ),
        ),
      );
      expect(most).toBe(1);
      const saved = await subjects(await open().load(id));
      expect(saved).toHaveLength(50);
      expect(new Set(saved)).toEqual(new Set(Array.from({ length: 50 }, (_, index) => `turn ${index}`)));
    }, 120_000);

    it('makes a second turn wait for the first and throws SessionBusyError after waitMs', async () => {
      const id = `busy-${randomUUID()}`;
      const [one, two] = [open(), open()];
      let release!: () => void;
      const holding = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const inTurn = new Promise<void>((resolve) => (started = resolve));
      const first = one.withSession(id, async (session) => {
        started();
        await holding;
        await addTask(session, 'first');
      });
      await inTurn;
      const began = Date.now();
      const error = await two.withSession(id, () => undefined, { waitMs: 300 }).catch((caught: unknown) => caught);
      expect(Date.now() - began).toBeGreaterThanOrEqual(290);
      expect(error).toBeInstanceOf(SessionBusyError);
      expect(error).toMatchObject({ name: 'SessionBusyError', id, waitMs: 300, holder: { state: 'running', thisProcess: true, pid: process.pid } });
      // Another store in this process: it knows the holder from the lease, renewed on schedule.
      expect((error as Error).message).toMatch(
        new RegExp(`^Session ${escape(JSON.stringify(id))} is busy: a turn in this process is running \\(it renewed its lease \\d+\\.\\d s ago\\); this one waited 300 ms\\. Send again once that turn has finished\\.$`),
      );
      // The same store: it knows its own turn is running, and for how long.
      const same = await one.withSession(id, () => undefined, { waitMs: 200 }).catch((caught: unknown) => caught);
      expect((same as Error).message).toMatch(
        new RegExp(`^Session ${escape(JSON.stringify(id))} is busy: a turn in this process has been running for \\d+\\.\\d s; this one waited 200 ms\\. Send again once that turn has finished\\.$`),
      );
      const waiting = two.withSession(id, async (session) => subjects(session), { waitMs: 10_000 });
      release();
      await first;
      expect(await waiting).toEqual(['first']);
    });

    it('after a holder is killed with SIGKILL, the next turn waits at most leaseMs and sees the last saved version', async () => {
      const id = `killed-${randomUUID()}`;
      const leaseMs = 1_500;
      const child = startHolder(target.config, id, leaseMs);
      try {
        await child.holding;
        child.process.kill('SIGKILL');
        const began = Date.now();
        const seen = await open().withSession(id, async (session, turn) => ({ tasks: await subjects(session), version: turn.version }), { waitMs: 10_000 });
        const waited = Date.now() - began;
        expect(seen).toEqual({ tasks: ['saved by the child'], version: 1 });
        // At most the lease (not the 10 s waitMs), plus slack for a loaded machine to schedule the waiter.
        expect(waited).toBeLessThanOrEqual(leaseMs + 1_000);
      } finally {
        child.process.kill('SIGKILL');
      }
    }, 60_000);

    it('frees the chat of a SIGKILLed holder within the default lease, and says what holds it meanwhile', async () => {
      const id = `killed-default-${randomUUID()}`;
      const child = startHolder(target.config, id);
      try {
        await child.holding;
        const live = await open().withSession(id, () => undefined, { waitMs: 300 }).catch((caught: unknown) => caught);
        expect(live).toMatchObject({ name: 'SessionBusyError', holder: { state: 'running', thisProcess: false, pid: child.process.pid } });
        expect((live as Error).message).toMatch(
          new RegExp(`^Session ${escape(JSON.stringify(id))} is busy: a turn in process ${child.process.pid} on \\S+ is running \\(it renewed its lease \\d+\\.\\d s ago\\); this one waited 300 ms\\. Send again once that turn has finished\\.$`),
        );
        child.process.kill('SIGKILL');
        const killedAt = Date.now();
        // Past a renewal the dead holder missed (every third of the lease, plus a margin).
        await sleep(3_000);
        const stale = await open().withSession(id, () => undefined, { waitMs: 0 }).catch((caught: unknown) => caught);
        expect(stale).toMatchObject({ name: 'SessionBusyError', waitMs: 0, holder: { state: 'stale', thisProcess: false, pid: child.process.pid } });
        expect((stale as SessionBusyError).holder!.expiresInMs).toBeLessThanOrEqual(DEFAULT_SESSION_LEASE_MS - 3_000);
        expect((stale as Error).message).toMatch(
          new RegExp(
            `^Session ${escape(JSON.stringify(id))} is busy: its lease is held by a turn in process ${child.process.pid} on \\S+ that has not renewed it for \\d+\\.\\d s ` +
              `\\(the turn ended without releasing it, or its process died or stalled\\), and expires in [0-2]\\.\\d s; this one waited 0 ms\\. Send again after that\\.$`,
          ),
        );
        const seen = await open().withSession(id, async (session, turn) => ({ tasks: await subjects(session), version: turn.version }));
        expect(seen).toEqual({ tasks: ['saved by the child'], version: 1 });
        // Within the default lease of the kill, plus slack for a loaded machine.
        expect(Date.now() - killedAt).toBeLessThanOrEqual(DEFAULT_SESSION_LEASE_MS + 1_000);
      } finally {
        child.process.kill('SIGKILL');
      }
    }, 60_000);

    it('lands all of 100 concurrent turns on one id from two processes with default options', async () => {
      const id = `two-processes-${randomUUID()}`;
      const children = [startTurns(target.config, id, 'first', 50), startTurns(target.config, id, 'second', 50)];
      try {
        await Promise.all(children.map((child) => child.ready));
        for (const child of children) child.go();
        const outcomes = await Promise.all(children.map((child) => child.outcome));
        expect(outcomes.map((outcome) => outcome.errors)).toEqual([[], []]);
        expect(outcomes.map((outcome) => outcome.landed)).toEqual([50, 50]);
        const saved = await subjects(await open().load(id));
        expect(new Set(saved)).toEqual(new Set([...Array.from({ length: 50 }, (_, index) => `first ${index}`), ...Array.from({ length: 50 }, (_, index) => `second ${index}`)]));
        expect(saved).toHaveLength(100);
        const perTurn = Math.max(...outcomes.map((outcome) => outcome.elapsedMs)) / 100;
        console.log(`${target.config.kind}: 100 concurrent turns from two processes, ${perTurn.toFixed(2)} ms a turn`);
        // Waiters woken all at once queued for the connections at 80–170 ms a turn; one at a time, a few ms.
        expect(perTurn).toBeLessThan(20);
      } finally {
        for (const child of children) child.process.kill('SIGKILL');
      }
    }, 120_000);

    it('refuses the save of a turn whose lease was lost, keeping the newer version', async () => {
      const id = `stalled-${randomUUID()}`;
      const leaseMs = 600;
      const child = startHolder(target.config, id, leaseMs);
      try {
        await child.holding;
        // A stalled instance: its renewals stop, its lease expires, another turn takes over and saves.
        child.process.kill('SIGSTOP');
        await open().withSession(id, (session) => addTask(session, 'saved by the parent'), { waitMs: 10_000 });
        child.process.kill('SIGCONT');
        await new Promise((resolve) => setTimeout(resolve, 100));
        child.process.stdin!.write('finish\n');
        expect(await child.outcome).toEqual({
          saved: false,
          name: 'SessionLeaseLostError',
          message: expect.stringMatching(target.namePattern),
        });
        expect(await subjects(await open().load(id))).toEqual(['saved by the child', 'saved by the parent']);
      } finally {
        child.process.kill('SIGKILL');
      }
    }, 60_000);

    it('refuses a turn’s save after the session was deleted under it', async () => {
      const id = `deleted-${randomUUID()}`;
      const store = open();
      const error = await store
        .withSession(id, async (session) => {
          await addTask(session, 'gone');
          await open().delete(id);
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SessionLeaseLostError);
      expect((error as Error).message).toBe(
        `The turn lost its lease on session ${JSON.stringify(id)} in ${store.description} (it expired or another turn took it), so its changes were not saved and the stored version stays. Run the turn again.`,
      );
      expect(await store.load(id)).toBeUndefined();
    });

    it('saves nothing when the turn throws, and lets the next turn in at once', async () => {
      const id = `thrown-${randomUUID()}`;
      const store = open();
      await store.withSession(id, (session) => addTask(session, 'kept'));
      await expect(
        store.withSession(id, async (session) => {
          await addTask(session, 'dropped');
          throw new Error('the model call failed');
        }),
      ).rejects.toThrow('the model call failed');
      expect(await store.withSession(id, (session) => subjects(session), { waitMs: 0 })).toEqual(['kept']);
    });

    it('versions saves outside turns: a stale copy is refused with SessionVersionError', async () => {
      const id = `versions-${randomUUID()}`;
      const store = open();
      const fresh = createSession({ id });
      await addTask(fresh, 'one');
      expect(await store.save(fresh)).toBe(1);
      const copyA = (await store.load(id))!;
      const copyB = (await open().load(id))!;
      await addTask(copyA, 'two');
      expect(await store.save(copyA)).toBe(2);
      await addTask(copyB, 'conflicting');
      const error = await open().save(copyB).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SessionVersionError);
      expect(error).toMatchObject({ name: 'SessionVersionError', id, expectedVersion: 1, storedVersion: 2 });
      expect((error as Error).message).toBe(
        `Session ${JSON.stringify(id)} changed in the store since this copy was loaded (version 2 is stored, this copy is version 1), so it was not saved. Load it again, redo the change and save that, or use withSession, which does this one turn at a time.`,
      );
      expect(await subjects(await store.load(id))).toEqual(['one', 'two']);
      expect(await store.save(createSession({ id })).catch((caught: unknown) => caught)).toBeInstanceOf(SessionVersionError);
    });

    it('expires an idle session after ttlMs, and a save starts the clock again', async () => {
      const id = `ttl-${randomUUID()}`;
      const store = open({ ttlMs: 1_000 });
      await store.withSession(id, (session) => addTask(session, 'short-lived'));
      await sleep(600);
      expect(await subjects(await store.load(id))).toEqual(['short-lived']);
      await store.withSession(id, (session) => addTask(session, 'renewed'));
      // Past the first save's expiry, within the second's.
      await sleep(600);
      expect(await subjects(await store.load(id))).toEqual(['short-lived', 'renewed']);
      await sleep(700);
      expect(await store.load(id)).toBeUndefined();
      expect(await store.withSession(id, (session) => subjects(session))).toEqual([]);
    });

    it('keeps a long turn’s lease by renewing it', async () => {
      const id = `long-${randomUUID()}`;
      const store = open({ leaseMs: 600 });
      const other = open();
      const busy = await store.withSession(id, async (session) => {
        // Three leases long: only renewal keeps it.
        await new Promise((resolve) => setTimeout(resolve, 1_800));
        const refused = await other.withSession(id, () => undefined, { waitMs: 0 }).catch((caught: unknown) => caught);
        await addTask(session, 'long');
        return refused;
      });
      expect(busy).toBeInstanceOf(SessionBusyError);
      expect(await subjects(await other.load(id))).toEqual(['long']);
    });

    it('names the store when it goes down mid-turn, and the saved data stays intact', async () => {
      const id = `down-${randomUUID()}`;
      const store = open({ operationTimeoutMs: 3_000 });
      await store.withSession(id, (session) => addTask(session, 'before the outage'));
      const began = Date.now();
      const error = await store
        .withSession(id, async (session) => {
          await addTask(session, 'during the outage');
          await target.takeDown();
        })
        .catch((caught: unknown) => caught);
      try {
        expect(error).toBeInstanceOf(SessionStoreError);
        expect((error as SessionStoreError).message).toMatch(target.namePattern);
        expect((error as SessionStoreError).message).toMatch(new RegExp(`^The .+ failed to save session ${JSON.stringify(id)}: .+`));
        expect(error).toMatchObject({ name: 'SessionStoreError', operation: 'save', id, store: store.description });
        expect(Date.now() - began).toBeLessThan(10_000);
      } finally {
        await target.bringUp();
      }
      expect(await subjects(await open().load(id))).toEqual(['before the outage']);
    }, 60_000);

    it('fails a turn after operationTimeoutMs, not twice it, when the store stops answering (SIGSTOP), and a late save does not land', async (context) => {
      if (target.freeze === undefined || target.thaw === undefined) return context.skip();
      const id = `frozen-${randomUUID()}`;
      const operationTimeoutMs = 1_000;
      const store = open({ operationTimeoutMs, leaseMs: 1_000 });
      await store.withSession(id, (session) => addTask(session, 'before the freeze'));
      let frozenAt = 0;
      try {
        const error = await store
          .withSession(id, async (session) => {
            await addTask(session, 'during the freeze');
            target.freeze!();
            frozenAt = Date.now();
          })
          .catch((caught: unknown) => caught);
        const failedAfter = Date.now() - frozenAt;
        expect(error).toMatchObject({ name: 'SessionStoreError', operation: 'save', id });
        expect((error as Error).message).toMatch(new RegExp(`^The .+ failed to save session ${escape(JSON.stringify(id))}: no answer within \\d+ ms$`));
        expect(failedAfter).toBeGreaterThanOrEqual(operationTimeoutMs - 50);
        // Once, not once for the save and again for the release.
        expect(failedAfter).toBeLessThan(operationTimeoutMs * 1.6);
        // A turn that comes while the store is frozen fails after the same bound, at the lease.
        const began = Date.now();
        const waiting = await open({ operationTimeoutMs }).withSession(id, () => undefined).catch((caught: unknown) => caught);
        expect(waiting).toMatchObject({ name: 'SessionStoreError', operation: 'lease' });
        expect(Date.now() - began).toBeLessThan(operationTimeoutMs * 1.6);
      } finally {
        target.thaw!();
      }
      // The save reached the store only after its lease had run out, so the store refused it.
      await sleep(500);
      expect(await subjects(await open().load(id))).toEqual(['before the freeze']);
    }, 60_000);

    it('rejects bad ids and options with messages that name them', async () => {
      const store = open();
      await expect(store.withSession('', () => undefined)).rejects.toThrow('Expected the session id to be a non-empty string of at most 512 characters, got `""` (string).');
      await expect(store.withSession('x', () => undefined, { leaseMs: 5 })).rejects.toThrow(
        'Expected the `leaseMs` option of withSession to be a whole number of milliseconds, at least 100, got `5` (number).',
      );
      await expect(store.withSession('x', () => undefined, { waitMs: -1 })).rejects.toThrow('`waitMs`');
    });
  });
}
