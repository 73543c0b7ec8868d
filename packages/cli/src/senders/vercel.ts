import { json, type SenderSample } from "./sample";

/** A `deployment.succeeded` event as Vercel sends it (trimmed); its `id` is `id`, the dedup key. */
export const vercel: SenderSample = (id, now) =>
  json({
    id,
    type: "deployment.succeeded",
    createdAt: now * 1000,
    region: "sfo1",
    payload: {
      team: { id: "team_jkT8yZ3oE1u6xLo8h6dxfNc3" },
      user: { id: "2hSZEgMaRuL6WgFbmH1ERQNy" },
      deployment: {
        id: "dpl_2qbQuQfRcXVWoGnVVGiZ6TnEP9Jm",
        name: "my-app",
        url: "my-app-git-main-acme.vercel.app",
        meta: { githubCommitRef: "main" },
      },
      project: { id: "prj_12HKQaOmR5t5Uy6vdcQsNIiZgHGB" },
      target: "production",
      links: {
        deployment: "https://vercel.com/acme/my-app/2qbQuQfRcXVWoGnVVGiZ6TnEP9Jm",
        project: "https://vercel.com/acme/my-app",
      },
    },
  });
