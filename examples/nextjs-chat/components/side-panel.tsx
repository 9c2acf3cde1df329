'use client';

import type { AlwaysView, Task } from './types';

const MARK: Record<Task['status'], string> = { completed: '☑', in_progress: '◐', pending: '☐' };
const STATUS: Record<Task['status'], string> = { completed: 'done', in_progress: 'in progress', pending: 'to do' };

/** The agent's plan, and what runs without asking in this chat (each "Always allow", revocable). */
export function SidePanel({ tasks, always, revokeNote, onRevoke }: { tasks: Task[]; always: AlwaysView[]; revokeNote: string | undefined; onRevoke: (key: string) => void }) {
  return (
    <>
      <h2>Tasks</h2>
      {tasks.length === 0 && <p className="hint">The agent's plan shows here.</p>}
      <ul data-testid="tasks">
        {tasks.map((task) => (
          <li key={task.id} data-status={task.status}>
            <span aria-hidden>{MARK[task.status]}</span> {task.subject} <span className="sr-only">({STATUS[task.status]})</span>
          </li>
        ))}
      </ul>
      <h2>Runs without asking</h2>
      {always.length === 0 && <p className="hint">Nothing: every change is asked. <em>Always allow</em> on a card adds it here.</p>}
      <ul data-testid="always-list">
        {always.map((entry) => (
          <li key={entry.key}>
            <span>{entry.words}</span>{' '}
            <button type="button" className="link" data-testid="revoke" onClick={() => onRevoke(entry.key)}>
              Ask again
            </button>
          </li>
        ))}
      </ul>
      {revokeNote !== undefined && (
        <p className="hint" data-testid="revoke-note" role="status">
          {revokeNote}
        </p>
      )}
    </>
  );
}
