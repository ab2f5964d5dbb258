/**
 * A few seeds of the soak (`npm run bench` runs 50 of a 104-resource org): the real engine runs
 * up, an update, refresh and destroy of an org with every kind, through the chaos proxy at 20%
 * faults of every kind. Each run must pass, and the stack's state and the server must agree after
 * every operation: no duplicate, nothing lost.
 */
import { describe, expect, it } from "vitest";
import { runSoak, type SoakOptions } from "../../bench/soak";
import { ENGINE_TIMEOUT } from "../support/engine";

describe("the real engine through the chaos proxy", () => {
  it("runs up, update, refresh and destroy of every kind at 20% faults, with nothing duplicated or lost", { timeout: 3 * ENGINE_TIMEOUT }, async () => {
    const o: SoakOptions = { seeds: 2, firstSeed: 1001, rate: 0.2, teams: 3 };
    const results = await runSoak(o);
    for (const r of results) {
      expect(r.error, `seed ${r.seed}`).toBeUndefined();
      expect(r.duplicates, `seed ${r.seed}: on the server, in no state`).toEqual([]);
      expect(r.losses, `seed ${r.seed}: in state, not on the server`).toEqual([]);
      expect(r.passed).toBe(true);
    }
    const faults = results.reduce((n, r) => n + Object.values(r.faults).reduce((a, b) => a + b, 0), 0);
    expect(faults, "faults were injected").toBeGreaterThan(0);
  });
});
