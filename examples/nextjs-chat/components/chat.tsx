'use client';

import { useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
} from 'ai';
import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { StickToBottom, useStickToBottomContext } from 'use-stick-to-bottom';
import { getJson } from './get-json';
import { Markdown } from './markdown';
import { Questions } from './questions';
import { SidePanel } from './side-panel';
import { ToolCall } from './tool-call';
import { isWaiting, SUPERSEDED, type Answer, type AnswerQuestion, type CallView, type ToolPart } from './types';
import { useCallViews } from './use-call-views';
import { useSidePanel } from './use-side-panel';

const BUSY_MESSAGE = 'This chat is busy in another tab or window. Wait for it to finish there, then send again.';

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

const STATUS_WORDS: Record<string, string> = {
  ready: 'Ready.',
  submitted: 'Sending…',
  streaming: 'The agent is working…',
  error: 'Stopped by an error.',
};

/**
 * A pending approval or question, answered "superseded" because the person sent a new
 * message instead: the model reads that it was not run, the card says why.
 */
function supersede(messages: UIMessage[]): UIMessage[] {
  return messages.map((message) => {
    if (message.role !== 'assistant' || !message.parts.some(isWaiting)) return message;
    const parts = message.parts.map((part) => {
      if (!isWaiting(part)) return part;
      const tool = part as unknown as ToolPart;
      if (tool.state === 'approval-requested') return { ...part, state: 'output-denied', approval: { ...tool.approval!, approved: false, reason: SUPERSEDED } };
      return { ...part, state: 'output-error', errorText: SUPERSEDED };
    });
    return { ...message, parts } as UIMessage;
  });
}

export function Chat({ id, initialMessages }: { id: string; initialMessages: UIMessage[] }) {
  const { messages, setMessages, sendMessage, addToolApprovalResponse, addToolOutput, status, error, stop, regenerate, clearError } = useChat({
    id,
    messages: initialMessages,
    transport,
    // After Allow/Deny, or an answer to a question, send the conversation back to the server.
    sendAutomaticallyWhen: (options) => lastAssistantMessageIsCompleteWithApprovalResponses(options) || lastAssistantMessageIsCompleteWithToolCalls(options),
  });
  const prompt = useRef<HTMLTextAreaElement>(null);
  const [input, setInput] = useState('');
  const [queued, setQueued] = useState<string[]>([]);
  const [showSide, setShowSide] = useState(false);
  /** The id of the user message being edited: sending replaces it, and what came after it. */
  const [editing, setEditing] = useState<string | undefined>();
  const recent = useRecentChats(id, messages);
  const views = useCallViews(messages);
  const working = status === 'submitted' || status === 'streaming';
  const waiting = messages.at(-1)?.role === 'assistant' && messages.at(-1)!.parts.some(isWaiting);

  const { tasks, always, revokeNote, refresh: refreshSide, revoke } = useSidePanel(id);
  useEffect(() => {
    if (status === 'ready') refreshSide();
  }, [status, messages.length, refreshSide]);

  // Another tab may have moved this chat on: when this one comes back into view, load what the server kept.
  useEffect(() => {
    const reload = () => {
      if (document.visibilityState !== 'visible' || status !== 'ready') return;
      void getJson<UIMessage[]>(`/api/history?chat=${encodeURIComponent(id)}`).then((kept) => {
        if (kept !== undefined && kept.length > messages.length) setMessages(kept);
      });
    };
    document.addEventListener('visibilitychange', reload);
    window.addEventListener('focus', reload);
    return () => {
      document.removeEventListener('visibilitychange', reload);
      window.removeEventListener('focus', reload);
    };
  }, [id, status, messages.length, setMessages]);

  const send = useCallback(
    (text: string, messageId?: string) => {
      // A message sent while an approval or a question waits answers it "superseded".
      if (waiting && messageId === undefined) setMessages(supersede(messages));
      void sendMessage(messageId === undefined ? { text } : { text, messageId });
    },
    [waiting, messages, setMessages, sendMessage],
  );

  // Messages typed while the agent works wait here and go once it is done (and nothing waits for an answer).
  useEffect(() => {
    if (status !== 'ready' || waiting || queued.length === 0) return;
    const [next, ...rest] = queued;
    setQueued(rest);
    send(next!);
  }, [status, waiting, queued, send]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const text = input.trim();
    if (text === '') return;
    if (working) setQueued((current) => [...current, text]);
    else send(text, editing);
    setEditing(undefined);
    setInput('');
  };
  const onEdit = (message: UIMessage) => {
    setEditing(message.id);
    setInput(message.parts.map((part) => (part.type === 'text' ? part.text : '')).join(''));
    focusPrompt();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };
  const focusPrompt = () => requestAnimationFrame(() => prompt.current?.focus());
  const onAnswer: Answer = (response) => {
    void addToolApprovalResponse(response);
    focusPrompt();
  };
  const onQuestion: AnswerQuestion = (toolCallId, answers) => {
    void addToolOutput({ tool: 'ask_user_question', toolCallId, output: { answers } });
    focusPrompt();
  };
  const onRevoke = (key: string) => void revoke(key);
  // Resend after a failure; after a busy chat, first catch up with what the other tab saved.
  const resend = async () => {
    const busyElsewhere = error instanceof ChatBusyError;
    clearError();
    const last = messages.at(-1);
    if (busyElsewhere && last?.role === 'user') {
      const kept = await getJson<UIMessage[]>(`/api/history?chat=${encodeURIComponent(id)}`);
      if (kept !== undefined && kept.length >= messages.length) setMessages([...kept, last]);
    }
    void regenerate();
  };
  const openTasks = tasks.filter((task) => task.status !== 'completed').length;

  return (
    <div className="chat">
      <header className="top">
        <h1>agent-toolbelt chat</h1>
        <nav className="top-actions">
          <button type="button" className="secondary side-toggle" aria-expanded={showSide} aria-controls="side" onClick={() => setShowSide(!showSide)}>
            Tasks{tasks.length > 0 ? ` (${openTasks} open)` : ''}
          </button>
          <a className="button secondary" href="/" data-testid="new-chat">
            New chat
          </a>
        </nav>
      </header>
      <main className="conversation">
        <StickToBottom className="scroller" resize="smooth" initial="instant">
          <StickToBottom.Content className="messages" data-testid="messages">
            {messages.length === 0 && <p className="hint">Ask the agent to change something in the folder, for example “Rewrite notes.txt”.</p>}
            {messages.map((message, index) => (
              <Message
                key={message.id}
                message={message}
                views={views}
                busy={status !== 'ready' && status !== 'error'}
                live={working && index === messages.length - 1}
                onAnswer={onAnswer}
                onQuestion={onQuestion}
                onRevoke={onRevoke}
                onEdit={status === 'ready' || status === 'error' ? onEdit : undefined}
              />
            ))}
            {status === 'submitted' && (
              <p className="thinking" data-testid="thinking" aria-live="polite">
                <span className="dots" aria-hidden /> Thinking…
              </p>
            )}
            {status === 'ready' && messages.at(-1)?.role === 'assistant' && !waiting && (
              <button type="button" className="link retry" data-testid="retry" onClick={() => void regenerate()}>
                Retry the last answer
              </button>
            )}
          </StickToBottom.Content>
          <JumpToBottom />
        </StickToBottom>
        {error && (
          <div className={error instanceof ChatBusyError ? 'notice' : 'notice error'} data-testid={error instanceof ChatBusyError ? 'busy' : 'error'} role="alert">
            <span>{error instanceof ChatBusyError ? BUSY_MESSAGE : /fetch|network/i.test(error.message) ? 'The server did not answer: it may be down or restarting. Your message is kept.' : `Something went wrong: ${error.message}`}</span>
            <button type="button" data-testid="resend" onClick={() => void resend()}>
              Resend
            </button>
          </div>
        )}
        {queued.length > 0 && (
          <p className="notice" data-testid="queued">
            {queued.length === 1 ? 'One message waits' : `${queued.length} messages wait`} and will be sent when the agent is done{waiting ? ' and you have answered above' : ''}: “{queued[0]}”{' '}
            <button type="button" className="link" onClick={() => setQueued([])}>
              Do not send
            </button>
          </p>
        )}
        {editing !== undefined && (
          <p className="notice" data-testid="editing">
            Editing your message: sending replaces it and everything after it.{' '}
            <button type="button" className="link" onClick={() => { setEditing(undefined); setInput(''); }}>
              Cancel
            </button>
          </p>
        )}
        <form onSubmit={submit} className="composer">
          <label htmlFor="prompt" className="sr-only">
            Message to the agent
          </label>
          <textarea
            id="prompt"
            ref={prompt}
            data-testid="prompt"
            rows={1}
            value={input}
            onChange={(event) => setInput(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder={working ? 'The agent is working: what you send now waits for it…' : 'Ask the agent… (Shift+Enter for a new line)'}
          />
          {working && (
            <button type="button" data-testid="stop" className="secondary" onClick={() => void stop()}>
              Stop
            </button>
          )}
          <button type="submit" data-testid="send" disabled={input.trim() === ''}>
            {working ? 'Queue' : 'Send'}
          </button>
        </form>
        <p data-testid="status" data-status={status} className="status" aria-live="polite">
          {STATUS_WORDS[status]}
        </p>
      </main>
      <aside id="side" className={`side ${showSide ? 'shown' : ''}`} aria-label="Tasks and permissions">
        <SidePanel tasks={tasks} always={always} revokeNote={revokeNote} onRevoke={onRevoke} />
        {recent.length > 0 && (
          <>
            <h2>Recent chats</h2>
            <ul data-testid="recent">
              {recent.map((chat) => (
                <li key={chat.id}>
                  <a href={`/chat/${chat.id}`} aria-current={chat.id === id ? 'page' : undefined}>
                    {chat.title}
                  </a>
                </li>
              ))}
            </ul>
          </>
        )}
      </aside>
    </div>
  );
}

/** Shown when the person has scrolled up: one click back to the newest message. */
function JumpToBottom() {
  const { isAtBottom, scrollToBottom } = useStickToBottomContext();
  if (isAtBottom) return null;
  return (
    <button type="button" className="jump" data-testid="jump" onClick={() => void scrollToBottom()}>
      ↓ Newest
    </button>
  );
}

interface MessageProps {
  message: UIMessage;
  views: Record<string, CallView>;
  busy: boolean;
  live: boolean;
  onAnswer: Answer;
  onQuestion: AnswerQuestion;
  onRevoke: (key: string) => void;
  /** Set while a user message can be edited (the chat is not running a turn). */
  onEdit?: (message: UIMessage) => void;
}

function Message({ message, views, busy, live, onAnswer, onQuestion, onRevoke, onEdit }: MessageProps) {
  return (
    <article data-role={message.role} className={`message ${message.role}`} aria-label={message.role === 'user' ? 'You said' : 'The agent said'}>
      <div className="author">
        {message.role === 'user' ? 'You' : 'Agent'}
        {message.role === 'user' && onEdit !== undefined && (
          <button type="button" className="link edit" data-testid="edit" onClick={() => onEdit(message)}>
            Edit
          </button>
        )}
      </div>
      {message.parts.map((part, index) => {
        if (part.type === 'text') return message.role === 'user' ? <p key={index} className="user-text">{part.text}</p> : <Markdown key={index} text={part.text} streaming={live && part.state === 'streaming'} />;
        if (!part.type.startsWith('tool-')) return null;
        const tool = part as unknown as ToolPart;
        if (part.type === 'tool-ask_user_question') return <Questions key={index} part={tool} busy={busy} live={live} onQuestion={onQuestion} />;
        return <ToolCall key={index} part={tool} view={views[tool.toolCallId]} busy={busy} live={live} onAnswer={onAnswer} onRevoke={onRevoke} />;
      })}
    </article>
  );
}

const RECENT_KEY = 'agent-toolbelt-chat:recent';
const MAX_RECENT = 20;

/** The chats this browser opened, newest first, titled by their first message (kept in localStorage). */
function useRecentChats(id: string, messages: UIMessage[]): Array<{ id: string; title: string }> {
  const [recent, setRecent] = useState<Array<{ id: string; title: string }>>([]);
  const first = messages.find((message) => message.role === 'user');
  const title = first?.parts.map((part) => (part.type === 'text' ? part.text : '')).join('').slice(0, 60);
  useEffect(() => {
    let kept: Array<{ id: string; title: string }> = [];
    try {
      kept = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
    } catch {
      // A list this page cannot read starts again.
    }
    const next = title ? [{ id, title }, ...kept.filter((chat) => chat.id !== id)].slice(0, MAX_RECENT) : kept;
    if (title) localStorage.setItem(RECENT_KEY, JSON.stringify(next));
    setRecent(next);
  }, [id, title]);
  return recent;
}
