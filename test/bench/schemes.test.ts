import { catalogue } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { casesOf } from "../../bench/schemes/cases";
import type { SchemeDelivery } from "../../bench/schemes/deliveries";
import { mergeSchemeRows } from "../../bench/schemes/merge";
import { PEERS } from "../../bench/schemes/peers";
import { renderSchemes } from "../../bench/schemes/render";
import type { SchemeRow } from "../../bench/schemes/suite";

/** The delivery with one byte of its padding changed. */
function tampered(delivery: SchemeDelivery): SchemeDelivery {
  const payload = Buffer.from(delivery.payload);
  payload[payload.lastIndexOf("x")] = "y".charCodeAt(0);
  return { ...delivery, payload };
}

const refuses = async (run: () => unknown) => {
  try {
    return (await run()) === false;
  } catch {
    return true;
  }
};

describe("the schemes benchmark's cases", () => {
  it("come from every scheme of the catalogue: its own sign's delivery, which its verify and its floor accept", async () => {
    for (const scheme of catalogue()) {
      const cases = await casesOf(scheme, 256, { peers: false });
      expect(cases.length, scheme.name).toBeGreaterThan(0);
      for (const { delivery, tidings, floor } of cases) {
        expect(() => tidings(), delivery.label).not.toThrow();
        expect(floor.run(), `${delivery.label}: ${floor.kind}`).toBe(true);
        expect(floor.kind, delivery.label).toMatch(
          /^((JSON\.parse of the body|the form parsed and sorted|the JWT decoded and parsed) \+ )?(HMAC-SHA(1|256|512), (hex|base64)|ed25519|ECDSA P-256|token)/,
        );
        if (floor.bare) expect(floor.bare(), `${delivery.label}: the primitive alone`).toBe(true);
      }
    }
  });

  it("do the work a sender's format forces in the floor of those senders alone, the primitive alone beside it", async () => {
    const forced = new Map<string, string>();
    for (const scheme of catalogue()) {
      for (const { delivery, floor } of await casesOf(scheme, 256, { peers: false })) {
        const [kind] = floor.kind.split(" + ");
        if (floor.bare) forced.set(delivery.label, kind as string);
      }
    }
    expect(Object.fromEntries(forced)).toEqual({
      adyen: "JSON.parse of the body",
      linear: "JSON.parse of the body",
      mailgun: "JSON.parse of the body",
      plivo: "the form parsed and sorted",
      qstash: "the JWT decoded and parsed",
      twilio: "the form parsed and sorted",
      vonage: "the JWT decoded and parsed",
    });
  });

  it("measure a second kind of secret a scheme verifies under a name of its own", async () => {
    const [scheme] = catalogue().filter(({ name }) => name === "standard-webhooks");
    const cases = await casesOf(scheme as NonNullable<typeof scheme>, 4096, { peers: false });
    expect(cases.map((testCase) => [testCase.scheme, testCase.floor.kind])).toEqual([
      ["standard-webhooks", "HMAC-SHA256, base64"],
      ["standard-webhooks (ed25519)", "ed25519"],
    ]);
  });

  it("hold each sender's SDK, which accepts the delivery and refuses it changed where Tidings does", async () => {
    const withPeers = catalogue().filter(({ name }) => PEERS[name] !== undefined);
    expect(withPeers.length).toBeGreaterThanOrEqual(24);
    const unsignedPadding: string[] = [];
    for (const scheme of withPeers) {
      const [first] = await casesOf(scheme, 256);
      expect(first?.peer, scheme.name).toBeDefined();
      const changed = tampered(first?.delivery as SchemeDelivery);
      const { payload, headers, secret, request } = changed;
      const tidingsRefuses = await refuses(() => scheme.verify(payload, headers, secret, { request }));
      if (!tidingsRefuses) {
        unsignedPadding.push(scheme.name);
        continue;
      }
      const peer = await (PEERS[scheme.name] as NonNullable<(typeof PEERS)[string]>)(changed);
      expect(await refuses(peer.run), `${peer.name} accepted a changed body`).toBe(true);
    }
    // Adyen signs some fields of its item, not the body: the padding changed is no change to what is signed.
    expect(unsignedPadding).toEqual(["adyen"]);
  });
});

describe("the schemes section", () => {
  const row = (fields: Partial<SchemeRow>): SchemeRow => {
    const base = {
      scheme: "acme",
      size: 256,
      tidings: 40_000,
      floor: 36_000,
      floorKind: "HMAC-SHA256, hex",
      ...fields,
    };
    return { ...base, vsFloor: base.tidings / base.floor };
  };

  it("gives each row its verdict per target", () => {
    const text = renderSchemes(
      {
        rows: [
          row({ scheme: "near" }),
          row({ scheme: "far", tidings: 44_000 }),
          row({ scheme: "big", size: 4096, tidings: 160_000, floor: 144_000 }),
          row({
            scheme: "sdk",
            size: 4096,
            tidings: 150_000,
            floor: 144_000,
            peer: { name: "lib", instructions: 149_000 },
            peerVsTidings: 149 / 150,
          }),
          row({
            scheme: "close",
            tidings: 41_000,
            peer: { name: "lib", instructions: 40_000 },
            peerVsTidings: 40 / 41,
          }),
        ],
        unmeasured: [{ scheme: "broken", reason: "no secret found" }],
        notes: ["Counted again in a run of its own: far."],
      },
      [],
    );
    const line = (scheme: string) => text.split("\n").find((candidate) => candidate.startsWith(`| ${scheme} |`)) ?? "";
    expect(line("near")).toMatch(/\| \+4\.0 k \| met \| none \|/);
    expect(line("far")).toMatch(/\| \+8\.0 k \| ✗ not met \|/);
    expect(line("big")).toMatch(/\| 1\.111 \| \+16\.0 k \| ✗ not met \|/);
    expect(line("sdk")).toMatch(/\| met \| lib 149\.0 k \| 0\.99× \| ✗ not met \|$/);
    expect(line("close")).toMatch(/\| lib 40\.0 k \| 0\.98× \| met \|$/);
    expect(text).toContain("Floor target met by 3 of 5 rows: not met by far at 256 B, big at 4 KiB.");
    expect(text).toContain("- broken: no secret found");
    expect(text).toContain("\n\nCounted again in a run of its own: far.\n\n");
    expect(text).not.toContain("primitive alone");
    const forced = renderSchemes({ rows: [row({ scheme: "formed", floor: 50_000, bareFloor: 30_000 })] }, []);
    expect(forced).toContain("beside the primitive alone: formed at 256 B 50.0 k (primitive alone 30.0 k).");
  });

  it("takes a later run of some schemes in place of their rows, keeps the others, and names the schemes counted apart", () => {
    const stored = {
      rows: [
        row({ scheme: "acme" }),
        row({ scheme: "twin" }),
        row({ scheme: "twin (ed25519)", tidings: 1_350_000, floor: 1_340_000 }),
        row({ scheme: "acme", size: 4096 }),
        row({ scheme: "twin", size: 4096 }),
      ],
      unmeasured: [{ scheme: "gone", reason: "no secret found" }],
      notes: ["An earlier note."],
    };
    const fresh = {
      rows: [row({ scheme: "twin", tidings: 38_000 }), row({ scheme: "twin", size: 4096, tidings: 37_000 })],
      unmeasured: [{ scheme: "gone", reason: "threw" }],
    };
    const merged = mergeSchemeRows(stored, fresh, ["twin", "gone"]);
    expect(merged.rows.map(({ scheme, size, tidings }) => `${scheme} ${size} ${tidings}`)).toEqual([
      "acme 256 40000",
      "twin 256 38000",
      "acme 4096 40000",
      "twin 4096 37000",
    ]);
    expect(merged.unmeasured).toEqual([{ scheme: "gone", reason: "threw" }]);
    const again = mergeSchemeRows(merged, { rows: [row({ scheme: "acme", tidings: 39_000 })] }, ["acme"]);
    expect(again.recounted).toEqual(["twin", "gone", "acme"]);
    const text = renderSchemes(again, []);
    expect(text).toContain("An earlier note.");
    expect(text).toContain("with the same settings: twin, gone, acme; every other row is from the full run.");
    expect(renderSchemes(stored, [])).not.toContain("a later run");
  });

  it("judges nothing in a quick run, and names the schemes it sampled", () => {
    const text = renderSchemes({ rows: [row({ tidings: 90_000 })], sample: ["acme"] }, []);
    expect(text).toContain("Quick run (judges nothing): acme.");
    expect(text).not.toContain("Floor target met");
    expect(text).not.toContain("not met");
  });
});

describe("the counting process's clock", () => {
  it("stops Date.now() and new Date() alike, and leaves dates of a given time alone", async () => {
    const { freezeClock } = await import("../../bench/schemes/clock");
    const RealDate = Date;
    try {
      freezeClock(1_700_000_000_000);
      expect(Date.now()).toBe(1_700_000_000_000);
      expect(new Date().toISOString()).toBe("2023-11-14T22:13:20.000Z");
      expect(new Date(0).toISOString()).toBe("1970-01-01T00:00:00.000Z");
      expect(new Date() instanceof RealDate).toBe(true);
    } finally {
      globalThis.Date = RealDate;
    }
  });
});
