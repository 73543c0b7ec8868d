import { describeConformance } from "./suite";
import { expressTarget } from "./targets/express";

describeConformance(expressTarget);
