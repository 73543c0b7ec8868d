import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { until } from "../../../test/support/wait";
import { PostgresStore } from "../src/index";
import { LONGEST_PLAIN_KEY, textKey } from "../src/key";

describe("PostgresStore setup", () => {
  it("refuses a client without query, and table or schema names that are not plain identifiers", () => {
    expect(() => new PostgresStore({ client: {} as never })).toThrow(/needs \{ client \}/);
    const client = { query: async () => ({ rows: [] }) };
    expect(() => new PostgresStore({ client, table: "x; drop table y" })).toThrow(TypeError);
    expect(() => new PostgresStore({ client, schema: "Public" })).toThrow(TypeError);
    expect(() => new PostgresStore({ client, purgeEvery: -1 })).toThrow(TypeError);
  });

  it("creates its tables in the schema it is given, on first use", async () => {
    const db = new PGlite();
    try {
      const store = new PostgresStore({ client: db, schema: "webhooks", table: "inbox" });
      expect(await store.claim("event:1", 10_000)).toMatchObject({ state: "claimed" });
      const { rows } = await db.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = 'webhooks' order by 1",
      );
      expect(rows.map((row) => row.table_name)).toEqual(["inbox_deliveries", "inbox_positions"]);
    } finally {
      await db.close();
    }
  });

  it("on PGlite in a directory, remembers handled deliveries and positions across a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tidings-pglite-"));
    try {
      const first = new PGlite(dir);
      const store = new PostgresStore({ client: first });
      const claim = await store.claimInOrder("event:a", 10_000, { object: "msg_1", position: 2 }, 60_000);
      if (claim.state !== "claimed") throw new Error(claim.state);
      expect(await store.completeInOrder("event:a", claim.token, 60_000, { object: "msg_1", position: 2 })).toBe(true);
      await first.close();

      const second = new PGlite(dir);
      const reopened = new PostgresStore({ client: second });
      expect(await reopened.claimInOrder("event:a", 10_000, { object: "msg_1", position: 2 }, 60_000)).toEqual({
        state: "done",
      });
      expect(await reopened.claimInOrder("event:b", 10_000, { object: "msg_1", position: 1 }, 60_000)).toEqual({
        state: "stale",
      });
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("purges expired claims, done keys and positions, and keeps live ones", async () => {
    const db = new PGlite();
    try {
      const store = new PostgresStore({ client: db, purgeEvery: 0 });
      const live = await store.claim("event:live", 60_000);
      const short = await store.claim("event:short", 1);
      if (live.state !== "claimed" || short.state !== "claimed") throw new Error("not claimed");
      const ordered = await store.claimInOrder("event:o", 60_000, { object: "msg_9", position: 1 }, 1);
      if (ordered.state !== "claimed") throw new Error(ordered.state);
      await store.completeInOrder("event:o", ordered.token, 1, { object: "msg_9", position: 1 });
      // The TTLs run on the database's clock: wait until it is past the last of them.
      const { rows } = await db.query<{ after: string }>("select (now() + interval '1 millisecond')::text as after");
      const past = async () =>
        (await db.query<{ past: boolean }>("select now() > $1::timestamptz as past", [rows[0]?.after])).rows[0]?.past;
      await until(past, "the database's clock to pass the TTLs");
      expect(await store.purge()).toBe(3); // event:short, event:o and msg_9's position
      expect(await store.claim("event:live", 60_000)).toEqual({ state: "in-flight" });
    } finally {
      await db.close();
    }
  });
});

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("textKey", () => {
  it("keeps ordinary keys as they are", () => {
    expect(textKey("event:evt_1")).toBe("event:evt_1");
    expect(textKey("endpoint:acct%2042:event:\uD83D\uDE00")).toBe("endpoint:acct%2042:event:\uD83D\uDE00");
  });

  it("property: two different strings give two different texts, none with a lone surrogate or NUL", () => {
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
      fc.constantFrom("\\", "\u0000", "\uD800", "\uDC00", "u", "0"),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 10 }), fc.string({ unit, maxLength: 10 }), (a, b) => {
        const text = textKey(a);
        expect(LONE_SURROGATE.test(text)).toBe(false);
        expect(text.includes("\u0000")).toBe(false);
        if (a !== b) expect(textKey(b)).not.toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it("stores a key past LONGEST_PLAIN_KEY bytes as a 72-character digest, and one at the limit as it is", () => {
    const atLimit = "e".repeat(LONGEST_PLAIN_KEY);
    expect(textKey(atLimit)).toBe(atLimit);
    expect(textKey(`${atLimit}e`)).toMatch(/^\\sha256:[0-9a-f]{64}$/);
    // Bytes, not characters: 700 three-byte characters are 2,100 bytes.
    expect(textKey("\u20AC".repeat(700))).toMatch(/^\\sha256:/);
    expect(textKey("\u0000".repeat(400))).toMatch(/^\\sha256:/); // 2,400 bytes once escaped
    expect(textKey("x".repeat(10_000))).toHaveLength(72);
  });

  it("property: keys near the limit stay apart, and no key stored as it is looks like a digest", () => {
    const unit = fc.constantFrom("a", "\\", "\u0000", "\uD800", "\u20AC", "s", "h");
    const near = fc
      .tuple(
        fc.integer({ min: LONGEST_PLAIN_KEY - 400, max: LONGEST_PLAIN_KEY + 4 }),
        fc.string({ unit, maxLength: 8 }),
      )
      .map(([length, tail]) => "k".repeat(length) + tail);
    const digest = fc.stringMatching(/^\\sha256:[0-9a-f]{64}$/);
    fc.assert(
      fc.property(fc.oneof(near, digest, fc.string({ unit })), fc.oneof(near, digest), (a, b) => {
        const text = textKey(a);
        expect(Buffer.byteLength(text)).toBeLessThanOrEqual(LONGEST_PLAIN_KEY);
        if (a !== b) expect(textKey(b)).not.toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});
