import type { DeliveryStore } from "@tidings/core";

/**
 * A DeliveryStore that remembers nothing: every delivery is claimed, handled and forgotten. The noDedup route uses it
 * to show what an adapter costs apart from dedup, and so what the MemoryStore costs (adapter ÷ noDedup).
 */
export const forgetfulStore: DeliveryStore = {
  claim: () => ({ state: "claimed", token: "" }),
  complete: () => true,
  release: () => true,
};
