import { describeConformance } from "./suite";
import { honoTarget } from "./targets/hono";

describeConformance(honoTarget);
