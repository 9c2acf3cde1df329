'use client';

import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai';
import { useEffect, useState, type FormEvent } from 'react';

/** The reason that tells the server to remember an approval for the rest of the chat (APPROVE_ALWAYS_REASON). */
const ALWAYS = 'always';

interface Task {
  id: string;
  subject: string;
  status: 'pending' | 'in_progress' | 'completed';
}

export default function Chat() {
  const { id, messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    transport: new DefaultChatTransport({ api: '/api/chat' }),
    // After Approve/Deny, send the conversation back so the server runs (or skips) the call.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState('');
  const [tasks, setTasks] = useState<Task[]>([]);

  useEffect(() => {
    if (status !== 'ready' || messages.length === 0) return;
    void fetch(`/api/tasks?chat=${encodeURIComponent(id)}`)
      .then((response) => response.json())
      .then(setTasks);
  }, [status, id, messages.length]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === '') return;
    void sendMessage({ text: input });
    setInput('');
  };

  return (
    <main style={{ display: 'flex', gap: 24, padding: 24, maxWidth: 1100, margin: '0 auto' }}>
      <section style={{ flex: 3 }}>
        <h1 style={{ fontSize: 20 }}>agent-toolbelt chat</h1>
        <div data-testid="messages">
          {messages.map((message) => (
            <Message key={message.id} message={message} onAnswer={addToolApprovalResponse} />
          ))}
        </div>
        {error && <p style={{ color: 'crimson' }}>Error: {error.message}</p>}
        <form onSubmit={submit} style={{ display: 'flex', gap: 8, marginTop: 16 }}>
          <input
            data-testid="prompt"
            value={input}
            onChange={(event) => setInput(event.target.value)}
            placeholder="Ask the agent, e.g. Rewrite notes.txt"
            style={{ flex: 1, padding: 8 }}
          />
          <button type="submit" disabled={status !== 'ready'} data-testid="send">
            Send
          </button>
        </form>
        <p data-testid="status" style={{ color: '#888', fontSize: 12 }}>
          {status}
        </p>
      </section>
      <aside style={{ flex: 1 }}>
        <h2 style={{ fontSize: 16 }}>Tasks</h2>
        <ul data-testid="tasks" style={{ paddingLeft: 16 }}>
          {tasks.map((task) => (
            <li key={task.id} data-status={task.status}>
              {task.status === 'completed' ? '☑' : task.status === 'in_progress' ? '◐' : '☐'} {task.subject}
            </li>
          ))}
        </ul>
      </aside>
    </main>
  );
}

type Answer = (response: { id: string; approved: boolean; reason?: string }) => void | PromiseLike<void>;

function Message({ message, onAnswer }: { message: UIMessage; onAnswer: Answer }) {
  return (
    <div data-role={message.role} style={{ margin: '12px 0' }}>
      <strong>{message.role === 'user' ? 'You' : 'Agent'}</strong>
      {message.parts.map((part, index) => {
        if (part.type === 'text') return <p key={index}>{part.text}</p>;
        if (!part.type.startsWith('tool-')) return null;
        return <ToolCall key={index} name={part.type.slice('tool-'.length)} part={part as ToolPart} onAnswer={onAnswer} />;
      })}
    </div>
  );
}

interface ToolPart {
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: { text?: string; isError?: boolean };
  errorText?: string;
  approval?: { id: string; approved?: boolean; requestReason?: string; reason?: string };
}

function ToolCall({ name, part, onAnswer }: { name: string; part: ToolPart; onAnswer: Answer }) {
  const box = { border: '1px solid #ddd', borderRadius: 6, padding: 8, margin: '6px 0', fontSize: 13 };
  return (
    <div data-testid="tool-call" data-tool={name} data-state={part.state} style={box}>
      <code>{name}</code> <span style={{ color: '#888' }}>{part.state}</span>
      <pre style={{ whiteSpace: 'pre-wrap', margin: '4px 0' }}>{JSON.stringify(part.input, null, 2)}</pre>
      {part.state === 'approval-requested' && part.approval && (
        <div>
          <p>Allow this? {part.approval.requestReason}</p>
          <button data-testid="approve" onClick={() => onAnswer({ id: part.approval!.id, approved: true })}>
            Approve
          </button>{' '}
          <button data-testid="always" onClick={() => onAnswer({ id: part.approval!.id, approved: true, reason: ALWAYS })}>
            Always allow
          </button>{' '}
          <button data-testid="deny" onClick={() => onAnswer({ id: part.approval!.id, approved: false, reason: 'Denied in the chat.' })}>
            Deny
          </button>
        </div>
      )}
      {part.state === 'output-available' && (
        <p data-testid="tool-output" style={{ color: part.output?.isError ? 'crimson' : 'inherit' }}>
          {part.output?.text}
        </p>
      )}
      {part.state === 'output-denied' && <p data-testid="tool-output">Denied.</p>}
      {part.state === 'output-error' && <p style={{ color: 'crimson' }}>{part.errorText}</p>}
    </div>
  );
}
