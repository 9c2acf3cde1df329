/**
 * A store hands the session it loads its freshly parsed JSON (restoreParsedSession), which the
 * session keeps without copying; JSON a caller still holds is copied as before.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { createFileSessionStore, createSession, restoreSession } from '../../src/index.js';

it('copies JSON its caller still holds, so changing that object later changes nothing in the session', () => {
  const original = createSession({ id: 'copied' });
  original.setState('notes', { lines: ['one'] });
  const json = original.toJSON();
  const restored = restoreSession(json);
  (json.state.notes as { lines: string[] }).lines.push('changed by the caller');
  expect(restored.state('notes', () => ({ lines: [] as string[] })).lines).toEqual(['one']);
});

it('gives every load of a stored session its own objects, and keeps the stored version until a save', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'toolbelt-session-copies-'));
  try {
    const store = createFileSessionStore({ dir });
    await store.withSession('chat', (session) => session.setState('notes', { lines: ['one'] }));
    const [first, second] = [await store.load('chat'), await store.load('chat')];
    first!.state('notes', () => ({ lines: [] as string[] })).lines.push('only in the first copy');
    expect(second!.state('notes', () => ({ lines: [] as string[] })).lines).toEqual(['one']);
    const seen = await store.withSession('chat', (session) => session.state('notes', () => ({ lines: [] as string[] })).lines);
    expect(seen).toEqual(['one']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

it('writes toJSONText() as the same JSON toJSON() gives, and a store saves it so that a load sees every field', async () => {
  const session = createSession({ id: 'text' });
  session.setState('notes', { lines: ['one', 'två', '"quoted"'] });
  session.approve('run_shell:npm test');
  expect(JSON.parse(session.toJSONText())).toEqual(session.toJSON());
  expect(restoreSession(session.toJSONText()).toJSON()).toEqual(session.toJSON());

  const dir = await mkdtemp(path.join(tmpdir(), 'toolbelt-session-text-'));
  try {
    const store = createFileSessionStore({ dir });
    await store.withSession('text', (turn) => {
      turn.setState('notes', { lines: ['one', 'två', '"quoted"'] });
      turn.approve('run_shell:npm test');
    });
    const loaded = await store.load('text');
    expect(loaded!.toJSON().state).toEqual(session.toJSON().state);
    expect(loaded!.approvals).toEqual(['run_shell:npm test']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
