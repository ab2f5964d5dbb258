import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KINDS, providers } from "../../provider";
import * as irv from "../../dynamic";

describe("the list of kinds", () => {
  it("has a provider with all six methods, an SDK class and a lifecycle test for every kind", () => {
    expect(Object.keys(providers).sort()).toEqual(KINDS.map((k) => k.kind).sort());
    for (const { kind, module, className } of KINDS) {
      for (const m of ["check", "diff", "create", "read", "update", "delete"] as const) expect(typeof providers[kind][m], `${kind}.${m}`).toBe("function");
      const ns = (irv as Record<string, unknown>)[module] as Record<string, unknown>;
      const cls = ns[className] as { get?: unknown };
      expect(typeof cls, `${module}.${className}`).toBe("function");
      expect(typeof cls.get, `${module}.${className}.get`).toBe("function");
      expect(existsSync(join(__dirname, `${kind}.test.ts`)), `test/provider/${kind}.test.ts`).toBe(true);
    }
  });
});
