/**
 * The Redis store's Lua scripts: each one atomic step on a session's three keys, the session
 * hash (`payload`, `version`), the lease (the holder's random token, with its expiry) and the
 * holder's note of itself beside it (same expiry), for waiters to read who holds the session.
 */

/**
 * Takes the lease when free and reads the session in the same step: `{1, payload, version}`
 * when taken, else `{0, the holder's remaining milliseconds, the holder's note}`.
 * KEYS: lease, session, holder. ARGV: token, leaseMs, note ('' for none).
 */
export const ACQUIRE = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  if ARGV[3] ~= '' then redis.call('SET', KEYS[3], ARGV[3], 'PX', ARGV[2]) else redis.call('DEL', KEYS[3]) end
  local stored = redis.call('HMGET', KEYS[2], 'payload', 'version')
  return {1, stored[1], stored[2]}
end
return {0, redis.call('PTTL', KEYS[1]), redis.call('GET', KEYS[3])}`;

/** Extends the lease (and the holder's note) only for its owner. KEYS: lease, holder. ARGV: token, leaseMs. */
export const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

/** Deletes the lease and the holder's note only for the lease's owner. KEYS: lease, holder. ARGV: token. */
export const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1], KEYS[2]) end
return 0`;

/**
 * The versioned save, checked and written in one script (and, when asked, the lease released):
 * `{1, version, released?}` when written, `{0, reason, storedVersion}` when refused.
 * KEYS: session, lease, holder. ARGV: payload, expected version, token ('' outside a turn),
 * ttlMs ('' for none), '1' to release.
 */
export const SAVE = `local lease = redis.call('GET', KEYS[2])
local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if ARGV[3] ~= '' then
  if lease ~= ARGV[3] then return {0, 'lease', stored} end
elseif lease then
  return {0, 'busy', stored}
end
if stored ~= tonumber(ARGV[2]) then return {0, 'version', stored} end
local version = stored + 1
redis.call('HSET', KEYS[1], 'payload', ARGV[1], 'version', version)
if ARGV[4] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[4]) else redis.call('PERSIST', KEYS[1]) end
if ARGV[5] == '1' and ARGV[3] ~= '' then
  redis.call('DEL', KEYS[2], KEYS[3])
  return {1, version, 1}
end
return {1, version}`;
