export type { LambdaHttpEvent, LambdaHttpResult } from "./events";
export { createLambdaHandler, type LambdaHttpHandler } from "./handler";
