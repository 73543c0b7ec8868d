import { MessageLog } from "../../../shared/message-log";

/** The latest status of every message, shared by the server routes (in this server process's memory). */
export const messages = new MessageLog();
