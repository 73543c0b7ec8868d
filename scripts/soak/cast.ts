// The soak's processes: receivers and workers started, SIGKILLed and restarted, and a round-robin balancer in front
// of the receivers, as a load balancer would be (an attempt that reaches a dead one fails, and the sender retries).
import { type ChildProcess, spawn } from "node:child_process";
import { Agent, createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("processes.ts", import.meta.url));

export interface Member {
  role: "receiver" | "worker";
  child: ChildProcess;
  port?: number;
}

export interface Kill {
  role: Member["role"];
  pid: number;
  at: number;
  /** Asked for by the process's own handler, at a chosen point of a run (effects mode), rather than at random. */
  aimed: boolean;
}

export class Cast {
  readonly members: Member[] = [];
  readonly kills: Kill[] = [];
  #next = 0;
  /** Hears every delivery attempt's body, and each one a receiver answered 2xx: what the sender saw acknowledged. */
  onAttempt: (body: Buffer) => void = () => {};
  onAccepted: (body: Buffer) => void = () => {};

  constructor(
    readonly node: string,
    readonly env: Record<string, string>,
  ) {}

  async start(role: Member["role"]): Promise<Member> {
    const child = this.#spawn(role);
    const member: Member = { role, child };
    let output = "";
    await new Promise<void>((resolve, reject) => {
      child.stderr?.on("data", (chunk) => {
        output += chunk;
      });
      child.stdout?.on("data", (chunk) => {
        output += chunk;
        const port = /\{"port":(\d+)\}/.exec(output);
        if (port) member.port = Number(port[1]);
        if (port || output.includes('{"worker":')) resolve();
        // A handler waiting at the point of its run chosen for a kill (effects.ts).
        if (output.includes('{"kill":')) {
          output = "";
          this.#kill(member, true).catch((error) => console.error(error));
        }
      });
      child.once("exit", (code) => reject(new Error(`a ${role} exited with ${code} while starting:\n${output}`)));
    });
    this.members.push(member);
    return member;
  }

  /** SIGKILLs one member at random, as a crashed host would, and starts another in its place. */
  async killOne(random: () => number): Promise<void> {
    await this.#kill(this.members[Math.floor(random() * this.members.length)] as Member, false);
  }

  async #kill(victim: Member, aimed: boolean): Promise<void> {
    const at = this.members.indexOf(victim);
    if (at === -1) return; // killed already
    this.members.splice(at, 1);
    this.kills.push({ role: victim.role, pid: victim.child.pid as number, at: Date.now(), aimed });
    await stop(victim.child, "SIGKILL");
    await this.start(victim.role);
  }

  /** Resolves once the engine's queue has no job left to run (processes.ts, `drain`). */
  async drained(): Promise<void> {
    const child = this.#spawn("drain");
    child.stderr?.pipe(process.stderr);
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    if (code !== 0 || !output.includes('{"drained":true}')) throw new Error(`the drain check exited with ${code}`);
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.members.splice(0).map((member) => stop(member.child, "SIGTERM")));
  }

  #spawn(role: Member["role"] | "drain"): ChildProcess {
    return spawn(this.node, ["--conditions=@tidings/source", "--import", "tsx", SCRIPT], {
      env: { ...process.env, ...this.env, ROLE: role },
      stdio: ["ignore", "pipe", "pipe"],
    });
  }

  /** A balancer on a loopback port that sends each request to the next live receiver. */
  async balancer(): Promise<{ url: string; server: Server }> {
    // At most this many connections to each receiver; more requests wait in the agent, as behind a real balancer,
    // instead of each holding a socket of its own while receivers are slow (the engine restarting).
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const server = createServer(async (incoming, outgoing) => {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      this.onAttempt(body);
      const receivers = this.members.filter((member) => member.role === "receiver" && member.port);
      const target = receivers[this.#next++ % receivers.length];
      if (!target) {
        outgoing.writeHead(502).end();
        return;
      }
      const upstream = request(
        {
          agent,
          host: "127.0.0.1",
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (answer) => {
          const status = answer.statusCode ?? 502;
          if (status < 300) this.onAccepted(body);
          outgoing.writeHead(status, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on("error", () => {
        if (!outgoing.headersSent) outgoing.writeHead(502);
        outgoing.end();
      });
      upstream.end(body);
    });
    server.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, server };
  }
}

function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}
