// What differs between the soak's engines: the servers, the store and queue the processes build from env. `request`
// has no queue: the receivers run the handlers themselves, on PostgreSQL. With effects, every engine also has the
// app's PostgreSQL (DATABASE_URL), where the handlers' rows, the store's done marks and the workers' inbox rows live.
import { PostgresServer } from "../../test/support/postgres-server";
import { RedisServer } from "../../test/support/redis-server";

export type EngineName = "bullmq" | "pg-boss" | "request";

export interface EngineServer {
  /** What the receiver and worker processes read to connect. */
  env: Record<string, string>;
  /** Stops the engine's server as a crash would, then starts it again on the same data. */
  restart(): Promise<void>;
  remove(): Promise<void>;
}

export async function startEngine(name: EngineName, effects: boolean): Promise<EngineServer> {
  if (name === "bullmq") {
    const redis = await RedisServer.start();
    const postgres = effects ? await PostgresServer.start() : undefined;
    return {
      env: { ENGINE: name, REDIS_PORT: String(redis.port), ...(postgres ? { DATABASE_URL: postgres.url } : {}) },
      restart: async () => {
        await redis.stop();
        await redis.start();
      },
      remove: async () => {
        await redis.remove();
        await postgres?.remove();
      },
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
