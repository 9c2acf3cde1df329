'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStickToBottom } from 'use-stick-to-bottom';
import { ALWAYS, SUPERSEDED, type Answer, type CallView, type ToolPart } from './types';

type Tone = 'quiet' | 'ask' | 'good' | 'bad' | 'busy';

/**
 * The card's state in words, honest about every end: asked, allowed (once or always),
 * running, stopped (the person pressed Stop, or the page lost the response), failed with
 * the exit code, denied with the person's reason, superseded by a newer message.
 * `live`: the response this card belongs to is still streaming.
 */
export function stateOf(part: ToolPart, view: CallView | undefined, live: boolean): { words: string; tone: Tone } {
  const running = (words: string): { words: string; tone: Tone } => (live ? { words, tone: 'busy' } : { words: 'Stopped', tone: 'bad' });
  switch (part.state) {
    case 'input-streaming':
      return live ? { words: 'Preparing', tone: 'quiet' } : { words: 'Stopped', tone: 'bad' };
    case 'input-available':
      return running('Running');
    case 'approval-requested':
      return { words: 'Needs your approval', tone: 'ask' };
    case 'approval-responded':
      if (!part.approval?.approved) return running('Denied');
      return running(part.approval.reason === ALWAYS ? 'Allowed always, running' : 'Allowed, running');
    case 'output-available':
      if (part.preliminary) return running('Running');
      if (view?.result) return { words: view.result.line, tone: view.result.outcome === 'succeeded' ? 'good' : 'bad' };
      return part.output?.isError ? { words: 'Did not work', tone: 'bad' } : { words: 'Done', tone: 'good' };
    case 'output-error':
      return { words: view?.result?.line ?? 'Did not work', tone: 'bad' };
    case 'output-denied':
      if (part.approval?.reason === SUPERSEDED) return { words: 'Superseded: you sent a new message', tone: 'quiet' };
      return { words: view?.result?.line ?? 'You said no', tone: 'bad' };
  }
}

interface ToolCallProps {
  part: ToolPart;
  view: CallView | undefined;
  /** The response is streaming: answers wait for its end (the server saves the session then). */
  busy: boolean;
  live: boolean;
  onAnswer: Answer;
  onRevoke: (key: string) => void;
}

export function ToolCall({ part, view, busy, live, onAnswer, onRevoke }: ToolCallProps) {
  const name = part.type.slice('tool-'.length);
  const state = stateOf(part, view, live);
  const requestLines = part.approval?.requestReason?.split('\n') ?? [];
  const line = view?.line ?? requestLines[0]?.replace(/:$/, '') ?? name;
  // What the call would change: an overwrite's diff from /api/calls, or the -/+ lines of an edit's description.
  const proposed = view?.diff ?? (requestLines.length > 1 ? requestLines.slice(1).join('\n') : undefined);
  const done = part.state === 'output-available' && !part.preliminary ? part.output : undefined;
  const asking = part.state === 'approval-requested' && part.approval !== undefined;
  const output = done?.data?.output;
  // A call that asks when nothing is remembered, yet ran without a question: an "Always allow" let it.
  const ranOnAlways = view?.asks === true && part.approval === undefined && (part.state === 'output-available' || part.state === 'output-error');
  return (
    <div data-testid="tool-call" data-tool={name} data-state={part.state} data-shown={state.words} className={`call ${asking ? 'asking' : ''}`}>
      <div className="call-head">
        <span data-testid="call-line" className="call-line">
          {line}
        </span>
        <span data-testid="call-state" className={`badge ${state.tone}`} role="status">
          {state.words}
        </span>
      </div>
      {ranOnAlways && (
        <p data-testid="ran-on-always" className="always-note">
          Ran without asking: you chose <em>Always allow</em> for calls like this.{' '}
          {view?.alwaysKey !== undefined && (
            <button type="button" className="link" onClick={() => onRevoke(view.alwaysKey!)}>
              Ask again next time
            </button>
          )}
        </p>
      )}
      {part.approval?.reason === ALWAYS && part.approval.approved && <p className="always-note">You chose <em>Always allow</em>: calls like this run without asking in this chat.</p>}
      {asking && <Approval part={part} view={view} proposed={proposed} busy={busy} onAnswer={onAnswer} />}
      {part.state === 'output-available' && part.preliminary && part.output?.text && <Output text={part.output.text} live testId="live-output" />}
      {done?.data?.diff && <Diff text={done.data.diff} />}
      {output !== undefined && output !== '' && <Output text={output} live={false} testId="final-output" />}
      <details className="more">
        <summary>Details</summary>
        <div className="details-body" data-testid="details">
          <Fields input={part.input} />
          {(done?.text ?? part.errorText) && (
            <>
              <div className="field-name">What the agent read</div>
              <pre data-testid="tool-output">{done?.text ?? part.errorText}</pre>
            </>
          )}
        </div>
      </details>
    </div>
  );
}

/** Allow / Always allow (only where the core can remember it) / Deny with an optional reason. Focus moves to Allow. */
function Approval({ part, view, proposed, busy, onAnswer }: { part: ToolPart; view: CallView | undefined; proposed?: string; busy: boolean; onAnswer: Answer }) {
  const allow = useRef<HTMLButtonElement>(null);
  const card = useRef<HTMLDivElement>(null);
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const id = part.approval!.id;
  useEffect(() => {
    if (busy) return;
    card.current?.scrollIntoView({ block: 'nearest' });
    allow.current?.focus({ preventScroll: true });
  }, [busy]);
  const deny = (event: FormEvent) => {
    event.preventDefault();
    onAnswer({ id, approved: false, reason: reason.trim() === '' ? undefined : reason.trim() });
  };
  return (
    <div className="approval" ref={card}>
      {proposed && <Diff text={proposed} />}
      {denying ? (
        <form className="deny-form" onSubmit={deny}>
          <label htmlFor={`reason-${id}`}>Tell the agent why (optional)</label>
          <input id={`reason-${id}`} data-testid="deny-reason" value={reason} onChange={(event) => setReason(event.target.value)} autoFocus placeholder="e.g. keep the first line" />
          <div className="buttons">
            <button type="submit" data-testid="confirm-deny" className="danger" disabled={busy}>
              Deny
            </button>
            <button type="button" className="secondary" onClick={() => setDenying(false)}>
              Back
            </button>
          </div>
        </form>
      ) : (
        <div className="buttons">
          <button ref={allow} data-testid="approve" disabled={busy} onClick={() => onAnswer({ id, approved: true })}>
            Allow
          </button>
          {view?.canAlwaysApprove && (
            <button data-testid="always" className="secondary" disabled={busy} onClick={() => onAnswer({ id, approved: true, reason: ALWAYS })}>
              Always allow
            </button>
          )}
          <button data-testid="deny" className="danger" disabled={busy} onClick={() => setDenying(true)}>
            Deny…
          </button>
        </div>
      )}
      {view !== undefined && !view.canAlwaysApprove && <p className="hint small">This call cannot be allowed always: each one like it is asked.</p>}
    </div>
  );
}

/** Output that follows its newest lines while it streams (`use-stick-to-bottom`), height-limited, kept after the end. */
function Output({ text, live, testId }: { text: string; live: boolean; testId: string }) {
  const { scrollRef, contentRef } = useStickToBottom({ initial: 'instant', resize: 'instant' });
  return (
    <div ref={scrollRef} className={`output ${live ? 'live' : ''}`} tabIndex={0} aria-label={live ? 'Live output' : 'Output'}>
      <pre ref={contentRef} data-testid={testId}>
        {text}
      </pre>
    </div>
  );
}

/** The call's input as named fields, not JSON. */
function Fields({ input }: { input: unknown }) {
  if (typeof input !== 'object' || input === null) return null;
  return (
    <dl className="fields">
      {Object.entries(input).map(([key, value]) => (
        <div key={key}>
          <dt className="field-name">{key.replace(/_/g, ' ')}</dt>
          <dd>{typeof value === 'string' ? value.includes('\n') ? <pre>{value}</pre> : value : <pre>{JSON.stringify(value, null, 2)}</pre>}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A unified diff, each line coloured by what it does. */
export function Diff({ text }: { text: string }) {
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
