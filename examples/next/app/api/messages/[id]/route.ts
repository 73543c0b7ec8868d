import { messageNotFound } from "../../../../../shared/message-log";
import { messages } from "../../../../lib/receiver";

export const runtime = "nodejs";

export async function GET(_request: Request, { params }: RouteContext<"/api/messages/[id]">) {
  const { id } = await params;
  const record = messages.get(id);
  return record ? Response.json(record) : Response.json(messageNotFound(id), { status: 404 });
}
