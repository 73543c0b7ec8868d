import { createRouteHandler } from "@tidings/next";
import { urlEchoReceiver } from "../../../../../../test/support/url-echo";

// Answers a GET with the URL a URL-signing scheme would be given, exported for GET as the README says.
const handle = createRouteHandler(urlEchoReceiver());

export { handle as GET, handle as POST };
