/**
 * The access change as `irv review` prints it, on a change far larger than a comment can hold: the
 * markdown stays under GitHub's 65,536-character limit with the counts first, one line per grant
 * and the rest counted, the JSON keeps every entry; rendered as GitHub renders it, a reader sees
 * who gains which role where, and how dangerous that is, without expanding anything (issue 39).
 */
import { describe, expect, it } from "vitest";
import { formatReview, type ReviewReport } from "../../cli";
import { CAPABILITIES } from "../../api/capabilities";
import type { AccessEntry } from "../../cli/review/access";
import { collapsedText, renderGfm, visibleText } from "../support/gfm";

const ORG = "a".repeat(40);
const entry = (i: number, caps = [...CAPABILITIES]): AccessEntry => ({
  subject: {
    key: `s${i}`,
    name: `identity-${i}-${"x".repeat(80)}`,
    uid: `${ORG}/${String(i).padStart(16, "0")}`,
    workload: true,
    maybe: i % 2 ? `every token whose subject matches "^repo:acme-${i}/.*$"` : undefined,
  },
  capabilities: caps,
  group: { key: `g${i}`, name: `group-${i}` },
  path: [ORG, `group-${i}`],
  below: 13,
  except: [],
  groups: 14,
  binding: { key: `b${i}`, name: `binding-${i}`, kind: "iam.RoleBinding" },
  role: { key: "owner", name: "owner" },
});

const report = (gained: AccessEntry[], lost: AccessEntry[] = [], more: Partial<ReviewReport> = {}): ReviewReport => ({
  stack: "prod",
  counts: { create: 0, adopt: 0, update: 0, replace: 0, delete: 0 },
  unchanged: 0,
  summary: "0 to create, 0 to update, 0 to replace, 0 to delete",
  changes: [],
  access: { gained, lost, unknown: [], unseen: [], tuples: { gained: [], lost: [] } },
  durationMs: 0,
  ...more,
});

describe("the access change in irv review's output", () => {
  it("keeps the markdown under 65,536 characters for any size of change, counts first, a line per grant, the rest counted", () => {
    const gained = Array.from({ length: 5_000 }, (_, i) => entry(i));
    const lost = Array.from({ length: 5_000 }, (_, i) => entry(i + 5_000));
    const md = formatReview(report(gained, lost), "markdown");
    expect(md.length).toBeLessThan(65_536);
    expect(md).toContain("**Access: 5000 grants gained by 5000 identities, 5000 grants lost by 5000 identities**");
    const lines = md.match(/^- \*\*critical\*\* `identity-/gm) ?? [];
    expect(lines.length).toBe(100);
    expect(md.indexOf("**Access: ")).toBeLessThan(md.indexOf("- **critical**"));
    expect(md.indexOf("- **critical**")).toBeLessThan(md.indexOf("<details>"));
    expect(md).toContain("- _4950 more grants gained: see `--format json`._");
    expect(md).toContain("- _4950 more grants lost: see `--format json`._");
    expect(JSON.parse(formatReview(report(gained, lost), "json")).access.gained).toHaveLength(5_000);
  });

  it("says who gains which role where, how far down and how dangerously in one line; the capabilities in a sentence behind it", () => {
    const e = { ...entry(1, ["identity.create", "role_bindings.create"]), except: [{ key: "p", name: "platform" }], groups: 3, below: 3 };
    const md = formatReview(report([e]), "markdown");
    expect(md).toContain(
      "- **critical** `identity-1-" +
        "x".repeat(80) +
        '` (stands for `every token whose subject matches "^repo:acme-1/.*$"`) gains role `owner` on organization / `group-1`, inherited by 3 groups below (part of it held already on `platform`), through the binding `binding-1`: 2 capabilities, grants roles (itself any role)',
    );
    expect(md).toContain(
      "- `identity-1-" +
        "x".repeat(80) +
        "` gains `identity.create`, `role_bindings.create` on `group-1` and 2 groups below it (not `platform` and below, held already), through the binding `binding-1` of role `owner`",
    );
    expect(formatReview(report([], [entry(2, ["groups.list"])]), "text")).toContain(
      "  - identity-2-" + "x".repeat(80) + " loses groups.list on group-2 and its 13 groups below, through the binding binding-2 of role owner",
    );
  });

  it("shows a reader of the rendered comment each grant without expanding anything, and names beside the uids in the tables", () => {
    const ci = {
      ...entry(3, ["groups.list", "role_bindings.create", "groups.delete"]),
      subject: {
        key: "ci",
        name: "release-ci",
        uid: `${ORG}/c8eb45fc5d7d4903/c499cca76cd4afa8`,
        workload: true,
        maybe: 'every token whose subject matches "^repo:acme/.*$"',
      },
      path: [ORG, "engineering", "platform"],
      below: 2,
      group: { key: "g", name: "platform" },
    };
    const owner = "579233b2c479241523cba5e3af55d0f50f2d6414";
    const platform = `${ORG}/c8eb45fc5d7d4903/35f614a52160e04f`;
    const r = report([ci], [], {
      counts: { create: 1, adopt: 0, update: 0, replace: 0, delete: 0 },
      changes: [
        {
          action: "create",
          name: "release-ci-owner",
          kind: "iam.RoleBinding",
          urn: "urn:x",
          uid: "",
          fields: [
            { path: "groupUid", before: undefined, after: platform },
            { path: "roleUid", before: undefined, after: owner },
          ],
          replaceBecause: [],
          findings: [],
        },
      ],
      names: { [owner]: "owner", [`${ORG}/c8eb45fc5d7d4903`]: "engineering", [platform]: "platform" },
    });
    const html = renderGfm(formatReview(r, "markdown"));
    const seen = visibleText(html);
    expect(seen).toContain(
      'critical release-ci (stands for every token whose subject matches "^repo:acme/.*$") gains role owner on organization / engineering / platform, inherited by 2 groups below, through the binding binding-3: 3 capabilities, grants roles (itself any role), 1 delete',
    );
    expect(seen).toContain(`roleUid | ${owner} (owner)`);
    expect(seen).toContain(`groupUid | ${platform} (organization / engineering / platform)`);
    // The wall of capabilities is behind a summary, not in the way.
    expect(seen).not.toContain("groups.delete");
    expect(collapsedText(html)).toMatch(/release-ci gains .*groups\.delete.* on platform/);
  });
});
