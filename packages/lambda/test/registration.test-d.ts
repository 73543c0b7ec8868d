// Type tests, checked by `tsc --noEmit` (the package's `typecheck` script): each `@ts-expect-error` line must stay an
// error, so a registration that stops being refused fails the check. Nothing here runs.
import { createReceiver, type MessageEvents } from "@tidings/core";
import { createLambdaHandler, type LambdaHttpEvent, type LambdaHttpHandler } from "@tidings/lambda";
import type {
  ALBEvent,
  ALBHandler,
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  APIGatewayProxyHandler,
  APIGatewayProxyHandlerV2,
  LambdaFunctionURLEvent,
  LambdaFunctionURLHandler,
  SQSHandler,
} from "aws-lambda";
import { describe, expectTypeOf, it } from "vitest";
import { typedReceiver } from "../../../test/support/typed-receiver";

type ShipmentEvents = { "shipment.sent": { type: "shipment.sent"; trackingId: string } };

describe("registering createLambdaHandler", () => {
  it("is the exported handler as the README shows, for every HTTP source's handler type", () => {
    const handler = createLambdaHandler(createReceiver({ secret: "whsec_types" }));
    expectTypeOf(handler).toEqualTypeOf<LambdaHttpHandler>();
    expectTypeOf(handler).toExtend<APIGatewayProxyHandler>();
    expectTypeOf(handler).toExtend<APIGatewayProxyHandlerV2>();
    expectTypeOf(handler).toExtend<LambdaFunctionURLHandler>();
    expectTypeOf(handler).toExtend<ALBHandler>();
    expectTypeOf<
      APIGatewayProxyEvent | APIGatewayProxyEventV2 | LambdaFunctionURLEvent | ALBEvent
    >().toExtend<LambdaHttpEvent>();
    expectTypeOf(createLambdaHandler(createReceiver<ShipmentEvents>({ secret: "whsec_types" }))).toEqualTypeOf(handler);
  });

  it("gives handlers the event of their type and the verified bytes", () => {
    const receiver = typedReceiver();
    return createLambdaHandler(receiver);
  });

  it("refuses what is not a registration", () => {
    const receiver = createReceiver({ secret: "whsec_types" });
    // @ts-expect-error the options of createReceiver are not a Receiver
    createLambdaHandler({ secret: "whsec_types" });
    // @ts-expect-error an HTTP handler is not an SQS trigger's: deliveries come through API Gateway, a URL or an ALB
    const fromQueue: SQSHandler = createLambdaHandler(receiver);
    // @ts-expect-error header values are text
    const event: LambdaHttpEvent = { httpMethod: "POST", headers: { "content-length": 2 }, body: "{}" };
    // @ts-expect-error no such event type in MessageEvents
    receiver.on("message.bounced", () => {});
    // @ts-expect-error a handler for delivered events cannot take failed ones
    receiver.on("message.delivered", (_event: MessageEvents["message.failed"]) => {});
    return [fromQueue, event];
  });
});
