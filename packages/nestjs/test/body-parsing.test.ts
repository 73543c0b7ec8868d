import {
  type ArgumentsHost,
  Body,
  type CallHandler,
  Catch,
  Controller,
  type ExceptionFilter,
  type INestApplication,
  Module,
  type NestInterceptor,
  Post,
} from "@nestjs/common";
import { createReceiver, type DeliveryContext } from "@tidings/core";
import { TidingsModule } from "@tidings/nestjs";
import { IsString } from "class-validator";
import { map } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { deliver, eventBody, SECRET } from "./deliveries";
import { PLATFORMS, type Platform, type RunningNestApp, startNestApp, withAppGlobals } from "./nest-app";

class GreetingDto {
  @IsString()
  name!: string;
}

@Controller("greetings")
class GreetingController {
  @Post()
  greet(@Body() greeting: GreetingDto) {
    return { hello: greeting.name };
  }
}
// esbuild (vitest) emits no decorator metadata; ValidationPipe needs the parameter's class, as tsc would emit it.
Reflect.defineMetadata("design:paramtypes", [GreetingDto], GreetingController.prototype, "greet");

/** An app-wide filter and interceptor that rewrite everything they see: the webhook must not pass through them. */
@Catch()
class TeapotFilter implements ExceptionFilter {
  catch(_error: unknown, host: ArgumentsHost) {
    const response = host.switchToHttp().getResponse();
    const body = JSON.stringify({ teapot: true });
    if (typeof response.code === "function") response.code(418).header("content-type", "application/json").send(body);
    else response.status(418).type("json").send(body);
  }
}
class WrapInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler) {
    return next.handle().pipe(map((data) => ({ wrapped: data })));
  }
}

function withGlobals(platform: Platform) {
  return (app: INestApplication) => {
    withAppGlobals(platform)(app);
    app.useGlobalFilters(new TeapotFilter());
    app.useGlobalInterceptors(new WrapInterceptor());
  };
}

function appModule() {
  const contexts: DeliveryContext[] = [];
  const receiver = createReceiver({ secret: SECRET, logger: { error() {} } });
  receiver.on("message.delivered", (_event, context) => {
    contexts.push(context);
  });
  @Module({ imports: [TidingsModule.forRoot({ receiver, path: "/webhooks" })], controllers: [GreetingController] })
  class AppModule {}
  return { AppModule, contexts };
}

const postJson = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe.each(PLATFORMS)("TidingsModule on %s", (platform) => {
  let running: RunningNestApp | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it("hands the webhook the exact bytes while other routes keep Nest's JSON parser and global pipe", async () => {
    const { AppModule, contexts } = appModule();
    running = await startNestApp(platform, AppModule, { configure: withGlobals(platform) });
    const body = eventBody("message.delivered", "evt_bytes");
    const delivered = await deliver(running.url("/webhooks"), body);
    expect([delivered.status, await delivered.json()]).toEqual([200, { received: true }]);
    expect(Buffer.from(contexts[0]?.verifiedBody ?? []).equals(body)).toBe(true);

    const greeted = await postJson(running.url("/greetings"), { name: "Ada" });
    expect([greeted.status, await greeted.json()]).toEqual([201, { wrapped: { hello: "Ada" } }]);
    const invalid = await postJson(running.url("/greetings"), { name: 42 });
    expect([invalid.status, await invalid.json()]).toEqual([418, { teapot: true }]);
  });

  it("answers with the Receiver's status and body, untouched by the app's exception filter and interceptor", async () => {
    const { AppModule, contexts } = appModule();
    running = await startNestApp(platform, AppModule, { configure: withGlobals(platform) });
    const tampered = await deliver(running.url("/webhooks"), eventBody(), { sent: eventBody() });
    expect(tampered.status).toBe(400);
    expect((await tampered.json()).error.code).toBe("signature_mismatch");
    const get = await fetch(running.url("/webhooks"));
    expect([get.status, get.headers.get("allow"), (await get.json()).error.code]).toEqual([
      405,
      "POST",
      "method_not_allowed",
    ]);
    expect(contexts).toHaveLength(0);
  });

  it("works with rawBody: true on NestFactory.create", async () => {
    const { AppModule, contexts } = appModule();
    running = await startNestApp(platform, AppModule, { rawBody: true, configure: withGlobals(platform) });
    const body = eventBody();
    expect((await deliver(running.url("/webhooks"), body)).status).toBe(200);
    expect(Buffer.from(contexts[0]?.verifiedBody ?? []).equals(body)).toBe(true);
    expect((await postJson(running.url("/greetings"), { name: "Ada" })).status).toBe(201);
  });

  it("keeps the path as given when the app sets a global prefix", async () => {
    const { AppModule } = appModule();
    running = await startNestApp(platform, AppModule, { configure: (app) => app.setGlobalPrefix("api") });
    expect((await deliver(running.url("/webhooks"), eventBody())).status).toBe(200);
    expect((await postJson(running.url("/api/greetings"), { name: "Ada" })).status).toBe(201);
  });
});
