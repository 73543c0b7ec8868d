import { json, type SenderSample } from "./sample";

/** A `list_folder` notification as Dropbox sends it: which accounts changed, nothing else (no id, no time). */
export const dropbox: SenderSample = () =>
  json({
    list_folder: { accounts: ["dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc"] },
    delta: { users: [12345678] },
  });
