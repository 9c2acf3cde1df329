'use client';

import { useEffect, useRef, useState } from 'react';
import type { AnswerQuestion, ToolPart } from './types';

interface QuestionInput {
  questions: Array<{ question: string; header: string; options: Array<{ label: string; description?: string }> }>;
}

/**
 * ask_user_question, answered here: one click per question (single choice, for brevity).
 * Each option shows its description; once answered, the question and the choice stay.
 * Focus moves to the first option when the question appears.
 */
export function Questions({ part, busy, live, onQuestion }: { part: ToolPart; busy: boolean; live: boolean; onQuestion: AnswerQuestion }) {
  const [picked, setPicked] = useState<string[]>([]);
  const first = useRef<HTMLButtonElement>(null);
  const questions = (part.input as QuestionInput | undefined)?.questions ?? [];
  const open = part.state === 'input-available';
  useEffect(() => {
    if (!open || busy) return;
    first.current?.scrollIntoView({ block: 'nearest' });
    first.current?.focus({ preventScroll: true });
  }, [open, busy]);
  if (part.state === 'input-streaming') return <div data-testid="questions" data-state={part.state} className="hint">{live ? 'Preparing a question…' : 'The question was stopped.'}</div>;
  const answers = part.output?.answers?.map((answer) => answer.selected?.join(', ') ?? '') ?? [];
  const pick = (index: number, label: string) => {
    const next = [...picked];
    next[index] = label;
    setPicked(next);
    if (questions.every((_question, i) => next[i] !== undefined)) onQuestion(part.toolCallId, next.map((selected) => ({ selected: [selected] })));
  };
  return (
    <div data-testid="questions" data-state={part.state} className={`call ${open ? 'asking' : ''}`} role="group" aria-label="A question from the agent">
      {questions.map((question, index) => (
        <fieldset key={index} className="question">
          <legend>
            <strong>{question.header}</strong> {question.question}
          </legend>
          {open ? (
            <div className="options">
              {question.options.map((option, optionIndex) => (
                <button
                  key={option.label}
                  ref={index === 0 && optionIndex === 0 ? first : undefined}
                  data-testid="option"
                  className="secondary option"
                  disabled={busy}
                  aria-pressed={picked[index] === option.label}
                  onClick={() => pick(index, option.label)}
                >
                  <span className="option-label">{option.label}</span>
                  {option.description && <span className="option-description">{option.description}</span>}
                </button>
              ))}
            </div>
          ) : (
            <p data-testid="answer" className="answer">
              {part.state === 'output-available' ? <>You chose: <strong>{answers[index] || picked[index] || 'an answer'}</strong></> : part.errorText ?? 'Not answered.'}
            </p>
          )}
        </fieldset>
      ))}
    </div>
  );
}
