import { gzipSync } from "node:zlib";

export interface HostileCase {
  name: string;
  /** What makes it costly, for the report. */
  what: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

const BAD_SIGNATURE = `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`;

function wireSize({ headers, body }: Pick<HostileCase, "headers" | "body">): number {
  return body.byteLength + Object.entries(headers).reduce((sum, [name, value]) => sum + name.length + value.length, 0);
}

/** An unsigned JSON delivery padded to `bytes` on the wire: what the hostile requests are compared with. */
export function plainOfSize(bytes: number): HostileCase {
  const headers = { "content-type": "application/json", "service-signature": BAD_SIGNATURE };
  const overhead = wireSize({ headers, body: new Uint8Array() }) + '{"type":"message.sent","pad":""}'.length;
  const body = new TextEncoder().encode(JSON.stringify({ type: "message.sent", pad: "x".repeat(bytes - overhead) }));
  return { name: "plain", what: "unsigned JSON body of the same wire size", headers, body };
}

const zeros = new Uint8Array(64 * 1024 * 1024);

/** The worst unsigned requests we know of; each is refused before any handler, the question is at what cost. */
export function hostileCases(): HostileCase[] {
  const headers = { "content-type": "application/json", "service-signature": BAD_SIGNATURE };
  const bomb = new Uint8Array(gzipSync(zeros, { level: 9 }));
  const pairs = Array.from({ length: 31 }, (_, n) => `v1=${n.toString(16).padStart(64, "0")}`).join(",");
  return [
    {
      name: "stacked codings",
      what: "12 KB of `gzip, gzip, …` in Content-Encoding over a 4 KB body",
      headers: { ...headers, "content-encoding": Array.from({ length: 2000 }, () => "gzip").join(", ") },
      body: new Uint8Array(gzipSync(new Uint8Array(4096))),
    },
    {
      name: "gzip bomb",
      what: `${(bomb.byteLength / 1024).toFixed(0)} KB of gzip that would inflate to 64 MiB`,
      headers: { ...headers, "content-encoding": "gzip" },
      body: bomb,
    },
    {
      name: "double bomb",
      what: "the bomb gzipped again, `gzip, gzip`",
      headers: { ...headers, "content-encoding": "gzip, gzip" },
      body: new Uint8Array(gzipSync(bomb, { level: 9 })),
    },
    {
      name: "huge header",
      what: "31 wrong `v1` values (the most a header may carry) over a 1 KB body",
      headers: { ...headers, "service-signature": `t=${Math.floor(Date.now() / 1000)},${pairs}` },
      body: new TextEncoder().encode(JSON.stringify({ type: "message.sent", pad: "x".repeat(1000) })),
    },
  ];
}

export { wireSize };
