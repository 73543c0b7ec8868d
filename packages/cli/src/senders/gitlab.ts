import { json, type SenderSample } from "./sample";

/**
 * A merge request opened, as GitLab sends it (trimmed); its `sign` writes `id` as `X-Gitlab-Event-UUID`, the dedup key.
 */
export const gitlab: SenderSample = (id) =>
  json(
    {
      object_kind: "merge_request",
      event_type: "merge_request",
      user: { id: 1, name: "Administrator", username: "root" },
      project: { id: 1, name: "Gitlab Test", path_with_namespace: "gitlabhq/gitlab-test" },
      object_attributes: {
        id: 99,
        iid: 1,
        title: "MS-Viewport",
        state: "opened",
        action: "open",
        source_branch: "ms-viewport",
        target_branch: "master",
        url: "https://gitlab.example.com/gitlabhq/gitlab-test/-/merge_requests/1",
      },
      labels: [],
      repository: { name: "Gitlab Test", homepage: "https://gitlab.example.com/gitlabhq/gitlab-test" },
    },
    {
      "x-gitlab-event": "Merge Request Hook",
      "x-gitlab-webhook-uuid": "8f3a9bd5-20c0-4a1a-8a2a-ee3b8f6f1c2b",
      "x-gitlab-instance": "https://gitlab.example.com",
      "idempotency-key": id,
    },
  );
