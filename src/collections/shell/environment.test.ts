import { describe, expect, it } from 'vitest';
import { buildEnvironment } from './environment.js';

describe('buildEnvironment under a host that ssh started', () => {
  const ssh = { PATH: '/usr/bin:/bin', SSH_CLIENT: '10.0.0.2 51618 22', SSH_CONNECTION: '10.0.0.2 51618 10.0.0.1 22' };

  it('gives commands SHLVL=1, so bash does not take each one for an ssh login and read ~/.bashrc', () => {
    expect(buildEnvironment({ inheritEnv: true }, { ...ssh, SHLVL: '0' })).toMatchObject({ ...ssh, SHLVL: '1' });
    expect(buildEnvironment({ inheritEnv: true }, ssh).SHLVL).toBe('1');
    expect(buildEnvironment({ inheritEnv: true }, { PATH: '/bin', SSH2_CLIENT: '10.0.0.2 1 22', SHLVL: '' }).SHLVL).toBe('1');
  });

  it('leaves SHLVL alone where bash would not read ~/.bashrc, and lets `env` decide last', () => {
    expect(buildEnvironment({ inheritEnv: true }, { ...ssh, SHLVL: '3' }).SHLVL).toBe('3');
    expect(buildEnvironment({ inheritEnv: true }, { PATH: '/bin', SHLVL: '0' }).SHLVL).toBe('0');
    expect(buildEnvironment({ inheritEnv: false }, { ...ssh, SHLVL: '0' })).not.toHaveProperty('SHLVL');
    expect(buildEnvironment({ inheritEnv: true, env: { SHLVL: undefined } }, { ...ssh, SHLVL: '0' })).not.toHaveProperty('SHLVL');
  });
});
