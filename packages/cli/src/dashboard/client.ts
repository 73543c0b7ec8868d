import type { ChaosSettings } from "../emulator/chaos";
import type { AttemptRecord, EventRecord, MessageRecord } from "../emulator/journal";

/**
 * The dashboard's script. It runs in the browser: the page embeds `(${dashboardClient})()`, so this function may use
 * nothing from outside its own body but types. The server's state arrives over Server-Sent Events at /api/stream.
 */
export function dashboardClient(): void {
  interface Controls {
    paused: boolean;
    chaos: ChaosSettings;
  }
  interface Snapshot extends Controls {
    apiUrl: string;
    webhookUrl: string;
    types: string[];
    messages: MessageRecord[];
  }

  const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;
  const list = $<HTMLElement>("#messages");
  const status = $<HTMLElement>("#status");
  const pause = $<HTMLButtonElement>("#pause");
  const chaosForm = $<HTMLFormElement>("#chaos");
  const testForm = $<HTMLFormElement>("#test-event");
  const html = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  const time = (iso: string) =>
    new Date(iso).toLocaleTimeString([], {
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      fractionalSecondDigits: 3,
      hour12: false,
    });

  function outcome(attempt: AttemptRecord): string {
    if (attempt.status === undefined) return `<span class="bad">${html(attempt.error ?? "no answer")}</span>`;
    const ok = attempt.status >= 200 && attempt.status < 300;
    return `<span class="${ok ? "ok" : "bad"}">${attempt.status}</span>`;
  }

  function renderEvent(message: MessageRecord, event: EventRecord): string {
    const rows = event.attempts
      .map(
        (attempt, i) => `<tr>
          <td>${i + 1}${attempt.extra ? ` <span class="tag">${attempt.extra}</span>` : ""}</td>
          <td>${time(attempt.at)}</td><td>${outcome(attempt)}</td><td>${attempt.latencyMs.toFixed(1)} ms</td>
          <td class="mono clip" title="${html(attempt.responseStart)}">${html(attempt.responseStart)}</td>
          <td class="mono clip" title="${html(attempt.signature)}">${html(attempt.signature)}</td></tr>`,
      )
      .join("");
    return `<section class="event" data-event="${html(event.id)}">
      <header><strong>${html(event.type)}</strong> <span class="state ${html(event.state)}">${html(event.state)}</span>
        <span class="mono dim">${html(event.id)}</span>
        <button type="button" class="resend" data-message="${html(message.id)}" data-event="${html(event.id)}"
          aria-label="Resend ${html(event.type)} of ${html(message.id)}">Resend</button></header>
      ${rows ? `<table><thead><tr><th>#</th><th>time</th><th>status</th><th>latency</th><th>response</th><th>signature</th></tr></thead><tbody>${rows}</tbody></table>` : '<p class="dim">no attempt yet</p>'}
    </section>`;
  }

  function renderMessage(message: MessageRecord): HTMLElement {
    const article = document.createElement("article");
    article.className = "message";
    article.id = `message-${message.id}`;
    article.innerHTML = `<h2><span class="mono">${html(message.id)}</span> <span class="tag">${html(message.channel)}</span>
      ${message.origin === "test" ? '<span class="tag">test event</span>' : ""}
      <span class="dim">${time(message.createdAt)}</span></h2>
      ${message.chaos === "none" ? "" : `<p class="chaos">chaos: ${html(message.chaos)}</p>`}
      ${message.events.map((event) => renderEvent(message, event)).join("")}`;
    return article;
  }

  /** Replaces the message's card (or adds it on top), keeping keyboard focus on the same button. */
  function upsert(message: MessageRecord): void {
    const card = renderMessage(message);
    const old = document.getElementById(card.id);
    const focused = document.activeElement as HTMLElement | null;
    const refocus = old?.contains(focused) ? focused?.dataset.event : undefined;
    if (old) old.replaceWith(card);
    else list.prepend(card);
    if (refocus) card.querySelector<HTMLElement>(`button[data-event="${refocus}"]`)?.focus();
    $<HTMLElement>("#empty").hidden = true;
  }

  function showControls(controls: Controls): void {
    pause.textContent = controls.paused ? "Resume deliveries" : "Pause deliveries";
    pause.setAttribute("aria-pressed", String(controls.paused));
    document.body.classList.toggle("paused", controls.paused);
    const field = (name: string) => chaosForm.elements.namedItem(name) as HTMLInputElement;
    if (chaosForm.contains(document.activeElement)) return;
    field("duplicates").value = String(controls.chaos.duplicates);
    field("reorder").value = String(controls.chaos.reorder);
    field("delayMin").value = String(controls.chaos.delayMs[0]);
    field("delayMax").value = String(controls.chaos.delayMs[1]);
    field("clockSkewS").value = String(controls.chaos.clockSkewS);
    field("seed").value = String(controls.chaos.seed);
  }

  async function call(method: string, path: string, body: unknown = {}): Promise<void> {
    const response = await fetch(path, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { error?: { message: string } };
    status.textContent = answer.error ? `Refused: ${answer.error.message}` : "Done.";
  }

  const stream = new EventSource("/api/stream");
  stream.addEventListener("snapshot", (message) => {
    const snapshot = JSON.parse(message.data) as Snapshot;
    $<HTMLElement>("#api-url").textContent = `${snapshot.apiUrl}/v3/messages`;
    $<HTMLElement>("#webhook-url").textContent = snapshot.webhookUrl;
    const select = testForm.elements.namedItem("type") as HTMLSelectElement;
    select.innerHTML = snapshot.types.map((type) => `<option>${html(type)}</option>`).join("");
    list.replaceChildren();
    for (const item of snapshot.messages) upsert(item);
    showControls(snapshot);
    status.textContent = "Connected: updates arrive live.";
  });
  stream.addEventListener("message", (message) => upsert(JSON.parse(message.data) as MessageRecord));
  stream.addEventListener("controls", (message) => showControls(JSON.parse(message.data) as Controls));
  stream.addEventListener("error", () => {
    status.textContent = "Disconnected from the emulator; reconnecting…";
  });

  pause.addEventListener("click", () =>
    call("POST", pause.getAttribute("aria-pressed") === "true" ? "/api/resume" : "/api/pause"),
  );
  list.addEventListener("click", (click) => {
    const button = (click.target as HTMLElement).closest<HTMLButtonElement>("button.resend");
    if (button) void call("POST", `/api/messages/${button.dataset.message}/events/${button.dataset.event}/resend`);
  });
  testForm.addEventListener("submit", (submit) => {
    submit.preventDefault();
    void call("POST", "/api/test-events", { type: (testForm.elements.namedItem("type") as HTMLSelectElement).value });
  });
  chaosForm.addEventListener("submit", (submit) => {
    submit.preventDefault();
    const number = (name: string) => Number((chaosForm.elements.namedItem(name) as HTMLInputElement).value);
    void call("PUT", "/api/chaos", {
      duplicates: number("duplicates"),
      reorder: number("reorder"),
      delayMs: [number("delayMin"), number("delayMax")],
      clockSkewS: number("clockSkewS"),
      seed: number("seed"),
    });
  });
}
