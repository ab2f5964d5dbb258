/**
 * Which values have no order, derived once from the kinds' proto facts (api/kinds/order.ts), and
 * the two comparisons that use it: the provider's diff and `irv drift`'s field comparison
 * (issue 39: a role declared with unsorted capabilities read as drift after every `pulumi up`).
 */
import { describe, expect, it } from "vitest";
import { KINDS, canonicalOf, definitionOf, setPathsOf, type KindDefinition } from "../../api/kinds";
import { fieldChanges } from "../../cli/drift/detect";
import { specs } from "../../provider/resources";
import { changesOf } from "../../provider/resources/diff";

describe("order-free values, from the kinds' definitions", () => {
  it("finds every repeated field a set, at any depth, and nothing else", () => {
    const sets = Object.fromEntries((KINDS as readonly KindDefinition[]).map((d) => [d.kind, setPathsOf(d)]));
    expect(sets).toEqual({
      groups: [],
      identities: ["staticKeys.audiences"],
      roles: ["capabilities"],
      roleBindings: [],
      identityProviders: ["oidc.additionalScopes"],
      accountAssociations: ["github.appInstallations.*.installations"],
      groupInvites: ["role.capabilities"],
      repos: ["activeTags", "aliases", "bundles"],
      tags: ["bundles"],
      repoDeployments: ["charts"],
      subscriptions: [],
    });
  });

  it("puts sets in order without repeats, maps and members in key order, at any depth", () => {
    const github = definitionOf("accountAssociations");
    expect(
      JSON.stringify(
        canonicalOf(github, "github", {
          appInstallations: {
            "99": {
              installations: [
                { name: "b", installationId: "7" },
                { installationId: "3", name: "a" },
              ],
            },
            "1234": { installations: [] },
          },
        }),
      ),
    ).toBe(
      JSON.stringify({
        appInstallations: {
          "1234": { installations: [] },
          "99": {
            installations: [
              { installationId: "3", name: "a" },
              { installationId: "7", name: "b" },
            ],
          },
        },
      }),
    );
    expect(canonicalOf(definitionOf("roles"), "capabilities", ["tag.list", "repo.list", "tag.list"])).toEqual(["repo.list", "tag.list"]);
    // A list the definition does not call a set keeps its order.
    expect(canonicalOf(definitionOf("groups"), "description", ["b", "a"])).toEqual(["b", "a"]);
  });

  it("makes the provider's diff and drift's comparison agree: a reordered set is no change, a changed one is", () => {
    const roles = specs.roles;
    const old = { groupUid: "g", name: "r", capabilities: ["repo.list", "tag.create", "tag.list"] };
    const users = { ...old, capabilities: ["tag.list", "repo.list", "tag.create", "repo.list"] };
    expect(changesOf(roles, old, users).changed).toEqual([]);
    expect(fieldChanges(definitionOf("roles"), users, old, ["capabilities"])).toEqual([]);
    const fewer = { ...old, capabilities: ["tag.list", "repo.list"] };
    expect(changesOf(roles, old, fewer).changed).toEqual(["capabilities"]);
    expect(fieldChanges(definitionOf("roles"), users, fewer, ["capabilities"])).toEqual([
      { path: "capabilities", before: ["repo.list", "tag.create", "tag.list"], after: ["repo.list", "tag.list"] },
    ]);
    const accounts = definitionOf("accountAssociations");
    const written = {
      github: {
        appInstallations: {
          "99": {
            installations: [
              { name: "b", installationId: "7" },
              { installationId: "3", name: "a" },
            ],
          },
        },
      },
    };
    const read = {
      github: {
        appInstallations: {
          "99": {
            installations: [
              { installationId: "3", name: "a" },
              { installationId: "7", name: "b" },
            ],
          },
        },
      },
    };
    expect(changesOf(specs.accountAssociations, read, written).changed).toEqual([]);
    expect(fieldChanges(accounts, written, read, ["github"])).toEqual([]);
    // As the provider's diff: an omitted input is its default, a block's proto zero value an absent member.
    expect(fieldChanges(definitionOf("groupInvites"), { singleUse: false }, {}, ["singleUse"])).toEqual([]);
    expect(changesOf(specs.groupInvites, {}, { singleUse: false }).changed).toEqual([]);
    expect(fieldChanges(definitionOf("identityProviders"), { oidc: { clientId: "a", pkceEnabled: false } }, { oidc: { clientId: "a" } }, ["oidc"])).toEqual([]);
    expect(fieldChanges(definitionOf("identityProviders"), { oidc: { clientId: "a" } }, { oidc: { clientId: "b" } }, ["oidc"])).toEqual([
      { path: "oidc.clientId", before: "a", after: "b" },
    ]);
  });
});
