/**
 * The request side of the transactions suite, on node:http: argv PostgreSQL URL.
 *   /ideal    by hand: read the body, verify inline, parse, then `writeOnceByHand` (BEGIN, dedup row, app row, COMMIT)
 *   /webhooks core's Node request handler + a Receiver with `PostgresStore` and `transactions: pgTransactions(pool)`
 *             whose handler writes the same app row through `ctx.transaction`
 * Both answer the Receiver's 200 `{"received":true}` once committed.
 */
import { createReceiver } from "@tidings/core";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";
import { PostgresStore, pgTransactions } from "@tidings/postgres";
import pg from "pg";
import { listen } from "../http/apps/listen";
import { verifyInline } from "../http/ideal";
import { ANSWER_BODY, ANSWER_HEADERS, ROUTES, readRequestBody } from "../http/routes";
import { serveCommands } from "../lib/children";
import { SECRET, SIGNATURE_HEADER } from "../lib/deliveries";
import { type ParsedEvent, writeOnceByHand } from "./by-hand";
import { createTables, insertRow } from "./schema";
import { REQUEST_SIDES, type RequestSide } from "./sides";

const pool = new pg.Pool({ connectionString: process.argv[2], max: 8 });
const noneHandled = () => Object.fromEntries(REQUEST_SIDES.map((side) => [side, 0])) as Record<RequestSide, number>;
let handled = noneHandled();

async function start(): Promise<{ port: number }> {
  for (const side of REQUEST_SIDES) await createTables(pool, side);
  const store = new PostgresStore({ client: pool, table: "tx_store_adapter" });
  await store.setup();
  const receiver = createReceiver({ secret: SECRET, store, transactions: pgTransactions(pool) }).onAny(
    async (event, ctx) => {
      const { id, data } = event as ParsedEvent;
      await ctx.transaction.query(insertRow("adapter"), [id, data.status]);
      handled.adapter++;
    },
  );
  const app = await listen(async (req, res) => {
    if (req.url === ROUTES.adapter) {
      return writeNodeResponse(res, await handleNodeRequest(receiver, req, { consumedFix: "n/a" }));
    }
    if (req.url !== ROUTES.ideal) return void res.writeHead(404).end();
    const body = await readRequestBody(req);
    const event = verifyInline(body, req.headers[SIGNATURE_HEADER] as string | undefined) as ParsedEvent | undefined;
    if (event === undefined) return void res.writeHead(400).end();
    try {
      if (await writeOnceByHand(pool, "ideal", event)) handled.ideal++;
    } catch {
      return void res.writeHead(503).end();
    }
    res.writeHead(200, ANSWER_HEADERS).end(ANSWER_BODY);
  });
  return { port: app.port };
}

serveCommands({
  start,
  "measure-begin": () => {
    handled = noneHandled();
    return {};
  },
  "measure-end": () => ({ handled }),
});
