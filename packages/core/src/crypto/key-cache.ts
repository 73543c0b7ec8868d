/** More endpoints than this in rotation rebuild a key now and then; fewer never do. */
export const MAX_KEYS = 4096;

/**
 * The keys made from secrets, per secret: when full, the oldest entry goes. Secrets come from the app's configuration
 * or its resolver, never from a request, so the keys of thousands of endpoints in rotation stay made instead of
 * being rebuilt on every delivery, and a hit costs one lookup.
 */
export function remember<Key>(cache: Map<string, Key>, secret: string, key: Key): Key {
  if (cache.size >= MAX_KEYS) cache.delete(cache.keys().next().value as string);
  cache.set(secret, key);
  return key;
}
