// Each script acts only if the key still holds the caller's in-flight claim: a claimant whose lease expired
// (and whose key another instance may have claimed since) cannot complete or release it.

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
