'use client';

import { useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
} from 'ai';
import { useEffect, useState, type FormEvent } from 'react';

/** The reason that tells the server to remember an approval for the rest of the chat (APPROVE_ALWAYS_REASON). */
const ALWAYS = 'always';

interface Task {
  id: string;
  subject: string;
  status: 'pending' | 'in_progress' | 'completed';
}

export default function Chat() {
  const { id, messages, sendMessage, addToolApprovalResponse, addToolOutput, status, error } = useChat({
    transport: new DefaultChatTransport({ api: '/api/chat' }),
    // After Approve/Deny, or an answer to a question, send the conversation back to the server.
    sendAutomaticallyWhen: (options) =>
      lastAssistantMessageIsCompleteWithApprovalResponses(options) || lastAssistantMessageIsCompleteWithToolCalls(options),
  });
  const answerQuestion: AnswerQuestion = (toolCallId, answers) =>
    void addToolOutput({ tool: 'ask_user_question', toolCallId, output: { answers } });
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
            <Message key={message.id} message={message} busy={status !== 'ready'} onAnswer={addToolApprovalResponse} onQuestion={answerQuestion} />
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
type AnswerQuestion = (toolCallId: string, answers: Array<{ selected: string[] }>) => void;

/**
 * `busy`: the response is still streaming. Answers wait for its end, which comes after the
 * server saved the session, so the next request always finds the state this one left.
 */
function Message(props: { message: UIMessage; busy: boolean; onAnswer: Answer; onQuestion: AnswerQuestion }) {
  const { message, busy, onAnswer, onQuestion } = props;
  return (
    <div data-role={message.role} style={{ margin: '12px 0' }}>
      <strong>{message.role === 'user' ? 'You' : 'Agent'}</strong>
      {message.parts.map((part, index) => {
        if (part.type === 'text') return <p key={index}>{part.text}</p>;
        if (!part.type.startsWith('tool-')) return null;
        if (part.type === 'tool-ask_user_question') return <Questions key={index} part={part as ToolPart} busy={busy} onQuestion={onQuestion} />;
        return <ToolCall key={index} name={part.type.slice('tool-'.length)} part={part as ToolPart} busy={busy} onAnswer={onAnswer} />;
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

function ToolCall({ name, part, busy, onAnswer }: { name: string; part: ToolPart; busy: boolean; onAnswer: Answer }) {
  const box = { border: '1px solid #ddd', borderRadius: 6, padding: 8, margin: '6px 0', fontSize: 13 };
  return (
    <div data-testid="tool-call" data-tool={name} data-state={part.state} style={box}>
      <code>{name}</code> <span style={{ color: '#888' }}>{part.state}</span>
      <pre style={{ whiteSpace: 'pre-wrap', margin: '4px 0' }}>{JSON.stringify(part.input, null, 2)}</pre>
      {part.state === 'approval-requested' && part.approval && (
        <div>
          <p>Allow this? {part.approval.requestReason}</p>
          <button data-testid="approve" disabled={busy} onClick={() => onAnswer({ id: part.approval!.id, approved: true })}>
            Approve
          </button>{' '}
          <button data-testid="always" disabled={busy} onClick={() => onAnswer({ id: part.approval!.id, approved: true, reason: ALWAYS })}>
            Always allow
          </button>{' '}
          <button data-testid="deny" disabled={busy} onClick={() => onAnswer({ id: part.approval!.id, approved: false, reason: 'Denied in the chat.' })}>
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

interface QuestionInput {
  questions: Array<{ question: string; header: string; options: Array<{ label: string; description?: string }> }>;
}

/** ask_user_question, answered here: one click per question (single choice, for brevity). */
function Questions({ part, busy, onQuestion }: { part: ToolPart; busy: boolean; onQuestion: AnswerQuestion }) {
  const [picked, setPicked] = useState<string[]>([]);
  const questions = (part.input as QuestionInput | undefined)?.questions ?? [];
  if (part.state !== 'input-available') {
    return (
      <div data-testid="questions" data-state={part.state} style={{ fontSize: 13, color: '#555' }}>
        {part.state === 'output-available' ? 'Answered.' : 'Preparing a question…'}
      </div>
    );
  }
  const pick = (index: number, label: string) => {
    const next = [...picked];
    next[index] = label;
    setPicked(next);
    if (questions.every((_question, i) => next[i] !== undefined)) onQuestion(part.toolCallId, next.map((selected) => ({ selected: [selected] })));
  };
  return (
    <div data-testid="questions" data-state={part.state} style={{ border: '1px solid #99c', borderRadius: 6, padding: 8, margin: '6px 0' }}>
      {questions.map((question, index) => (
        <div key={index}>
          <p>
            <strong>{question.header}</strong> {question.question}
          </p>
          {question.options.map((option) => (
            <button key={option.label} data-testid="option" disabled={busy} title={option.description} onClick={() => pick(index, option.label)}>
              {option.label}
            </button>
          ))}
        </div>
      ))}
    </div>
  );
}
