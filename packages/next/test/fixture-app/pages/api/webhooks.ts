import { createPagesHandler } from "@tidings/next";
import { fixtureReceiver } from "../../lib/receiver";

export default createPagesHandler(fixtureReceiver());
export const config = { api: { bodyParser: false } };
