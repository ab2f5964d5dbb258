/**
 * The access change as `irv review` prints it, on a change far larger than a comment can hold: the
 * markdown stays under GitHub's 65,536-character limit with the counts first and the rest
 * counted, the JSON keeps every entry; a single change reads as the reviewer's sentence.
 */
import { describe, expect, it } from "vitest";
import { formatReview, type ReviewReport } from "../../cli";
import { CAPABILITIES } from "../../api/capabilities";
import type { AccessEntry } from "../../cli/review/access";

const entry = (i: number, caps = [...CAPABILITIES]): AccessEntry => ({
  subject: { key: `s${i}`, name: `identity-${i}-${"x".repeat(80)}`, uid: `${"a".repeat(40)}/${String(i).padStart(16, "0")}`, workload: true, maybe: i % 2 ? `every token whose subject matches "^repo:acme-${i}/.*$"` : undefined },
  capabilities: caps,
  group: { key: `g${i}`, name: `group-${i}` },
  except: [],
  groups: 14,
  binding: { key: `b${i}`, name: `binding-${i}`, kind: "iam.RoleBinding" },
  role: { key: "owner", name: "owner" },
});

const report = (gained: AccessEntry[], lost: AccessEntry[] = []): ReviewReport => ({
  stack: "prod",
  counts: { create: 0, adopt: 0, update: 0, replace: 0, delete: 0 },
  unchanged: 0,
  summary: "0 to create, 0 to update, 0 to replace, 0 to delete",
  changes: [],
  access: { gained, lost, unknown: [], unseen: [], tuples: { gained: [], lost: [] } },
  durationMs: 0,
});

describe("the access change in irv review's output", () => {
  it("keeps the markdown under 65,536 characters for any size of change, counts first, the rest counted", () => {
    const gained = Array.from({ length: 5_000 }, (_, i) => entry(i));
    const lost = Array.from({ length: 5_000 }, (_, i) => entry(i + 5_000));
    const md = formatReview(report(gained, lost), "markdown");
    expect(md.length).toBeLessThan(65_536);
    expect(md).toContain("**Access: 5000 grants gained by 5000 identities, 5000 grants lost by 5000 identities**");
    expect(md.indexOf("**Access: ")).toBeLessThan(md.indexOf("<details>"));
    const shown = (md.match(/^- `identity-/gm) ?? []).length;
    expect(shown).toBeGreaterThan(0);
    expect(md).toContain(`_${5_000 - shown} more grants gained: see \`--format json\`._`);
    expect(md).toContain("_5000 more grants lost: see `--format json`._");
    expect(JSON.parse(formatReview(report(gained, lost), "json")).access.gained).toHaveLength(5_000);
  });

  it("says each change in a sentence: who, what, where and through which binding of which role", () => {
    const e = { ...entry(1, ["identity.create", "role_bindings.create"]), except: [{ key: "p", name: "platform" }], groups: 3 };
    const md = formatReview(report([e]), "markdown");
    expect(md).toContain("- `identity-1-" + "x".repeat(80) + "` gains `identity.create`, `role_bindings.create` on `group-1` and 2 groups below it (not `platform` and below, held already), through the binding `binding-1` of role `owner`");
    expect(formatReview(report([], [entry(2, ["groups.list"])]), "text")).toContain("  - identity-2-" + "x".repeat(80) + " loses groups.list on group-2 and its 13 groups below, through the binding binding-2 of role owner");
  });
});
