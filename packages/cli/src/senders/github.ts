import { json, type SenderSample } from "./sample";

/**
 * An `issues` event, action `opened`, as GitHub sends it (trimmed to the fields handlers read first). GitHub signs no
 * id: each delivery's issue is a new one, so that two sent deliveries are two events.
 */
export const github: SenderSample = (id) =>
  json(
    {
      action: "opened",
      issue: {
        id: Number.parseInt(id.slice(-8), 16),
        number: Number.parseInt(id.slice(-4), 16),
        title: "Found a bug",
        state: "open",
        body: "It crashes on start.",
        user: { login: "octocat", id: 1 },
      },
      repository: { id: 1296269, name: "Hello-World", full_name: "octocat/Hello-World", private: false },
      sender: { login: "octocat", id: 1 },
    },
    { "x-github-event": "issues", "x-github-delivery": id, "x-github-hook-id": "292430182" },
  );
