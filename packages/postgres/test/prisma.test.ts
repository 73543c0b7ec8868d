import { PrismaPg } from "@prisma/adapter-pg";
import { createReceiver, DEFAULTS, messageStatusOrder, sign } from "@tidings/core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresServer } from "../../../test/support/postgres-server";
import { PostgresStore, transactionsOf } from "../src/index";
import { type Prisma, PrismaClient } from "./prisma/generated/client";
import { job, ListWorker } from "./support/list-worker";

// Prisma's interactive transaction carries the handler's row (through the generated client) and the delivery's done
// mark (the store's statement through `$queryRawUnsafe`): the README's recipe, on a real PostgreSQL, with the client
// that `prisma generate` wrote from test/prisma/schema.prisma (vitest's globalSetup runs it, offline).

const SECRET = "whsec_prisma";

let server: PostgresServer;
let pool: pg.Pool;
let prisma: PrismaClient;
let tables = 0;

beforeAll(async () => {
  server = await PostgresServer.start();
  pool = new pg.Pool({ connectionString: server.url, max: 4 });
  prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  // The schema's `Failure` table, made with SQL: `prisma migrate` and `db push` need a downloaded schema engine. Its
  // key is checked at COMMIT, so a handler that writes an id twice makes the commit itself fail.
  await pool.query(
    "create table prisma_failures (event_id text not null, constraint prisma_failures_pkey primary key (event_id) deferrable initially deferred)",
  );
});

afterAll(async () => {
  await prisma?.$disconnect();
  await pool?.end();
  await server?.remove();
});

function prismaTransactions() {
  return transactionsOf<Prisma.TransactionClient>({
    transaction: (work) => prisma.$transaction(work, { timeout: DEFAULTS.leaseMs }),
    query: (tx, text, params) => tx.$queryRawUnsafe<Record<string, unknown>[]>(text, ...params),
  });
}

function delivery(id: string, status = "failed") {
  const body = JSON.stringify({ id, type: `message.${status}`, data: { id: "msg_1", status, channel: "sms" } });
  return { rawBody: new TextEncoder().encode(body), headers: { "service-signature": sign(body, SECRET) } };
}

const rowsOf = async (...events: string[]) =>
  (await pool.query("select event_id from prisma_failures where event_id = any($1) order by event_id", [events])).rows;

describe("Prisma (@prisma/adapter-pg): one interactive transaction carries the handler's row and the done mark", () => {
  function setup(options: { order?: boolean } = {}) {
    const store = new PostgresStore({ client: pool, table: `prisma_${tables++}` });
    const receiver = createReceiver({
      secret: SECRET,
      store,
      transactions: prismaTransactions(),
      ...(options.order && { order: messageStatusOrder }),
      logger: { error() {}, warn() {} },
    });
    return { store, receiver };
  }

  it("commits both; a rerun of the committed delivery does not run the handler", async () => {
    const { store, receiver } = setup();
    let runs = 0;
    receiver.on("message.failed", async (event, ctx) => {
      runs++;
      await ctx.transaction.failure.create({ data: { eventId: event.id ?? "" } });
    });
    expect((await receiver.receive(delivery("evt_commit"))).code).toBe("accepted");
    expect(await rowsOf("evt_commit")).toEqual([{ event_id: "evt_commit" }]);
    expect(await store.claim("event:evt_commit", 10_000)).toEqual({ state: "done" });
    expect((await receiver.receive(delivery("evt_commit"))).code).toBe("duplicate");
    expect(runs).toBe(1);
    expect(await rowsOf("evt_commit")).toEqual([{ event_id: "evt_commit" }]);
  });

  it("rolls both back when the handler throws after its write (500), and the retry writes once", async () => {
    const { store, receiver } = setup();
    let fail = true;
    receiver.on("message.failed", async (event, ctx) => {
      await ctx.transaction.failure.create({ data: { eventId: event.id ?? "" } });
      if (fail) throw new Error("after the write");
    });
    expect(await receiver.receive(delivery("evt_rollback"))).toMatchObject({ code: "handler_failed", status: 500 });
    expect(await rowsOf("evt_rollback")).toEqual([]);
    const claim = await store.claim("event:evt_rollback", 10_000);
    expect(claim).toMatchObject({ state: "claimed" });
    if (claim.state === "claimed") await store.release("event:evt_rollback", claim.token);
    fail = false;
    expect((await receiver.receive(delivery("evt_rollback"))).code).toBe("accepted");
    expect(await rowsOf("evt_rollback")).toEqual([{ event_id: "evt_rollback" }]);
  });

  it("leaves the key unmarked when the commit itself fails, after the mark was written", async () => {
    const { store, receiver } = setup();
    receiver.on("message.failed", async (event, ctx) => {
      await ctx.transaction.failure.create({ data: { eventId: event.id ?? "" } });
      await ctx.transaction.failure.create({ data: { eventId: event.id ?? "" } });
    });
    expect((await receiver.receive(delivery("evt_commit_fails"))).code).toBe("store_unavailable");
    expect(await rowsOf("evt_commit_fails")).toEqual([]);
    expect(await store.claim("event:evt_commit_fails", 10_000)).toMatchObject({ state: "claimed" });
  });

  it("with order, moves the object's position in the transaction: an older event is stale and writes nothing", async () => {
    const { receiver } = setup({ order: true });
    receiver.onAny(async (event, ctx) => {
      await ctx.transaction.failure.create({ data: { eventId: String(event.id) } });
    });
    expect((await receiver.receive(delivery("evt_delivered", "delivered"))).code).toBe("accepted");
    expect((await receiver.receive(delivery("evt_sent", "sent"))).code).toBe("stale");
    expect(await rowsOf("evt_delivered", "evt_sent")).toEqual([{ event_id: "evt_delivered" }]);
  });
});

describe.each([false, true])("a worker's job in a Prisma transaction (order: %s)", (ordered) => {
  it("writes once: a rerun of a committed job completes as a duplicate without running the handler", async () => {
    const worker = new ListWorker<Prisma.TransactionClient>({
      store: new PostgresStore({ client: pool, table: `prisma_${tables++}` }),
      transactions: prismaTransactions(),
      logger: { error() {}, warn() {} },
      ...(ordered && { order: messageStatusOrder }),
    });
    let runs = 0;
    worker.onAny(async (event, ctx) => {
      runs++;
      await ctx.transaction.failure.create({ data: { eventId: String(event.id) } });
    });
    const id = `evt_job_${ordered}`;
    expect(await worker.runJob(job(id, "delivered"))).toBe("completed");
    expect(await worker.runJob(job(id, "delivered"), 2)).toBe("duplicate");
    expect(runs).toBe(1);
    expect(await rowsOf(id)).toEqual([{ event_id: id }]);
  });
});
