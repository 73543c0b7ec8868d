/** Whether an SDK's verifier that throws on refusal (or returns false, or rejects) accepted a delivery. */
export async function accepted(verify: () => unknown): Promise<boolean> {
  try {
    return (await verify()) !== false;
  } catch {
    return false;
  }
}

/** Now, in Unix seconds. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
