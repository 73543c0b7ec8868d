import { describeConformance } from "./suite";
import { nextAppTarget, nextPagesTarget } from "./targets/next";

describeConformance(nextAppTarget);
describeConformance(nextPagesTarget);
