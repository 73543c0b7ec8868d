import { describeConformance } from "./suite";
import { fastifyInjectTarget, fastifyListeningTarget } from "./targets/fastify";

describeConformance(fastifyInjectTarget);
describeConformance(fastifyListeningTarget);
