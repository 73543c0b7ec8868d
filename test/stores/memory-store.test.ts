import { MemoryStore } from "@tidings/core";
import { describeStoreContract } from "./contract";

describeStoreContract("MemoryStore", () => new MemoryStore());
