export { webhookMiddleware } from "./middleware";
