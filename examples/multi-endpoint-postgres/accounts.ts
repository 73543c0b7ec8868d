import { MessageLog } from "../shared/message-log";

/** One `MessageLog` per account: an account reads only the statuses its own deliveries reported. */
export class AccountMessages {
  readonly #logs = new Map<string, MessageLog>();

  /** The account's log; created on its first verified delivery. */
  of(account: string): MessageLog {
    let log = this.#logs.get(account);
    if (log === undefined) {
      log = new MessageLog();
      this.#logs.set(account, log);
    }
    return log;
  }

  /** The account's log if it has had a delivery, without creating one. */
  find(account: string): MessageLog | undefined {
    return this.#logs.get(account);
  }
}
