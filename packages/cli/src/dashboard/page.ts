import { dashboardClient } from "./client";

const STYLE = `
:root { color-scheme: light dark; --fg: #1d232b; --dim: #6b7480; --bg: #f6f7f9; --card: #fff; --line: #dde1e6;
  --ok: #137a3a; --bad: #b42318; --accent: #2457c5; font: 14px/1.45 system-ui, sans-serif; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ed; --dim: #9aa3ad; --bg: #14171b; --card: #1d2127;
  --line: #2f353d; --ok: #4cc47a; --bad: #ff7b6b; --accent: #7aa5ff; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
header.top { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: baseline; padding: 1rem 1.5rem;
  border-bottom: 1px solid var(--line); background: var(--card); }
header.top h1 { margin: 0; font-size: 1.15rem; }
header.top p { margin: 0; color: var(--dim); }
main { display: grid; grid-template-columns: minmax(16rem, 20rem) 1fr; gap: 1.5rem; padding: 1.5rem; }
@media (max-width: 50rem) { main { grid-template-columns: 1fr; } }
aside { display: flex; flex-direction: column; gap: 1rem; }
fieldset, .message { background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
fieldset { margin: 0; padding: 0.75rem 1rem 1rem; display: grid; gap: 0.5rem; }
legend { font-weight: 600; padding: 0 0.25rem; }
label { display: grid; grid-template-columns: 1fr 8rem; align-items: center; gap: 0.5rem; }
label.wide { grid-template-columns: auto 1fr; }
input, select, button { font: inherit; color: inherit; }
input, select { padding: 0.25rem 0.4rem; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); }
button { cursor: pointer; padding: 0.3rem 0.75rem; border-radius: 4px; border: 1px solid var(--accent);
  background: var(--card); color: var(--accent); }
button:hover { background: var(--accent); color: var(--card); }
button[aria-pressed="true"] { background: var(--bad); border-color: var(--bad); color: #fff; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
#status { min-height: 1.4em; color: var(--dim); margin: 0; }
body.paused header.top::after { content: "Deliveries paused: every attempt fails (an outage)"; color: var(--bad);
  font-weight: 600; }
main > section { min-width: 0; }
#messages { display: flex; flex-direction: column; gap: 1rem; min-width: 0; }
.message { padding: 0.75rem 1rem; }
.message h2 { font-size: 1rem; margin: 0 0 0.5rem; display: flex; gap: 0.5rem; align-items: baseline; flex-wrap: wrap; }
.event { border-top: 1px solid var(--line); padding: 0.5rem 0; }
.event header { display: flex; gap: 0.6rem; align-items: baseline; flex-wrap: wrap; }
.event header button { margin-left: auto; padding: 0.1rem 0.6rem; }
table { width: 100%; border-collapse: collapse; margin-top: 0.4rem; table-layout: fixed; font-size: 0.85rem; }
th, td { text-align: left; padding: 0.2rem 0.4rem; border-bottom: 1px solid var(--line); }
th { color: var(--dim); font-weight: 500; }
th:nth-child(1) { width: 5.5rem; } th:nth-child(2) { width: 7.5rem; } th:nth-child(3) { width: 6.5rem; }
th:nth-child(4) { width: 6rem; }
.mono { font-family: ui-monospace, monospace; font-size: 0.85em; }
.clip { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.dim { color: var(--dim); }
.ok { color: var(--ok); font-weight: 600; } .bad { color: var(--bad); font-weight: 600; }
.tag { font-size: 0.75rem; padding: 0 0.4rem; border-radius: 999px; border: 1px solid var(--line); color: var(--dim); }
.state { font-size: 0.8rem; } .state.delivered { color: var(--ok); } .state.abandoned { color: var(--bad); }
.chaos { margin: 0 0 0.4rem; color: var(--dim); font-size: 0.85rem; }
`;

/** The whole dashboard: one HTML document with its style and script inline (no build step, no framework). */
export function renderPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tidings emulator</title>
<style>${STYLE}</style>
</head>
<body>
<header class="top">
  <h1>tidings emulator</h1>
  <p>API <span class="mono" id="api-url"></span></p>
  <p>events to <span class="mono" id="webhook-url"></span></p>
</header>
<main>
  <aside>
    <fieldset>
      <legend>Deliveries</legend>
      <button type="button" id="pause" aria-pressed="false">Pause deliveries</button>
      <p id="status" role="status" aria-live="polite">Connecting…</p>
    </fieldset>
    <form id="test-event">
      <fieldset>
        <legend>Send a test event</legend>
        <label class="wide">Type <select name="type" aria-label="Event type"></select></label>
        <button type="submit">Send test event</button>
      </fieldset>
    </form>
    <form id="chaos">
      <fieldset>
        <legend>Chaos (new messages)</legend>
        <label>Duplicates (0–1) <input name="duplicates" type="number" min="0" max="1" step="0.05" required></label>
        <label>Reorder (0–1) <input name="reorder" type="number" min="0" max="1" step="0.05" required></label>
        <label>Delay min (ms) <input name="delayMin" type="number" min="0" step="1" required></label>
        <label>Delay max (ms) <input name="delayMax" type="number" min="0" step="1" required></label>
        <label>Clock skew (± s) <input name="clockSkewS" type="number" min="0" step="1" required></label>
        <label>Seed <input name="seed" type="number" min="0" step="1" required></label>
        <button type="submit">Apply chaos</button>
      </fieldset>
    </form>
  </aside>
  <section aria-label="Messages, newest first">
    <p id="empty" class="dim">No message yet: POST one to the API above, or send a test event.</p>
    <div id="messages"></div>
  </section>
</main>
<script>(${dashboardClient.toString()})();</script>
</body>
</html>`;
}
