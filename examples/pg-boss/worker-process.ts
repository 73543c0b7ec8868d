import { startBoss } from "./boss";
import { startWorker } from "./worker";

const boss = await startBoss();
const queue = process.env.QUEUE ?? "deliveries";
const worker = startWorker({ boss, queue });
await worker.ready;
console.log(`pg-boss worker on queue ${queue}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await worker.close(); // finishes the running jobs
    await boss.stop();
  });
}
