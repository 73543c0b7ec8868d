import { type ChildProcess, execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./free-port";
import { spawnRedisServer } from "./redis-server";
import { until } from "./wait";

/** How often a node is asked about the cluster while its gossip settles. */
const GOSSIP_POLL_MS = 100;

const run = promisify(execFile);

interface Node {
  port: number;
  busPort: number;
  dir: string;
  process: ChildProcess | undefined;
}

/**
 * A real Redis Cluster on loopback: `masters` redis-server processes started with `--cluster-enabled`, each with
 * `replicas` replicas, joined by `redis-cli --cluster create`. Nodes persist to append-only files, as production
 * ones would, and any master can be killed to make its replica take over.
 */
export class RedisCluster {
  readonly #root = mkdtempSync(join(tmpdir(), "tidings-redis-cluster-"));
  readonly #nodes: Node[] = [];

  private constructor() {}

  static async start({ masters = 3, replicas = 1 } = {}): Promise<RedisCluster> {
    const cluster = new RedisCluster();
    try {
      for (let index = 0; index < masters * (1 + replicas); index++) {
        const dir = join(cluster.#root, String(index));
        mkdirSync(dir);
        const node: Node = { port: await freePort(), busPort: await freePort(), dir, process: undefined };
        cluster.#nodes.push(node);
        await cluster.#startNode(node);
      }
      const addresses = cluster.#nodes.map((node) => `127.0.0.1:${node.port}`);
      await run("redis-cli", [
        "--cluster",
        "create",
        ...addresses,
        "--cluster-replicas",
        String(replicas),
        "--cluster-yes",
      ]);
      await cluster.waitUntilHealthy();
      await cluster.#waitForReplicas();
      return cluster;
    } catch (error) {
      await cluster.remove();
      throw error;
    }
  }

  /** Where a cluster client starts: every node's address. */
  get startupNodes(): { host: string; port: number }[] {
    return this.#nodes.map((node) => ({ host: "127.0.0.1", port: node.port }));
  }

  async #startNode(node: Node): Promise<void> {
    const args = ["--port", String(node.port), "--cluster-port", String(node.busPort), "--bind", "127.0.0.1"];
    args.push("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "1000");
    args.push("--dir", node.dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always");
    node.process = await spawnRedisServer(args);
  }

  async #info(node: Node, command: string[]): Promise<string> {
    const { stdout } = await run("redis-cli", ["-p", String(node.port), ...command]);
    return stdout;
  }

  /**
   * Until every running node reports `cluster_state:ok` and all 16384 slots served. Nothing announces that the nodes'
   * gossip agreed (or that a replica won its election), so the nodes are asked again every 100 ms.
   */
  async waitUntilHealthy(withinMs = 30_000): Promise<void> {
    let states: string[] = [];
    await until(
      async () => {
        const running = this.#nodes.filter((node) => node.process);
        states = await Promise.all(running.map((node) => this.#info(node, ["cluster", "info"]).catch(() => "")));
        return states.every((info) => info.includes("cluster_state:ok") && info.includes("cluster_slots_ok:16384"));
      },
      () => `the Redis Cluster to become healthy:\n${states.join("\n")}`,
      { withinMs, everyMs: GOSSIP_POLL_MS },
    );
  }

  /** Until every replica has synced with its master (a replica that never did cannot take over); asked as above. */
  async #waitForReplicas(withinMs = 30_000): Promise<void> {
    let roles: string[] = [];
    await until(
      async () => {
        roles = await Promise.all(this.#nodes.map((node) => this.#info(node, ["info", "replication"])));
        const replicas = roles.filter((info) => info.includes("role:slave"));
        return replicas.length > 0 && replicas.every((info) => info.includes("master_link_status:up"));
      },
      () => `the replicas to sync:\n${roles.join("\n")}`,
      { withinMs, everyMs: GOSSIP_POLL_MS },
    );
  }

  /** The port of the master that serves `key`'s slot. */
  async masterOf(key: string): Promise<number> {
    const node = this.#nodes.find((each) => each.process) as Node;
    const slot = Number((await this.#info(node, ["cluster", "keyslot", key])).trim());
    const shards = (await this.#info(node, ["cluster", "slots"])).trim().split("\n");
    // `cluster slots` prints, per range: start, end, then each node's ip, port and id (master first).
    for (let line = 0; line + 3 < shards.length; line++) {
      const start = Number(shards[line]);
      const end = Number(shards[line + 1]);
      if (shards[line + 2]?.includes("127.0.0.1") && slot >= start && slot <= end) return Number(shards[line + 3]);
    }
    throw new Error(`no master serves slot ${slot}`);
  }

  /** SIGKILLs the master serving `key`'s slot, as a crashed host would; its replica takes over after the timeout. */
  async killMasterOf(key: string): Promise<number> {
    const port = await this.masterOf(key);
    const node = this.#nodes.find((each) => each.port === port) as Node;
    const child = node.process as ChildProcess;
    node.process = undefined;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
    return port;
  }

  /** Stops every node and deletes their directories. */
  async remove(): Promise<void> {
    await Promise.all(
      this.#nodes.map(async (node) => {
        const child = node.process;
        node.process = undefined;
        if (!child || child.exitCode !== null) return;
        await new Promise<void>((resolve) => {
          child.once("exit", () => resolve());
          child.kill("SIGKILL");
        });
      }),
    );
    rmSync(this.#root, { recursive: true, force: true });
  }
}
