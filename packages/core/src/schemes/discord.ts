import { hexToBytes } from "../crypto/hex";
import { publicKeyMatchers } from "../crypto/public-key";
import type { SecretKind } from "../crypto/secret-kind";
import type { DeliveryEvent } from "../event";
import type { EventMap } from "../event-map";
import { answer } from "./answer";
import { defineScheme } from "./define";
import { ed25519Format, ed25519PublicRaw, ed25519SignRaw } from "./ed25519";
import { noSignature, requiredHeader, timestampOf } from "./headers";
import { nonEmptyString } from "./payload-fields";
import type { Scheme } from "./scheme";
import { signingBytes, signingTime } from "./sign-helpers";

const HEADER = "x-signature-ed25519";
const DISPLAY = "X-Signature-Ed25519";
const TIMESTAMP = "x-signature-timestamp";
const TIMESTAMP_DISPLAY = "X-Signature-Timestamp";
const HEX = /^[0-9a-fA-F]+$/;
// A `+` loop with the length checked apart: V8 runs it in about half the instructions of `{128}`.
const LOWER_HEX = /^[0-9a-f]+$/;
// Discord's rule for command names: letters, digits, marks, `-` and `_`, never a dot.
const COMMAND_NAME = /^[-_\p{L}\p{N}\p{M}]{1,32}$/u;
// Interaction types, as discord-interactions' InteractionType names them.
const TYPES: Readonly<Record<number, string>> = {
  1: "ping",
  2: "application_command",
  3: "message_component",
  4: "application_command_autocomplete",
  5: "modal_submit",
};

const isHex = (text: string, length: number) => text.length === length && HEX.test(text);

/** The application's public key: 64 hex characters, as the Developer Portal shows it. */
const DISCORD_KEY = /* @__PURE__ */ ed25519Format(
  (secret) => (isHex(secret, 64) ? hexToBytes(secret) : undefined),
  "hex",
);
const MATCHERS = /* @__PURE__ */ publicKeyMatchers(DISCORD_KEY);

function discordSecretKind(secret: string): SecretKind {
  if (isHex(secret, 128)) {
    throw new TypeError("A 128-hex Discord key is a private key: give the receiver the application's public key");
  }
  if (!isHex(secret, 64)) {
    throw new TypeError("A Discord public key is 64 hex characters (Developer Portal, General Information)");
  }
  return "ed25519";
}

/**
 * `application_command.<name>` and `application_command_autocomplete.<name>` for commands (a handler for
 * `application_command` gets every command), `message_component`, `modal_submit`; `interaction.<n>` for a type
 * Discord adds later.
 */
function discordType(event: DeliveryEvent): string | undefined {
  const type = event.type;
  if (typeof type !== "number" || !Number.isSafeInteger(type) || type < 0) return undefined;
  const base = TYPES[type] ?? `interaction.${type}`;
  const name = (event.data as { name?: unknown } | null | undefined)?.name;
  return (type === 2 || type === 4) && typeof name === "string" && COMMAND_NAME.test(name) ? `${base}.${name}` : base;
}

/**
 * Discord interactions (discord.com/developers/docs/interactions/overview, "Security and Authorization"):
 * `X-Signature-Ed25519: <hex ed25519 signature of X-Signature-Timestamp + body>`, verified with the application's
 * public key (64 hex characters). `sign` takes the private key as 128 hex characters (seed and public key, as
 * libsodium and tweetnacl write it).
 */
export const DISCORD: Scheme = /* @__PURE__ */ defineScheme({
  name: "discord",
  signatureHeader: HEADER,
  about: {
    sender: "Discord (interactions)",
    docs: "https://discord.com/developers/docs/interactions/overview#setting-up-an-endpoint-validating-security-request-headers",
    headers: [HEADER, TIMESTAMP],
    signs: "ed25519 of `<X-Signature-Timestamp><body>`, hex",
    secret: "the application's public key, 64 hex characters; a private key or an HMAC secret is refused",
    replay: "5 minutes (Discord documents none), from `X-Signature-Timestamp`",
    dedup: { key: "the interaction's `id`", signed: true },
    handshake: 'PING (`type: 1`): answered `{"type":1}` once verified',
    testedAgainst: "`discord-interactions` 4 (`verifyKey`), with key pairs generated in the test: both directions",
  },
  read(payload, headers, secrets, toleranceSeconds) {
    const hex = requiredHeader(headers, HEADER, DISPLAY);
    const timestampText = requiredHeader(headers, TIMESTAMP, TIMESTAMP_DISPLAY);
    const timestamp = timestampOf(timestampText, TIMESTAMP_DISPLAY);
    if (hex.length !== 128 || !LOWER_HEX.test(hex)) throw noSignature(DISPLAY, "ed25519 signature (128 lowercase hex)");
    const content = { prefix: timestampText, payload, signatures: [hex], label: "ed25519", matchers: MATCHERS };
    return { content, secrets, timestamp, toleranceSeconds };
  },
  secretKind: discordSecretKind,
  typeOf: discordType,
  idOf: (event) => nonEmptyString(event.id),
  respond: (event) => (event.type === 1 ? answer('{"type":1}') : undefined),
  sign(payload, secret, options) {
    const bytes = signingBytes(payload, secret);
    const timestamp = String(signingTime(options?.timestamp));
    if (!isHex(secret, 128)) throw new TypeError("Discord's sign takes the private key, 128 hex characters");
    const signed = Buffer.concat([Buffer.from(timestamp), bytes]);
    return {
      [HEADER]: ed25519SignRaw(hexToBytes(secret.slice(0, 64).toLowerCase()), signed).toString("hex"),
      [TIMESTAMP]: timestamp,
    };
  },
});

/**
 * The public key (64 hex characters) of a Discord private key (128 hex: seed and public key), for tests: the
 * receiver holds the public key, `sign` the private one.
 *
 * @example
 * ```ts
 * import { randomBytes } from "node:crypto";
 * import { discord, discordPublicKey } from "@tidings/core/schemes";
 *
 * const seed = randomBytes(32).toString("hex");
 * const privateKey = seed + discordPublicKey(seed);
 * const body = JSON.stringify({ id: "1", type: 2, data: { name: "ping" } });
 * console.log(discord().verify(body, discord().sign(body, privateKey), discordPublicKey(privateKey)));
 * ```
 */
export function discordPublicKey(privateKey: string): string {
  if (!isHex(privateKey, 64) && !isHex(privateKey, 128)) {
    throw new TypeError("A Discord private key is 64 (seed) or 128 hex characters");
  }
  return ed25519PublicRaw(hexToBytes(privateKey.slice(0, 64).toLowerCase())).toString("hex");
}

/**
 * Discord's interactions scheme: typed by interaction (`application_command.<name>`, `message_component`,
 * `modal_submit`…), PING answered by the scheme.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { discord } from "@tidings/core/schemes";
 *
 * type Command = { id: string; type: 2; data: { name: string }; member?: { user: { username: string } } };
 * type Events = { application_command: Command; "application_command.ping": Command };
 *
 * export const receiver = createReceiver({
 *   scheme: discord<Events>(),
 *   secret: process.env.DISCORD_PUBLIC_KEY!, // the application's public key, 64 hex characters
 * }).on("application_command.ping", (interaction) => console.log("ping from", interaction.member?.user.username));
 * ```
 */
export function discord<Events extends EventMap = EventMap>(): Scheme<Events> {
  return DISCORD as Scheme<Events>;
}
