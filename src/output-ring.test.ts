import { describe, expect, it } from 'vitest';
import { OutputRing } from './output-ring.js';

describe('OutputRing', () => {
  it('keeps the newest characters and reports what was dropped since a position', () => {
    const ring = new OutputRing(10);
    ring.append('0123456');
    expect(ring.since(0)).toEqual({ text: '0123456', dropped: 0 });
    ring.append('789abcdef');
    expect(ring.end).toBe(16);
    expect(ring.since(0)).toEqual({ text: '6789abcdef', dropped: 6 });
    expect(ring.since(12)).toEqual({ text: 'cdef', dropped: 0 });
    expect(ring.since(16)).toEqual({ text: '', dropped: 0 });
  });

  it('shows the last lines', () => {
    const ring = new OutputRing(100);
    ring.append('a\nb\n');
    ring.append('c\nd\n');
    expect(ring.tail(2)).toBe('c\nd');
    expect(ring.tail(10)).toBe('a\nb\nc\nd');
    expect(new OutputRing(5).tail(3)).toBe('');
  });
});
