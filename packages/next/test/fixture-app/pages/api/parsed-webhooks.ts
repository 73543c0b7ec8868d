import { createPagesHandler } from "@tidings/next";
import { fixtureReceiver } from "../../lib/receiver";

// No `config`: Next.js's body parser runs first, which the handler must explain instead of hanging.
export default createPagesHandler(fixtureReceiver());
