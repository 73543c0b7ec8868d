import type { ConformanceTarget } from "../target";
import { expressTarget } from "./express";
import { fastifyInjectTarget, fastifyListeningTarget } from "./fastify";
import { honoTarget } from "./hono";
import { koaTarget } from "./koa";
import { nestExpressTarget, nestFastifyTarget } from "./nestjs";
import { nextAppTarget, nextPagesTarget } from "./next";

/** Every adapter behind a real app: for suites that run the same cases against all of them. */
export const ALL_TARGETS: readonly ConformanceTarget[] = [
  expressTarget,
  fastifyInjectTarget,
  fastifyListeningTarget,
  koaTarget,
  honoTarget,
  nextAppTarget,
  nextPagesTarget,
  nestExpressTarget,
  nestFastifyTarget,
];

/** The adapters whose bodies core reads off a real socket (no injected requests, no App Router's own reading). */
export const SOCKET_TARGETS: readonly ConformanceTarget[] = [
  expressTarget,
  fastifyListeningTarget,
  koaTarget,
  honoTarget,
  nextPagesTarget,
  nestExpressTarget,
  nestFastifyTarget,
];
