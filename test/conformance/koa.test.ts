import { describeConformance } from "./suite";
import { koaTarget } from "./targets/koa";

describeConformance(koaTarget);
