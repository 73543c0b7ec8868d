/** Engine writes per queue (an `add` / `send` is one, an `addBulk` / `insert` another), and the jobs they held. */
export interface Writes {
  writes: number;
  jobs: number;
}

export class WriteCounts {
  readonly #byQueue = new Map<string, Writes>();

  note(queue: string, jobs: number): void {
    const counts = this.of(queue);
    counts.writes++;
    counts.jobs += jobs;
  }

  of(queue: string): Writes {
    let counts = this.#byQueue.get(queue);
    if (counts === undefined) {
      counts = { writes: 0, jobs: 0 };
      this.#byQueue.set(queue, counts);
    }
    return counts;
  }
}
