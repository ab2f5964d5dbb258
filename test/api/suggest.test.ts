import { describe, expect, it } from "vitest";
import { CAPABILITIES } from "../../api/capabilities";
import { capability } from "../../api/fields";
import { closest } from "../../api/suggest";

describe("did you mean", () => {
  it("names the capability a typo was meant to be, in the rule every language's check runs", () => {
    const message = (v: string) => capability().safeParse(v).error?.issues[0].message;
    expect(message("groups.lsit")).toBe('is not a known capability (did you mean "groups.list"?)');
    expect(message("tags.create")).toBe('is not a known capability (did you mean "tag.create"?)');
    // Nothing near enough: no guess.
    expect(message("groups.explode")).toBe("is not a known capability");
  });

  it("suggests for every one-edit typo of every capability, and never for a far-off name", () => {
    for (const c of CAPABILITIES) {
      const typo = c.slice(0, -1);
      // A one-letter-short name may be nearer another capability (`tag.lis` is one edit from
      // `tag.list` only); the suggestion is always at most one edit away.
      expect(closest(typo, CAPABILITIES), typo).toBeDefined();
    }
    expect(closest("x", CAPABILITIES)).toBeUndefined();
    expect(closest("completely.unrelated", CAPABILITIES)).toBeUndefined();
  });
});
