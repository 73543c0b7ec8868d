import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator, TEST_KEY_PREFIX } from "../src/index";
import { SECRET, startReceiver, type TestReceiver } from "./helpers";

// Debian's chromium package (installed by .ci/run), driven over CDP by playwright-core: no downloaded browser.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/** Set to a file path to save a screenshot of the page at the end (`npm run screenshot`). */
const SCREENSHOT = process.env.TIDINGS_DASHBOARD_SCREENSHOT;

let profile: string;
let browser: BrowserContext;
let page: Page;
let receiver: TestReceiver;
let emulator: Emulator;

beforeAll(async () => {
  receiver = await startReceiver();
  // Quick retries, more of them than a test can wait through (1,000 × 150 ms): an outage lasts as long as the
  // test holds it, however slow the machine, and no event is abandoned while it does.
  emulator = await startEmulator({
    webhookUrl: receiver.url,
    secret: SECRET,
    log: false,
    dashboard: true,
    retry: { attempts: 1_000, baseDelayMs: 150, factor: 1 },
  });
  profile = await mkdtemp(join(tmpdir(), "tidings-chromium-"));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 860 },
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  await page.goto(emulator.dashboardUrl as string);
  await page.getByRole("status").filter({ hasText: "Connected" }).waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await emulator?.close();
  await receiver?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

async function createMessage(to = "+15551234567"): Promise<string> {
  const response = await fetch(`${emulator.url}/v3/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_KEY_PREFIX}browser` },
    body: new URLSearchParams({ channel: "sms", to, body: "Your code is 123456" }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

const card = (id: string) => page.locator(`[id="message-${id}"]`);
const eventOf = (id: string, type: string) => card(id).locator(".event", { hasText: type });
const attempts = (id: string, type: string) => eventOf(id, type).locator("tbody tr");

describe("the dashboard in Chromium", () => {
  it("shows a message created through the API with its deliveries, live", async () => {
    const id = await createMessage();
    for (const type of ["message.queued", "message.sent", "message.delivered"]) {
      await attempts(id, type).filter({ hasText: "200" }).first().waitFor();
      await eventOf(id, type)
        .locator(".state", { hasText: /^delivered$/ })
        .waitFor();
      expect(await eventOf(id, type).locator(".state").textContent()).toBe("delivered");
    }
    const row = attempts(id, "message.delivered").first();
    expect(await row.locator("td").nth(4).textContent()).toContain('"received":true');
    expect(await row.locator("td").nth(5).textContent()).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it("resends one delivery on a click, and shows the new attempt", async () => {
    const id = await createMessage();
    await eventOf(id, "message.delivered").locator(".state", { hasText: "delivered" }).waitFor();
    await eventOf(id, "message.sent")
      .getByRole("button", { name: /Resend message\.sent/ })
      .click();
    await attempts(id, "message.sent").nth(1).filter({ hasText: "resend" }).waitFor();
    expect(await attempts(id, "message.sent").nth(1).textContent()).toContain("200");
    expect(receiver.events.filter((event) => event.data.id === id)).toHaveLength(3);
  });

  it("pauses from the keyboard: attempts fail while paused and are retried after resume", async () => {
    const pause = page.getByRole("button", { name: "Pause deliveries" });
    // After a reload (the snapshot rebuilds the page), the first Tab reaches the pause button.
    await page.reload();
    await page.getByRole("status").filter({ hasText: "Connected" }).waitFor();
    await page.keyboard.press("Tab");
    expect(await pause.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Resume deliveries", pressed: true }).waitFor();
    const id = await createMessage();
    await attempts(id, "message.queued").nth(1).filter({ hasText: "paused" }).waitFor();
    expect(receiver.events.filter((event) => event.data.id === id)).toEqual([]);
    await page.getByRole("button", { name: "Resume deliveries" }).click();
    for (const type of ["message.queued", "message.sent", "message.delivered"]) {
      await eventOf(id, type).locator(".state", { hasText: "delivered" }).waitFor();
    }
    expect(await attempts(id, "message.queued").last().textContent()).toContain("200");
    expect(receiver.events.filter((event) => event.data.id === id)).toHaveLength(3);
  });

  it("sends a test event of a chosen type, and applies new chaos settings", async () => {
    await page.getByLabel("Event type").selectOption("message.failed");
    await page.getByRole("button", { name: "Send test event" }).click();
    const testCard = page.locator("article.message", { hasText: "test event" }).first();
    await testCard
      .locator(".event", { hasText: "message.failed" })
      .locator(".state", { hasText: "delivered" })
      .waitFor();
    expect(receiver.events.at(-1)).toMatchObject({ type: "message.failed", data: { status: "failed" } });

    await page.getByLabel("Duplicates (0–1)").fill("1");
    await page.getByRole("button", { name: "Apply chaos" }).click();
    await page.getByRole("status").filter({ hasText: "Done." }).waitFor();
    expect(emulator.chaos.duplicates).toBe(1);
    const id = await createMessage();
    await card(id).getByText("chaos: twice: queued, sent, delivered").waitFor();
    await attempts(id, "message.delivered").filter({ hasText: "duplicate" }).waitFor();
    if (SCREENSHOT) await page.screenshot({ path: SCREENSHOT, fullPage: false });
  });
});
