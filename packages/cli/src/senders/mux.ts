import { iso, json, type SenderSample } from "./sample";

/** A `video.asset.ready` event as Mux sends it (trimmed); its `id` is `id`, the dedup key. */
export const mux: SenderSample = (id, now) =>
  json({
    type: "video.asset.ready",
    object: { type: "asset", id: "0201p02fGKPE7MrbC269XRD7LpcHhrmbu0002" },
    id,
    environment: { name: "Production", id: "j0863n" },
    data: {
      id: "0201p02fGKPE7MrbC269XRD7LpcHhrmbu0002",
      status: "ready",
      duration: 23.857167,
      aspect_ratio: "16:9",
      playback_ids: [{ id: "Ql1UT01VZ01mSvDkBPZ02d5Ppk7T013QUEtj", policy: "public" }],
      created_at: now,
    },
    created_at: iso(now),
    attempts: [],
    accessor_source: null,
    accessor: null,
    request_id: null,
  });
