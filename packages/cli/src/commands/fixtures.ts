import { Argument, type Command } from "commander";
import { MESSAGE_EVENT_TYPES, type MessageEventType } from "../events";
import { FIXTURES } from "../fixtures";
import type { Io } from "../io";

export function registerFixtures(program: Command, io: Io): void {
  program
    .command("fixtures")
    .description("Print the example event of each type that send, emulate and the dashboard deliver (as JSON).")
    .addArgument(new Argument("[type]", "only this type's event").choices(MESSAGE_EVENT_TYPES))
    .addHelpText("after", "\nEach delivery gets a fresh evt_ id, created time and msg_ id; the rest is as printed.")
    .action((type: MessageEventType | undefined) => {
      io.stdout.write(`${JSON.stringify(type === undefined ? FIXTURES : FIXTURES[type], null, 2)}\n`);
    });
}
