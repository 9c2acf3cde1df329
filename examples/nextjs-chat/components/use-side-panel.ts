'use client';

import { useCallback, useRef, useState } from 'react';
import { getJson } from './get-json';
import type { AlwaysView, Task } from './types';

/** How long to wait before asking again to take an "Always allow" back while a turn holds the chat. */
const REVOKE_RETRY_MS = 1_000;

/**
 * The side panel's data: the task list and what runs without asking, as the server last saved
 * them, and taking an "Always allow" back. The panel never claims more than the server said:
 * an answer that arrives after a newer one is dropped, a failed read keeps what is shown, and
 * the list changes on a take-back only once the server has saved it. While a turn holds the
 * chat (409), the take-back waits for it and says so.
 */
export function useSidePanel(chatId: string) {
  const [tasks, setTasks] = useState<Task[]>([]);
  const [always, setAlways] = useState<AlwaysView[]>([]);
  /** What a take-back is waiting for, or why it failed; undefined when nothing is pending. */
  const [revokeNote, setRevokeNote] = useState<string | undefined>();
  const taskReads = useRef({ sent: 0, shown: 0 });
  /** Take-backs in flight, and a count that moves whenever one starts or ends: a read sent before that is stale. */
  const revokes = useRef({ inFlight: 0, generation: 0 });

  const readAlways = useCallback(() => {
    const generation = revokes.current.generation;
    void getJson<AlwaysView[]>(`/api/approvals?chat=${encodeURIComponent(chatId)}`).then((list) => {
      if (list !== undefined && revokes.current.inFlight === 0 && revokes.current.generation === generation) setAlways(list);
    });
  }, [chatId]);

  const refresh = useCallback(() => {
    const read = ++taskReads.current.sent;
    void getJson<Task[]>(`/api/tasks?chat=${encodeURIComponent(chatId)}`).then((list) => {
      if (list === undefined || read < taskReads.current.shown) return;
      taskReads.current.shown = read;
      setTasks(list);
    });
    readAlways();
  }, [chatId, readAlways]);

  const revoke = useCallback(
    async (key: string) => {
      revokes.current.inFlight += 1;
      revokes.current.generation += 1;
      const body = JSON.stringify({ chat: chatId, key });
      try {
        for (;;) {
          const response = await fetch('/api/approvals', { method: 'POST', headers: { 'content-type': 'application/json' }, body }).catch(() => undefined);
          if (response?.ok) {
            setRevokeNote(undefined);
            return;
          }
          if (response?.status !== 409) {
            setRevokeNote(`Could not take it back: ${response === undefined ? 'the server did not answer' : `the server answered ${response.status}`}. It still runs without asking; try again.`);
            return;
          }
          setRevokeNote('The agent is working: this is taken back as soon as its turn ends. Until then it still runs without asking.');
          await new Promise((resolve) => setTimeout(resolve, REVOKE_RETRY_MS));
        }
      } finally {
        revokes.current.inFlight -= 1;
        revokes.current.generation += 1;
        // Read the list once every take-back has landed, so answers that crossed cannot show an old one.
        if (revokes.current.inFlight === 0) readAlways();
      }
    },
    [chatId, readAlways],
  );

  return { tasks, always, revokeNote, refresh, revoke };
}
