import { packageTests } from "../config/vitest";

export default packageTests("interop");
