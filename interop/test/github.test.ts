import { sign, verify } from "@octokit/webhooks-methods";
import { github } from "@tidings/core/schemes";
import { accepted } from "./accepted";
import { describeSender } from "./harness";

describeSender("GitHub", {
  scheme: github(),
  secret: "It's a Secret to Everybody",
  otherSecret: "a rotated github secret",
  body: JSON.stringify({ action: "opened", issue: { number: 1, title: "héllo ✓" } }),
  type: "issues.opened",
  timed: false,
  async sign(body, secret) {
    return { "x-hub-signature-256": await sign(secret, body), "x-github-event": "issues" };
  },
  accepts: (body, headers, secret) => accepted(() => verify(secret, body, headers["x-hub-signature-256"] ?? "")),
});
