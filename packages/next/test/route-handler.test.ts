import { createReceiver, sign } from "@tidings/core";
import { expect, it } from "vitest";
import { createRouteHandler } from "../src";

const SECRET = "whsec_route";

function signedRequest(): Request {
  const body = JSON.stringify({ id: "evt_1", type: "message.delivered", data: { id: "msg_1" } });
  return new Request("http://localhost/webhooks", {
    method: "POST",
    headers: { "content-type": "application/json", "service-signature": sign(body, SECRET) },
    body,
  });
}

it("tells a route whose body was read first how to fix it in Next.js, proxy.ts included", async () => {
  const POST = createRouteHandler(createReceiver({ secret: SECRET, logger: { error() {} } }));
  const request = signedRequest();
  await request.json();
  const response = await POST(request);
  expect(response.status).toBe(500);
  const { error } = (await response.json()) as { error: { code: string; message: string } };
  expect(error.code).toBe("body_already_parsed");
  expect(error.message).toContain("export createRouteHandler(receiver) as POST");
  expect(error.message).toContain("proxy.ts");
});

it("runs the receiver's handlers for a delivery", async () => {
  const seen: string[] = [];
  const receiver = createReceiver({ secret: SECRET }).on("message.delivered", (event) => {
    seen.push(event.data.id);
  });
  const response = await createRouteHandler(receiver)(signedRequest());
  expect(response.status).toBe(200);
  expect(seen).toEqual(["msg_1"]);
});
