import { createRequire } from "node:module";
import { type ChildServer, runToEnd, startServer } from "./child-process";
import { freePort } from "./free-port";

export interface RunningOffline extends ChildServer {
  /** Where serverless-offline serves the HTTP API and REST API routes. */
  url: string;
}

/**
 * `npm run build` then `serverless offline` in a Serverless Framework project: API Gateway emulated on loopback in
 * front of the bundled Lambda handler, as a user runs it locally.
 */
export async function buildAndStartOffline(appDir: string, env: Record<string, string>): Promise<RunningOffline> {
  await runToEnd("npm", ["run", "build"], { cwd: appDir });
  const [port, lambdaPort, albPort, websocketPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const bin = createRequire(`${appDir}/package.json`).resolve("serverless/bin/serverless.js");
  const url = `http://127.0.0.1:${port}`;
  const server = await startServer(process.execPath, [bin, "offline"], {
    cwd: appDir,
    env: {
      SLS_TELEMETRY_DISABLED: "1",
      SLS_NOTIFICATIONS_MODE: "off",
      HOST: "127.0.0.1",
      PORT: String(port),
      LAMBDA_PORT: String(lambdaPort),
      ALB_PORT: String(albPort),
      WEBSOCKET_PORT: String(websocketPort),
      ...env,
    },
    ready: (output) => output.includes(`Server ready: ${url}`),
  });
  return { ...server, url };
}
