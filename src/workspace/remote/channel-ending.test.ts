import { describe, expect, it } from 'vitest';
import { channelEnding } from './channel-ending.js';

describe('channelEnding', () => {
  it('names a signal the channel reports as 128 + its number', () => {
    expect(channelEnding('/usr/bin/bwrap', 137, null)).toBe('its server was killed by SIGKILL (`bwrap` exited with code 137)');
    expect(channelEnding('docker', 143, null)).toBe('its server was killed by SIGTERM (`docker` exited with code 143)');
    expect(channelEnding('the sandbox', 137, null)).toBe('its server was killed by SIGKILL (the sandbox exited with code 137)');
  });

  it('says the ssh connection ended for ssh’s 255, which stands for a killed server and a dropped connection alike', () => {
    expect(channelEnding('ssh', 255, null)).toBe('the ssh connection ended (`ssh` exited with code 255: the connection failed or dropped, or the server in the box was killed)');
    expect(channelEnding('/usr/bin/ssh', null, 'SIGTERM')).toBe('the ssh connection ended (`ssh` was killed by SIGTERM on this machine)');
  });

  it('keeps other codes and a signal here as they are', () => {
    expect(channelEnding('node', null, 'SIGKILL')).toBe('its server was killed by SIGKILL');
    expect(channelEnding('node', 1, null)).toBe('its server exited with code 1');
    expect(channelEnding('docker', 255, null)).toBe('its server exited with code 255');
    expect(channelEnding('sh', 127, null)).toBe('its server exited with code 127');
  });
});
