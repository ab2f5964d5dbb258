/**
 * List scoping: the groups under which a caller holds a capability, none below another. The
 * answer must not depend on how it is computed: for generated trees and bindings, the linear
 * computation (each group's ancestors looked up in a set) equals the pairwise one it replaced.
 * What it costs is measured in the benchmark, never here.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSelfOrAncestor } from "../../api/uid";
import { Authorizer } from "../../server/authz";
import type { Store } from "../../server/store";
import { ServerWork } from "../../server/work";

const ROOT = "0123456789abcdef0123456789abcdef01234567";
const seg = (n: number) => n.toString(16).padStart(16, "0");

/** An Authorizer over bindings of one caller on `groups`, each with a role holding `groups.list` or not. */
function authorizer(bindings: { group: string; lists: boolean }[]): Authorizer {
  const store = {
    bindingsOf: () => bindings.map((b, i) => ({ uid: `${b.group}/${seg(100_000 + i)}`, roleUid: b.lists ? "lister" : "other" })),
    roleBindings: { version: 0 },
    work: new ServerWork(),
    roles: {
      version: 0,
      get: (uid: string) => ({ capabilities: uid === "lister" ? ["groups.list"] : ["repo.list"] }),
    },
  };
  // A stub holding only what the Authorizer reads of a store.
  // eslint-disable-next-line no-restricted-syntax -- a store stand-in with only what the authorizer reads
  return new Authorizer(store as unknown as Store);
}

/** The pairwise computation scopes() had: every group against every other. */
function pairwise(bindings: { group: string; lists: boolean }[]): string[] {
  const groups = bindings
    .filter((b) => b.lists)
    .map((b) => b.group)
    .sort();
  return [...new Set(groups.filter((g, i) => !groups.some((o, j) => j !== i && (o === g ? j < i : isSelfOrAncestor(o, g)))))];
}

/** A group path of up to 4 levels below the root, from small numbers (so paths share prefixes). */
const group = fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 4 }).map((path) => [ROOT, ...path.map(seg)].join("/"));

describe("list scopes", () => {
  it("equal the pairwise computation for every generated set of bindings", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ group, lists: fc.boolean() }), { maxLength: 40 }), (bindings) => {
        expect(authorizer(bindings).scopes("caller", "groups.list")).toEqual(pairwise(bindings));
      }),
      { numRuns: 500 },
    );
  });

  it("keep one scope per uncovered group among thousands of sibling bindings", () => {
    const siblings = Array.from({ length: 2_500 }, (_, i) => ({ group: `${ROOT}/${seg(i)}`, lists: true }));
    expect(authorizer(siblings).scopes("caller", "groups.list")).toHaveLength(2_500);
    // A binding on the root covers them all.
    expect(authorizer([...siblings, { group: ROOT, lists: true }]).scopes("caller", "groups.list")).toEqual([ROOT]);
  });
});
