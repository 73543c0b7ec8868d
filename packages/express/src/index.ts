export { webhookMiddleware } from "./middleware";
export { captureRawBody } from "./raw-body";
