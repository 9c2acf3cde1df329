import { describe, expect, it } from 'vitest';
import { createSession, restoreSession } from './session.js';

describe('Session "always" decisions', () => {
  it('forgets a revoked decision, also after a round trip through JSON', () => {
    const session = createSession({ id: 'chat' });
    session.approve('write_file');
    session.approve('run_shell:npm test');
    expect(session.revoke('write_file')).toBe(true);
    expect(session.revoke('write_file')).toBe(false);
    expect(session.isApproved('write_file')).toBe(false);
    const restored = restoreSession(JSON.parse(JSON.stringify(session)));
    expect(restored.approvals).toEqual(['run_shell:npm test']);
  });
});
