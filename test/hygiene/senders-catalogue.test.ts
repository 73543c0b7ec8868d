import { readFileSync } from "node:fs";
import * as schemes from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { renderCatalogue } from "../../scripts/catalogue/render";

describe("the senders catalogue", () => {
  it("docs/senders.md is what the schemes' `about` says: `npm run catalogue` rewrites it", () => {
    const committed = readFileSync(new URL("../../docs/senders.md", import.meta.url), "utf8");
    expect(committed).toBe(renderCatalogue());
  });

  it("holds every scheme `@tidings/core/schemes` exports, each once", () => {
    const listed = schemes.catalogue().map((scheme) => scheme.name);
    expect(new Set(listed).size).toBe(listed.length);
    const exported = Object.entries(schemes).flatMap(([name, value]) => {
      if (typeof value !== "function" || name === "defineScheme" || name === "catalogue") return [];
      try {
        const made = (value as () => unknown)();
        return typeof made === "object" && made !== null && "read" in made && "signatureHeader" in made
          ? [(made as schemes.Scheme).name]
          : [];
      } catch {
        return [];
      }
    });
    expect([...exported].sort()).toEqual([...listed].sort());
  });
});
