import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { createServer } from "node:net";

export interface RunningOffline {
  /** Where serverless-offline serves the HTTP API and REST API routes. */
  url: string;
  /** Everything the build and serverless-offline printed so far: show it when an assertion fails. */
  output(): string;
  close(): Promise<void>;
}

/** A port the OS just handed out: serverless-offline needs a number for each of its four listeners. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(" ")} failed:\n${stdout}${stderr}`));
      else resolve(stdout + stderr);
    });
  });
}

/**
 * `npm run build` then `serverless offline` in a Serverless Framework project: API Gateway emulated on loopback in
 * front of the bundled Lambda handler, as a user runs it locally.
 */
export async function buildAndStartOffline(appDir: string, env: Record<string, string>): Promise<RunningOffline> {
  let output = await run("npm", ["run", "build"], appDir);
  const [port, lambdaPort, albPort, websocketPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const bin = createRequire(`${appDir}/package.json`).resolve("serverless/bin/serverless.js");
  const child: ChildProcess = spawn(process.execPath, [bin, "offline"], {
    cwd: appDir,
    env: {
      ...process.env,
      SLS_TELEMETRY_DISABLED: "1",
      SLS_NOTIFICATIONS_MODE: "off",
      HOST: "127.0.0.1",
      PORT: String(port),
      LAMBDA_PORT: String(lambdaPort),
      ALB_PORT: String(albPort),
      WEBSOCKET_PORT: String(websocketPort),
      ...env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await new Promise<void>((resolve, reject) => {
      // The Serverless Framework logs to stderr.
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(`Server ready: ${url}`)) resolve();
      };
      child.stdout?.on("data", collect);
      child.stderr?.on("data", collect);
      child.on("error", reject);
      child.on("exit", (code) => reject(new Error(`serverless offline exited ${code}:\n${output}`)));
      setTimeout(() => reject(new Error(`serverless offline did not start in 90 s:\n${output}`)), 90_000).unref();
    });
  } catch (error) {
    child.kill("SIGTERM");
    throw error;
  }
  return {
    url,
    output: () => output,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}
