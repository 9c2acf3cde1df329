'use client';

import { useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
} from 'ai';
import { useEffect, useRef, useState, type FormEvent } from 'react';

/** The reason that tells the server to remember an approval for the rest of the chat (APPROVE_ALWAYS_REASON). */
const ALWAYS = 'always';
const BUSY_MESSAGE = 'This chat is busy in another tab or window. Wait for it to finish there, then send again.';

interface Task {
  id: string;
  subject: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** What `/api/calls` says about a call: the line a person reads, and an overwrite's diff. */
interface CallView {
  line: string;
  diff?: string;
}

/** A tool part of a message, read loosely: the AI SDK's `UIToolInvocation` without its generics. */
interface ToolPart {
  type: string;
  toolCallId: string;
  state: 'input-streaming' | 'input-available' | 'approval-requested' | 'approval-responded' | 'output-available' | 'output-error' | 'output-denied';
  input?: unknown;
  output?: { text?: string; isError?: boolean; data?: { diff?: string } };
  preliminary?: boolean;
  errorText?: string;
  approval?: { id: string; approved?: boolean; requestReason?: string; reason?: string };
}

/** The route answers 409 while another request of the same chat runs (its session is leased). */
class ChatBusyError extends Error {
  constructor() {
    super(BUSY_MESSAGE);
  }
}

const transport = new DefaultChatTransport({
  api: '/api/chat',
  fetch: async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 409) throw new ChatBusyError();
    return response;
  },
});

export default function Chat() {
  const { id, messages, sendMessage, addToolApprovalResponse, addToolOutput, status, error, stop } = useChat({
    transport,
    // After Allow/Deny, or an answer to a question, send the conversation back to the server.
    sendAutomaticallyWhen: (options) =>
      lastAssistantMessageIsCompleteWithApprovalResponses(options) || lastAssistantMessageIsCompleteWithToolCalls(options),
  });
  const answerQuestion: AnswerQuestion = (toolCallId, answers) => void addToolOutput({ tool: 'ask_user_question', toolCallId, output: { answers } });
  const [input, setInput] = useState('');
  const [tasks, setTasks] = useState<Task[]>([]);
  const views = useCallViews(messages);
  const working = status === 'submitted' || status === 'streaming';

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
    <main className="chat">
      <section className="conversation">
        <h1>agent-toolbelt chat</h1>
        <div data-testid="messages">
          {messages.length === 0 && <p className="hint">Ask the agent to change something in the folder, for example “Rewrite notes.txt”.</p>}
          {messages.map((message) => (
            <Message key={message.id} message={message} views={views} busy={status !== 'ready'} onAnswer={addToolApprovalResponse} onQuestion={answerQuestion} />
          ))}
        </div>
        {error && (
          <p className={error instanceof ChatBusyError ? 'notice' : 'notice error'} data-testid={error instanceof ChatBusyError ? 'busy' : 'error'}>
            {error instanceof ChatBusyError ? BUSY_MESSAGE : `Something went wrong: ${error.message}`}
          </p>
        )}
        <form onSubmit={submit} className="composer">
          <input data-testid="prompt" value={input} onChange={(event) => setInput(event.target.value)} placeholder="Ask the agent…" />
          {working ? (
            <button type="button" data-testid="stop" className="secondary" onClick={() => void stop()}>
              Stop
            </button>
          ) : (
            <button type="submit" data-testid="send" disabled={status !== 'ready' && status !== 'error'}>
              Send
            </button>
          )}
        </form>
        <p data-testid="status" data-status={status} className="status">
          {STATUS_WORDS[status]}
        </p>
      </section>
      <aside className="tasks">
        <h2>Tasks</h2>
        {tasks.length === 0 && <p className="hint">The agent's plan shows here.</p>}
        <ul data-testid="tasks">
          {tasks.map((task) => (
            <li key={task.id} data-status={task.status}>
              <span aria-hidden>{task.status === 'completed' ? '☑' : task.status === 'in_progress' ? '◐' : '☐'}</span> {task.subject}
            </li>
          ))}
        </ul>
      </aside>
    </main>
  );
}

const STATUS_WORDS: Record<string, string> = {
  ready: 'Ready.',
  submitted: 'Sending…',
  streaming: 'The agent is working…',
  error: 'Stopped by an error.',
};

/** Asks `/api/calls` for the words of each tool call not seen yet. */
function useCallViews(messages: UIMessage[]): Record<string, CallView> {
  const [views, setViews] = useState<Record<string, CallView>>({});
  const asked = useRef(new Set<string>());
  useEffect(() => {
    const calls = messages
      .flatMap((message) => message.parts as unknown as ToolPart[])
      .filter((part) => part.type.startsWith('tool-') && part.state !== 'input-streaming' && !asked.current.has(part.toolCallId))
      .map((part) => ({ toolCallId: part.toolCallId, toolName: part.type.slice('tool-'.length), input: part.input }));
    if (calls.length === 0) return;
    for (const call of calls) asked.current.add(call.toolCallId);
    void fetch('/api/calls', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ calls }) })
      .then((response) => (response.ok ? (response.json() as Promise<Record<string, CallView>>) : {}))
      .then((answer) => setViews((current) => ({ ...current, ...answer })));
  }, [messages]);
  return views;
}

type Answer = (response: { id: string; approved: boolean; reason?: string }) => void | PromiseLike<void>;
type AnswerQuestion = (toolCallId: string, answers: Array<{ selected: string[] }>) => void;

/**
 * `busy`: the response is still streaming. Answers wait for its end, which comes after the
 * server saved the session, so the next request always finds the state this one left.
 */
function Message(props: { message: UIMessage; views: Record<string, CallView>; busy: boolean; onAnswer: Answer; onQuestion: AnswerQuestion }) {
  const { message, views, busy, onAnswer, onQuestion } = props;
  return (
    <div data-role={message.role} className={`message ${message.role}`}>
      <div className="author">{message.role === 'user' ? 'You' : 'Agent'}</div>
      {message.parts.map((part, index) => {
        if (part.type === 'text') return <p key={index}>{part.text}</p>;
        if (!part.type.startsWith('tool-')) return null;
        const tool = part as unknown as ToolPart;
        if (part.type === 'tool-ask_user_question') return <Questions key={index} part={tool} busy={busy} onQuestion={onQuestion} />;
        return <ToolCall key={index} part={tool} view={views[tool.toolCallId]} busy={busy} onAnswer={onAnswer} />;
      })}
    </div>
  );
}

/** A state in words a person understands, and its tone for the badge's colour. */
function stateOf(part: ToolPart): { words: string; tone: 'quiet' | 'ask' | 'good' | 'bad' | 'busy' } {
  switch (part.state) {
    case 'input-streaming':
      return { words: 'Preparing', tone: 'quiet' };
    case 'input-available':
      return { words: 'Running', tone: 'busy' };
    case 'approval-requested':
      return { words: 'Needs your approval', tone: 'ask' };
    case 'approval-responded':
      return part.approval?.approved ? { words: 'Allowed, running', tone: 'busy' } : { words: 'Denied', tone: 'bad' };
    case 'output-available':
      if (part.preliminary) return { words: 'Running', tone: 'busy' };
      return part.output?.isError ? { words: 'Did not work', tone: 'bad' } : { words: 'Done', tone: 'good' };
    case 'output-error':
      return { words: 'Failed', tone: 'bad' };
    case 'output-denied':
      return { words: 'You said no', tone: 'bad' };
  }
}

function ToolCall({ part, view, busy, onAnswer }: { part: ToolPart; view: CallView | undefined; busy: boolean; onAnswer: Answer }) {
  const name = part.type.slice('tool-'.length);
  const state = stateOf(part);
  const requestLines = part.approval?.requestReason?.split('\n') ?? [];
  const line = view?.line ?? requestLines[0]?.replace(/:$/, '') ?? name;
  // What the call would change: an overwrite's diff from /api/calls, or the -/+ lines of an edit's description.
  const proposed = view?.diff ?? (requestLines.length > 1 ? requestLines.slice(1).join('\n') : undefined);
  const done = part.state === 'output-available' && !part.preliminary ? part.output : undefined;
  return (
    <div data-testid="tool-call" data-tool={name} data-state={part.state} className={`call ${part.state === 'approval-requested' ? 'asking' : ''}`}>
      <div className="call-head">
        <span data-testid="call-line" className="call-line">
          {line}
        </span>
        <span data-testid="call-state" className={`badge ${state.tone}`}>
          {state.words}
        </span>
      </div>
      {part.state === 'approval-requested' && part.approval && (
        <div className="approval">
          {proposed && <Diff text={proposed} />}
          <div className="buttons">
            <button data-testid="approve" disabled={busy} onClick={() => onAnswer({ id: part.approval!.id, approved: true })}>
              Allow
            </button>
            <button data-testid="always" className="secondary" disabled={busy} onClick={() => onAnswer({ id: part.approval!.id, approved: true, reason: ALWAYS })}>
              Always allow
            </button>
            <button data-testid="deny" className="danger" disabled={busy} onClick={() => onAnswer({ id: part.approval!.id, approved: false, reason: 'Denied in the chat.' })}>
              Deny
            </button>
          </div>
        </div>
      )}
      {part.state === 'output-available' && part.preliminary && part.output?.text && (
        <pre data-testid="live-output" className="live">
          {part.output.text}
        </pre>
      )}
      {done?.data?.diff && <Diff text={done.data.diff} />}
      {done?.isError && <p className="problem">{done.text}</p>}
      {part.state === 'output-error' && <p className="problem">{part.errorText}</p>}
      <details className="more">
        <summary>Details</summary>
        <pre>{JSON.stringify(part.input, null, 2)}</pre>
        {done && !done.isError && <pre data-testid="tool-output">{done.text}</pre>}
      </details>
    </div>
  );
}

/** A unified diff, each line coloured by what it does. */
function Diff({ text }: { text: string }) {
  const lines = text
    .replace(/\n$/, '')
    .split('\n')
    .filter((line) => !/^(Index:|={3,}|--- |\+\+\+ )/.test(line) && line !== '\\ No newline at end of file');
  return (
    <pre data-testid="diff" className="diff">
      {lines.map((line, index) => (
        <span key={index} className={line.startsWith('+') ? 'added' : line.startsWith('-') ? 'removed' : line.startsWith('@@') ? 'hunk' : undefined}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
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
      <div data-testid="questions" data-state={part.state} className="hint">
        {part.state === 'output-available' ? 'You answered.' : 'Preparing a question…'}
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
    <div data-testid="questions" data-state={part.state} className="call asking">
      {questions.map((question, index) => (
        <div key={index}>
          <p>
            <strong>{question.header}</strong> {question.question}
          </p>
          <div className="buttons">
            {question.options.map((option) => (
              <button key={option.label} data-testid="option" className="secondary" disabled={busy} title={option.description} onClick={() => pick(index, option.label)}>
                {option.label}
              </button>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}
