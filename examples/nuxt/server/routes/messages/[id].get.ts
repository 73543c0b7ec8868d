import { messageNotFound } from "../../../../shared/message-log";
import { messages } from "../../utils/messages";

export default defineEventHandler((event) => {
  const id = getRouterParam(event, "id") ?? "";
  const record = messages.get(id);
  if (record) return record;
  setResponseStatus(event, 404);
  return messageNotFound(id);
});
