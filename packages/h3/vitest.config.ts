import { packageTests } from "../../config/vitest";

export default packageTests("h3");
