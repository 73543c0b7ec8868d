import { writeFileSync } from "node:fs";
import { renderCatalogue } from "./render";

const target = new URL("../../docs/senders.md", import.meta.url);
writeFileSync(target, renderCatalogue());
console.log(`wrote ${target.pathname}`);
