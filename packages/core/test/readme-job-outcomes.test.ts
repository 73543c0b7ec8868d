import { describe, expect, it } from "vitest";
import { JOB_OUTCOMES } from "../src/entries/dispatch";
import { tableRows } from "./readme-tables";

describe("the core README's job outcome table", () => {
  it("states each code and what the engine does with the job as JOB_OUTCOMES has them", () => {
    const stated = tableRows("job outcome").map(([code = "", action = ""]) => [code.replaceAll("`", ""), action]);
    expect(Object.fromEntries(stated)).toEqual(JOB_OUTCOMES);
    expect(stated).toHaveLength(Object.keys(JOB_OUTCOMES).length);
  });
});
