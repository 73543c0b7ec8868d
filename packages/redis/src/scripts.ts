// Each script acts only if the key still holds the caller's in-flight claim: a claimant whose lease expired
// (and whose key another instance may have claimed since) cannot complete, release or renew it. Redis drops a key
// when its PX runs out, so an expired claim holds nothing even if nobody has claimed the key since.

/** KEYS[1] key; ARGV[1] in-flight value, ARGV[2] done value, ARGV[3] done TTL in ms. */
export const COMPLETE_SCRIPT = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3])
  return 1
end
return 0`;

/** KEYS[1] key; ARGV[1] in-flight value. */
export const RELEASE_SCRIPT = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("DEL", KEYS[1])
  return 1
end
return 0`;

/** KEYS[1] key; ARGV[1] in-flight value, ARGV[2] lease ms. */
export const RENEW_SCRIPT = `
if redis.call("GET", KEYS[1]) ~= ARGV[1] then return 0 end
redis.call("PEXPIRE", KEYS[1], ARGV[2])
return 1`;

// The ordered steps. KEYS[1] the delivery key (the one the plain steps use), KEYS[2] the object's handled position,
// KEYS[3] the object's lease; on a Redis Cluster the prefix's hash tag puts all three in one slot.

/**
 * ARGV[1] in-flight value, ARGV[2] position, ARGV[3] lease ms, ARGV[4] done value, ARGV[5] done TTL ms.
 * Returns "done", "in-flight", "stale", "busy" or "claimed".
 */
export const CLAIM_IN_ORDER_SCRIPT = `
local current = redis.call("GET", KEYS[1])
if current then
  if string.sub(current, 1, 5) == "done:" then return "done" end
  return "in-flight"
end
local handled = redis.call("GET", KEYS[2])
if handled and tonumber(ARGV[2]) <= tonumber(handled) then
  redis.call("SET", KEYS[1], ARGV[4], "PX", ARGV[5])
  return "stale"
end
if not redis.call("SET", KEYS[3], ARGV[1], "PX", ARGV[3], "NX") then return "busy" end
redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[3])
return "claimed"`;

/**
 * ARGV[1] in-flight value, ARGV[2] done value, ARGV[3] TTL ms, ARGV[4] position. Refuses unless the token holds both
 * the key and the object's lease: a holder whose lease lapsed never moves the position.
 */
export const COMPLETE_IN_ORDER_SCRIPT = `
if redis.call("GET", KEYS[1]) ~= ARGV[1] or redis.call("GET", KEYS[3]) ~= ARGV[1] then return 0 end
redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3])
local handled = redis.call("GET", KEYS[2])
if handled and tonumber(handled) >= tonumber(ARGV[4]) then
  redis.call("PEXPIRE", KEYS[2], ARGV[3])
else
  redis.call("SET", KEYS[2], ARGV[4], "PX", ARGV[3])
end
redis.call("DEL", KEYS[3])
return 1`;

/** ARGV[1] in-flight value. */
export const RELEASE_IN_ORDER_SCRIPT = `
if redis.call("GET", KEYS[1]) ~= ARGV[1] then return 0 end
redis.call("DEL", KEYS[1])
if redis.call("GET", KEYS[3]) == ARGV[1] then redis.call("DEL", KEYS[3]) end
return 1`;

/** ARGV[1] in-flight value, ARGV[2] lease ms. Renews the key and the object's lease together, or neither. */
export const RENEW_IN_ORDER_SCRIPT = `
if redis.call("GET", KEYS[1]) ~= ARGV[1] or redis.call("GET", KEYS[3]) ~= ARGV[1] then return 0 end
redis.call("PEXPIRE", KEYS[1], ARGV[2])
redis.call("PEXPIRE", KEYS[3], ARGV[2])
return 1`;
