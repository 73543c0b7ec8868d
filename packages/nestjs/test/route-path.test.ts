import { Module } from "@nestjs/common";
import { createReceiver, type SecretRequest } from "@tidings/core";
import { TidingsModule } from "@tidings/nestjs";
import { afterEach, describe, expect, it } from "vitest";
import { deliver, eventBody, SECRET } from "./deliveries";
import { PLATFORMS, type RunningNestApp, startNestApp } from "./nest-app";

let running: RunningNestApp | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function startWithPath(platform: (typeof PLATFORMS)[number], path: string) {
  const asked: SecretRequest[] = [];
  const receiver = createReceiver({
    secret: (request) => {
      asked.push(request);
      return { secret: SECRET, endpoint: request.params.account ?? "default" };
    },
  });
  @Module({ imports: [TidingsModule.forRoot({ receiver, path })] })
  class AppModule {}
  running = await startNestApp(platform, AppModule);
  return { app: running, asked };
}

const errorCode = async (answer: Response) => ((await answer.json()) as { error: { code: string } }).error.code;

describe.each(PLATFORMS)("TidingsModule's path on %s, written as for @Controller()", (platform) => {
  it.each(["webhooks", "/webhooks", "webhooks/", "/webhooks/", "//webhooks//"])(
    "path %j serves POST /webhooks and answers GET there 405",
    async (path) => {
      const { app, asked } = await startWithPath(platform, path);
      const delivered = await deliver(app.url("/webhooks"), eventBody());
      expect([delivered.status, await delivered.json()]).toEqual([200, { received: true }]);
      expect(asked.map((request) => request.route)).toEqual(["/webhooks"]);
      const get = await fetch(app.url("/webhooks"));
      expect([get.status, get.headers.get("allow"), await errorCode(get)]).toEqual([405, "POST", "method_not_allowed"]);
    },
  );

  it.each(["hooks/service/:account", "/hooks/service/:account/"])(
    "path %j matches its params, with or without the leading slash",
    async (path) => {
      const { app, asked } = await startWithPath(platform, path);
      expect((await deliver(app.url("/hooks/service/acct_42"), eventBody())).status).toBe(200);
      expect(asked.map(({ path, route, params }) => ({ path, route, params }))).toEqual([
        { path: "/hooks/service/acct_42", route: "/hooks/service/:account", params: { account: "acct_42" } },
      ]);
    },
  );
});

describe("TidingsModule's path that is not a string", () => {
  it("fails the start with the reason", async () => {
    const receiver = createReceiver({ secret: SECRET });
    @Module({ imports: [TidingsModule.forRoot({ receiver, path: undefined as unknown as string })] })
    class AppModule {}
    // Without abortOnError: false, Nest aborts the process on an error while it creates providers.
    await expect(startNestApp("express", AppModule, { abortOnError: false })).rejects.toThrow(
      /TidingsModule's path must be a string/,
    );
  });
});
