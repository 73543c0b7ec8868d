import { createPagesHandler } from "@tidings/next";
import { urlEchoReceiver } from "../../../../../../test/support/url-echo";

// Answers a GET with the URL a URL-signing scheme would be given.
export default createPagesHandler(urlEchoReceiver());
export const config = { api: { bodyParser: false } };
