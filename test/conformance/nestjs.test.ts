import { describeConformance } from "./suite";
import { nestExpressTarget, nestFastifyTarget } from "./targets/nestjs";

describeConformance(nestExpressTarget);
describeConformance(nestFastifyTarget);
