import { createPagesHandler } from "@tidings/next";
import type { NextApiRequest, NextApiResponse } from "next";
import { nodeReceiver } from "../../lib/receiver";

export default function handler(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  return createPagesHandler(nodeReceiver())(req, res);
}

// Must be this literal, in this file: Next.js reads it at build time and would otherwise parse the body first.
export const config = { api: { bodyParser: false } };
