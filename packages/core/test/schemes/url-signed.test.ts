import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WebhookVerificationError } from "../../src/entries";
import { hubspot, plivo, type Scheme, slack, square, twilio } from "../../src/entries/schemes";
import { urlSpellings } from "../../src/schemes/twilio";

const NOW = 1_800_000_000;
const at = { now: () => NOW * 1000 };
const NUM_RUNS = 120;
const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** The code a WebhookVerificationError carries; anything else thrown fails the property. */
async function codeOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    expect(error.status).toBe(400);
    return error.code;
  }
}

const word = fc.stringMatching(/^[a-z0-9]{1,12}$/);
// Fields with distinct names (a repeated name's values are a set to Twilio: reordering them changes nothing signed).
const fields = fc.uniqueArray(fc.tuple(fc.string({ minLength: 1 }), fc.string()), {
  selector: ([name]) => name,
  maxLength: 8,
});
const formOf = (list: readonly [string, string][]) => new URLSearchParams(list as [string, string][]).toString();
const urls = fc
  .tuple(fc.array(word, { maxLength: 3 }), fc.array(fc.tuple(word, word), { maxLength: 3 }))
  .map(([path, query]) => {
    const search = query.map(([name, value]) => `${name}=${value}`).join("&");
    return `https://hooks.example.com/${path.join("/")}${search ? `?${search}` : ""}`;
  });

/** The URL signed schemes: their secret, and the bodies they sign (forms, or any bytes). */
const SCHEMES: readonly { scheme: Scheme; secret: string; form: boolean; timed: boolean }[] = [
  { scheme: twilio(), secret: "9f3c1d2e4b5a69788796a5b4c3d2e1f0", form: true, timed: false },
  { scheme: plivo(), secret: "ZWQ5YjM0NjE3NjM3NGI3ZTA1OTE3ZjQ3", form: true, timed: false },
  { scheme: square(), secret: "square signature key", form: false, timed: false },
  { scheme: hubspot(), secret: "8f1c2d3e-4a5b-6c7d-8e9f-0a1b2c3d4e5f", form: false, timed: true },
];

describe.each(SCHEMES.map((entry) => ({ ...entry, name: entry.scheme.name })))("$name", ({ scheme, secret, form }) => {
  const bodies = form
    ? fields.map((list) => new TextEncoder().encode(formOf(list)))
    : fc.uint8Array({ maxLength: 256 });
  const sign = (body: Uint8Array, url: string): Record<string, string> => ({
    ...FORM,
    ...scheme.sign(body, secret, { url, timestamp: NOW }),
  });
  const options = (url: string) => ({ ...at, request: { method: "POST", url } });

  it("verifies every body it signed at every URL, sync and async, with the secret that signed it", async () => {
    await fc.assert(
      fc.asyncProperty(bodies, urls, async (body, url) => {
        const headers = sign(body, url);
        expect(scheme.verify(body, headers, secret, options(url)).secretIndex).toBe(0);
        expect((await scheme.verifyAsync(body, headers, ["other", secret], options(url))).secretIndex).toBe(1);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("refuses the delivery at any other path or query with signature_mismatch", async () => {
    await fc.assert(
      fc.asyncProperty(bodies, urls, word, fc.boolean(), async (body, url, extra, inQuery) => {
        const headers = sign(body, url);
        const moved = inQuery
          ? `${url}${url.includes("?") ? "&" : "?"}${extra}=1`
          : url.replace("hooks.example.com/", `hooks.example.com/${extra}/`);
        expect(await codeOf(() => scheme.verify(body, headers, secret, options(moved)))).toBe("signature_mismatch");
        expect(await codeOf(() => scheme.verifyAsync(body, headers, secret, options(moved)))).toBe(
          "signature_mismatch",
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("refuses any changed field or byte of the body with signature_mismatch", async () => {
    const changes = form
      ? fields
          .filter((list) => list.length > 0)
          .chain((list) =>
            fc
              .tuple(fc.constant(list), fc.nat({ max: list.length - 1 }), fc.string({ minLength: 1 }))
              .map(([original, index, suffix]) => {
                const changed = original.map(([name, value], i) => [name, i === index ? value + suffix : value]);
                return [formOf(original), formOf(changed as [string, string][])] as const;
              }),
          )
      : fc
          .tuple(fc.uint8Array({ minLength: 1, maxLength: 256 }), fc.nat(), fc.integer({ min: 1, max: 255 }))
          .map(([bytes, index, flip]) => {
            const changed = bytes.slice();
            changed[index % bytes.length] = (changed[index % bytes.length] as number) ^ flip;
            return [bytes, changed] as const;
          });
    await fc.assert(
      fc.asyncProperty(changes, urls, async ([original, changed], url) => {
        const headers = sign(typeof original === "string" ? new TextEncoder().encode(original) : original, url);
        expect(await codeOf(() => scheme.verify(changed, headers, secret, options(url)))).toBe("signature_mismatch");
        expect(await codeOf(() => scheme.verifyAsync(changed, headers, secret, options(url)))).toBe(
          "signature_mismatch",
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("answers any value of its signature header with a typed 400, never a crash", async () => {
    const url = "https://hooks.example.com/hooks?a=1";
    const base = sign(new Uint8Array([123, 125]), url);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9+/=,]*$/)), async (value) => {
        const headers = { ...base, [scheme.signatureHeader]: value };
        for (const run of [
          () => scheme.verify("{}", headers, secret, options(url)),
          () => scheme.verifyAsync("{}", headers, secret, options(url)),
        ]) {
          const code = await codeOf(run);
          if (code === undefined) expect(value.split(",")).toContain(base[scheme.signatureHeader]);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("throws a TypeError that says how to give the URL when none is given", () => {
    const headers = sign(new Uint8Array(), "https://hooks.example.com/");
    expect(() => scheme.verify(new Uint8Array(), headers, secret)).toThrow(/publicUrl[\s\S]*options\.request/);
  });
});

describe("slack, form bodies", () => {
  const scheme = slack();
  const secret = "slack signing secret";

  it("verifies any form it signed, and reads it as fields, or as an interaction's payload, or refuses it typed", async () => {
    await fc.assert(
      fc.asyncProperty(fields, fc.option(fc.json()), async (list, payload) => {
        const body = formOf(payload === null ? list : [...list.filter(([n]) => n !== "payload"), ["payload", payload]]);
        const headers = { ...FORM, ...scheme.sign(body, secret, { timestamp: NOW }) };
        expect(scheme.verify(body, headers, secret, at).secretIndex).toBe(0);
        const code = await codeOf(() => scheme.parse?.(new TextEncoder().encode(body), headers));
        expect([undefined, "invalid_payload"]).toContain(code);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("types a command by its name only when it is one, so no field reaches another type's handlers", () => {
    const typeOf = (command: string) => scheme.typeOf({ command }, FORM);
    expect(typeOf("/deploy")).toBe("/deploy");
    expect(typeOf("/déployer")).toBe("/déployer");
    for (const command of ["deploy", "/", "/a b", "/a/b", "app_mention"]) expect(typeOf(command)).toBeUndefined();
  });
});

describe("twilio, the spellings of the URL it tries", () => {
  // How `twilio`'s validateRequest splits a URL, written as a pattern: the spellings Twilio may have signed.
  const reference = (url: string): string[] => {
    const both = (one: string) => {
      const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i.exec(one);
      if (!match) return [one];
      const [prefix, scheme, authority] = match as unknown as [string, string, string];
      const userInfoEnd = authority.lastIndexOf("@");
      const hostAndPort = authority.slice(userInfoEnd + 1);
      const portStart = hostAndPort.indexOf(":", hostAndPort.lastIndexOf("]") + 1);
      const head =
        scheme +
        authority.slice(0, userInfoEnd + 1) +
        (portStart === -1 ? hostAndPort : hostAndPort.slice(0, portStart));
      const port = portStart === -1 ? "" : hostAndPort.slice(portStart);
      const rest = one.slice(prefix.length);
      return [head + rest, head + (port || (scheme.toLowerCase() === "https://" ? ":443" : ":80")) + rest];
    };
    let normalised: string | undefined;
    try {
      normalised = new URL(url).href;
    } catch {
      normalised = undefined;
    }
    const all = [...both(url), ...(normalised === undefined || normalised === url ? [] : both(normalised))];
    return all.filter((spelling, index) => all.indexOf(spelling) === index);
  };
  const piece = fc.constantFrom(
    ..."https HTTPS http Http h2+x.y-z 1http :// :/ @ [ ] : :443 :80 :8443 / ? # . - + a 1 é %20".split(" "),
    "hooks.example.com",
    "[::1]",
    "user:pa:ss@",
    " ",
  );
  const urls = fc.oneof(
    fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join("")),
    fc
      .tuple(fc.constantFrom("https://", "HTTP://", "ftp://"), fc.array(piece, { maxLength: 8 }))
      .map(([scheme, pieces]) => scheme + pieces.join("")),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
  );

  it("are those validateRequest tries, in its order, the first one without a generator", () => {
    fc.assert(
      fc.property(urls, (url) => {
        expect(urlSpellings(url)).toEqual(reference(url));
      }),
      { numRuns: 5000 },
    );
  });
});
