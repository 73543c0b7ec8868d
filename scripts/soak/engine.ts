// What differs between the soak's two engines: the server, the store and queue the processes build from env.
import { PostgresServer } from "../../test/support/postgres-server";
import { RedisServer } from "../../test/support/redis-server";

export type EngineName = "bullmq" | "pg-boss";

export interface EngineServer {
  /** What the receiver and worker processes read to connect. */
  env: Record<string, string>;
  /** Stops the server as a crash would, then starts it again on the same data. */
  restart(): Promise<void>;
  remove(): Promise<void>;
}

export async function startEngine(name: EngineName): Promise<EngineServer> {
  if (name === "bullmq") {
    const redis = await RedisServer.start();
    return {
      env: { ENGINE: name, REDIS_PORT: String(redis.port) },
      restart: async () => {
        await redis.stop();
        await redis.start();
      },
      remove: () => redis.remove(),
    };
  }
  const postgres = await PostgresServer.start();
  return {
    env: { ENGINE: name, DATABASE_URL: postgres.url },
    restart: async () => {
      await postgres.stop();
      await postgres.start();
    },
    remove: () => postgres.remove(),
  };
}
