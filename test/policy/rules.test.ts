/**
 * Every guardrail rule through the rule module: it fires on a minimal violating world and stays
 * quiet on its compliant twin; then the config format (Pulumi's --policy-pack-config).
 */
import { describe, expect, it } from "vitest";
import { BUILTIN_ROLES } from "../../api/capabilities";
import { builtinRoleUid } from "../../api/builtin-roles";
import { parsePolicyConfig, type PolicyConfig } from "../../policy/config";
import { evaluate, uidsToLookUp } from "../../policy/evaluate";
import { RULES } from "../../policy/rules";
import { UNKNOWN, type Subject, type World } from "../../policy/world";

const ORG = "a".repeat(40);
const ENG = `${ORG}/${"1".repeat(16)}`;
const PLATFORM = `${ENG}/${"2".repeat(16)}`;
const OWNER = "0".repeat(39) + "1";
const VIEWER = "0".repeat(39) + "2";
const NOW = Date.parse("2026-01-01T00:00:00.000Z");
const GITHUB = "https://token.actions.githubusercontent.com";

const remote = new Map([
  [OWNER, { kind: "roles" as const, uid: OWNER, item: { uid: OWNER, name: "owner", capabilities: BUILTIN_ROLES.owner.capabilities } }],
  [VIEWER, { kind: "roles" as const, uid: VIEWER, item: { uid: VIEWER, name: "viewer", capabilities: BUILTIN_ROLES.viewer.capabilities } }],
]);

let n = 0;
function subject(kind: Subject["kind"], inputs: Record<string, unknown>, more: Partial<Subject> = {}): Subject {
  const name = `${kind}-${++n}`;
  return { urn: `urn:pulumi:dev::p::irv:iam:X::${name}`, name, kind, inputs, ...more };
}
const world = (...subjects: Subject[]): World => ({ subjects, remote, now: NOW });

const ci = (groupUid: string, uid = `${groupUid}/${"3".repeat(16)}`) =>
  subject("identities", { groupUid, name: "ci-0", description: "CI", claimMatch: { issuer: GITHUB, subject: "repo:acme/infra:ref:refs/heads/main" } }, { uid });
const claim = (claimMatch: Record<string, unknown>) => world(subject("identities", { groupUid: ENG, name: "ci-0", description: "CI", claimMatch }));
const invite = (i: Record<string, unknown>) => world(subject("groupInvites", { groupUid: ENG, roleUid: VIEWER, ttl: "86400s", singleUse: true, ...i }));

/** Each rule: worlds that break it, and the compliant twin. */
const CASES: Record<string, { violating: [string, () => World][]; compliant: () => World }> = {
  "irv-workload-identity-admin-at-root": {
    violating: [
      [
        "owner at the root",
        () => {
          const id = ci(ENG);
          return world(id, subject("roleBindings", { groupUid: ORG, identityUid: id.uid, roleUid: OWNER }));
        },
      ],
      [
        "a custom role that deletes, referenced before it exists",
        () => {
          const id = ci(ENG);
          const role = subject("roles", { groupUid: ENG, name: "cleaner", description: "d", capabilities: ["repo.list", "repo.delete"] });
          return world(id, role, subject("roleBindings", { groupUid: ORG, identityUid: id.uid, roleUid: UNKNOWN }, { deps: { roleUid: [role] } }));
        },
      ],
      [
        "a custom role that grants roles",
        () => {
          const id = ci(ENG);
          const role = subject("roles", { groupUid: ENG, name: "granter", description: "d", capabilities: ["role_bindings.create"] }, { uid: "c".repeat(40) });
          return world(id, role, subject("roleBindings", { groupUid: ORG, identityUid: id.uid, roleUid: role.uid }));
        },
      ],
    ],
    compliant: () => {
      const id = ci(ENG);
      return world(id, subject("roleBindings", { groupUid: ENG, identityUid: id.uid, roleUid: OWNER }));
    },
  },
  "irv-claim-match-too-broad": {
    violating: [
      ["no anchor", () => claim({ issuer: GITHUB, subjectPattern: "repo:acme/infra:ref:refs/heads/.*" })],
      ["a leading .*", () => claim({ issuer: GITHUB, subjectPattern: "^.*:ref:refs/heads/main$" })],
      ["every repository on GitHub Actions", () => claim({ issuer: GITHUB, subjectPattern: "^repo:[^:]+:ref:refs/heads/main$" })],
      ["an issuer pattern with a leading .*", () => claim({ issuerPattern: "^.*$", subject: "repo:acme/infra:ref:refs/heads/main" })],
    ],
    compliant: () => claim({ issuer: GITHUB, subjectPattern: "^repo:acme/[a-z-]+:ref:refs/heads/main$" }),
  },
  "irv-issuer-not-https": {
    violating: [
      ["a claimMatch issuer", () => claim({ issuer: "http://127.0.0.1:8080", subject: "ci" })],
      [
        "an identity provider's issuer",
        () => world(subject("identityProviders", { groupUid: ENG, name: "sso", oidc: { issuer: "http://localhost:9000", clientId: "x" } })),
      ],
      ["an issuer pattern", () => claim({ issuerPattern: "^http://issuer\\.example$", subject: "ci" })],
    ],
    compliant: () => claim({ issuer: "https://issuer.example", subject: "ci" }),
  },
  "irv-invite-owner-role": { violating: [["owner", () => invite({ roleUid: OWNER })]], compliant: () => invite({}) },
  "irv-invite-lifetime": {
    violating: [
      ["a 14-day ttl", () => invite({ ttl: "1209600s" })],
      ["a 10-day ttl", () => invite({ ttl: "864000s" })],
    ],
    compliant: () => invite({ ttl: "86400s" }),
  },
  "irv-invite-single-use": {
    violating: [
      ["omitted", () => invite({ singleUse: undefined })],
      ["false", () => invite({ singleUse: false })],
    ],
    compliant: () => invite({}),
  },
  "irv-identity-provider-default-role": {
    violating: [
      [
        "owner",
        () =>
          world(subject("identityProviders", { groupUid: ENG, name: "sso", defaultRoleUid: OWNER, oidc: { issuer: "https://sso.example", clientId: "x" } })),
      ],
    ],
    compliant: () =>
      world(subject("identityProviders", { groupUid: ENG, name: "sso", defaultRoleUid: VIEWER, oidc: { issuer: "https://sso.example", clientId: "x" } })),
  },
  "irv-binding-above-identity-group": {
    violating: [
      [
        "by uid: an identity of platform bound in engineering",
        () => {
          const id = ci(PLATFORM);
          return world(id, subject("roleBindings", { groupUid: ENG, identityUid: id.uid, roleUid: OWNER }));
        },
      ],
      [
        "before anything exists: followed through dependencies",
        () => {
          const eng = subject("groups", { parentUid: ORG, name: "eng" });
          const platform = subject("groups", { parentUid: UNKNOWN, name: "platform" }, { deps: { parentUid: [eng] } });
          const id = subject(
            "identities",
            { groupUid: UNKNOWN, name: "ci-0", description: "d", servicePrincipal: "scanner" },
            { deps: { groupUid: [platform] } },
          );
          const role = subject(
            "roles",
            { groupUid: UNKNOWN, name: "releaser", description: "d", capabilities: ["tag.create"] },
            { deps: { groupUid: [platform] } },
          );
          return world(
            eng,
            platform,
            id,
            role,
            subject(
              "roleBindings",
              { groupUid: UNKNOWN, identityUid: UNKNOWN, roleUid: UNKNOWN },
              { deps: { groupUid: [eng], identityUid: [id], roleUid: [role] } },
            ),
          );
        },
      ],
    ],
    compliant: () => {
      const id = ci(PLATFORM);
      return world(id, subject("roleBindings", { groupUid: PLATFORM, identityUid: id.uid, roleUid: OWNER }));
    },
  },
  "irv-role-builtin-name": {
    violating: [["owner", () => world(subject("roles", { groupUid: ENG, name: "owner", description: "d", capabilities: ["repo.list"] }))]],
    compliant: () => world(subject("roles", { groupUid: ENG, name: "releaser", description: "d", capabilities: ["repo.list"] })),
  },
  "irv-missing-description": {
    violating: [
      [
        "an identity",
        () =>
          claim({ issuer: GITHUB, subject: "repo:acme/infra:ref:refs/heads/main" })
            .subjects.map((s) => ({ ...s, inputs: { ...s.inputs, description: undefined } }))
            .reduce((w, s) => ({ ...w, subjects: [s] }), world()),
      ],
      ["a role", () => world(subject("roles", { groupUid: ENG, name: "releaser", capabilities: ["repo.list"] }))],
    ],
    compliant: () => world(subject("roles", { groupUid: ENG, name: "releaser", description: "Publishes tags", capabilities: ["repo.list"] })),
  },
};

describe("every rule", () => {
  it("has cases here", () => expect(Object.keys(CASES).sort()).toEqual(RULES.map((r) => r.id).sort()));

  for (const rule of RULES) {
    describe(rule.id, () => {
      for (const [what, make] of CASES[rule.id].violating) {
        it(`fires on ${what}`, () => {
          const w = make();
          const found = evaluate(w).filter((f) => f.rule === rule.id);
          expect(found.length).toBeGreaterThan(0);
          expect(found[0]).toMatchObject({ enforcementLevel: rule.enforcementLevel, fix: rule.fix });
          expect(w.subjects.map((s) => s.urn)).toContain(found[0].urn);
        });
      }
      it("stays quiet on the compliant twin", () => {
        expect(evaluate(CASES[rule.id].compliant())).toEqual([]);
      });
      it("has a reason and a fix hint of one line", () => {
        expect(rule.reason).toMatch(/^[^\n]+\.$/);
        expect(rule.fix).toMatch(/^[^\n]+\.$/);
      });
    });
  }
});

describe("messages", () => {
  it("a missing description names the resource it is missing from", () => {
    const role = subject("roles", { groupUid: ENG, name: "releaser", capabilities: ["repo.list"] });
    expect(evaluate(world(role)).map((f) => f.message)).toEqual([`iam.Role "${role.name}" has no description`]);
  });
});

describe("settings", () => {
  it("a read-only role above the identity's group passes unless allowReadOnly is false", () => {
    const id = ci(PLATFORM);
    const w = world(id, subject("roleBindings", { groupUid: ORG, identityUid: id.uid, roleUid: VIEWER }));
    expect(evaluate(w)).toEqual([]);
    const strict = evaluate(w, { "irv-binding-above-identity-group": { allowReadOnly: false } });
    expect(strict.map((f) => f.rule)).toEqual(["irv-binding-above-identity-group"]);
  });

  it("maxDays moves the invite limit", () => {
    const w = invite({ ttl: "864000s" });
    expect(evaluate(w).map((f) => f.rule)).toEqual(["irv-invite-lifetime"]);
    expect(evaluate(w, { "irv-invite-lifetime": { maxDays: 14 } })).toEqual([]);
  });

  it("the capabilities setting decides which custom roles count as dangerous", () => {
    const id = ci(ENG);
    const role = subject("roles", { groupUid: ENG, name: "pusher", description: "d", capabilities: ["repo.create"] }, { uid: "d".repeat(40) });
    const w = world(id, role, subject("roleBindings", { groupUid: ORG, identityUid: id.uid, roleUid: role.uid }));
    const rule = "irv-workload-identity-admin-at-root";
    expect(evaluate(w).filter((f) => f.rule === rule)).toEqual([]);
    expect(evaluate(w, { [rule]: { capabilities: ["repo.create"] } }).filter((f) => f.rule === rule)).toHaveLength(1);
  });

  it("levels: a rule's own, else all's, else its default; disabled drops it", () => {
    const w = invite({ singleUse: false });
    expect(evaluate(w)[0].enforcementLevel).toBe("mandatory");
    expect(evaluate(w, { all: "advisory" })[0].enforcementLevel).toBe("advisory");
    expect(evaluate(w, { all: "advisory", "irv-invite-single-use": { enforcementLevel: "mandatory" } })[0].enforcementLevel).toBe("mandatory");
    expect(evaluate(w, { "irv-invite-single-use": "disabled" })).toEqual([]);
  });

  it("parsePolicyConfig takes Pulumi's format and names what is wrong", () => {
    const ok: PolicyConfig = { all: "advisory", "irv-invite-lifetime": { enforcementLevel: "mandatory", maxDays: 3 }, "irv-missing-description": "disabled" };
    expect(parsePolicyConfig(ok)).toEqual(ok);
    expect(() => parsePolicyConfig({ "no-such-rule": "advisory" })).toThrow(/unknown rule "no-such-rule"/);
    expect(() => parsePolicyConfig({ "irv-invite-lifetime": "sometimes" })).toThrow(/enforcementLevel: must be one of advisory, mandatory, disabled/);
    expect(() => parsePolicyConfig({ "irv-invite-lifetime": { maxDays: "7" } })).toThrow(/maxDays: must be an integer/);
    expect(() => parsePolicyConfig({ "irv-invite-lifetime": { maxDayz: 7 } })).toThrow(/unknown setting "maxDayz"/);
    expect(() => parsePolicyConfig([])).toThrow(/JSON object/);
  });
});

describe("a rule that cannot judge", () => {
  // Issue 39: without IRV_* in the engine's environment the pack could not look a role up, and the
  // binding passed as if it had been judged.
  const CUSTOM = "c".repeat(40);
  const why = "IRV_API_URL is not set in the engine's environment";
  const unresolved = (...subjects: Subject[]): World => ({ subjects, now: NOW, unresolved: new Map([[CUSTOM, why]]) });
  it.each<[string, string, () => World]>([
    [
      "irv-workload-identity-admin-at-root",
      "binds a workload identity at the organization's root to role",
      () => {
        const id = ci(ENG);
        return unresolved(id, subject("roleBindings", { groupUid: ORG, identityUid: id.uid, roleUid: CUSTOM }));
      },
    ],
    [
      "irv-identity-provider-default-role",
      "gives every user who signs in role",
      () =>
        unresolved(
          subject("identityProviders", { groupUid: ENG, name: "sso", defaultRoleUid: CUSTOM, oidc: { issuer: "https://login.example", clientId: "x" } }),
        ),
    ],
    [
      "irv-invite-owner-role",
      "invites with role",
      () => unresolved(subject("groupInvites", { groupUid: ENG, roleUid: CUSTOM, ttl: "86400s", singleUse: true })),
    ],
  ])("%s reports a role it could not look up, saying why, at its level", (rule, says, w) => {
    const found = evaluate(w()).filter((f) => f.rule === rule);
    expect(found.map((f) => f.enforcementLevel)).toEqual(["mandatory"]);
    expect(found[0].message).toBe(`${says} ${CUSTOM}, which could not be looked up to judge it: ${why}`);
  });

  it("needs no lookup for a built-in role: its uid is a constant", () => {
    const owner = builtinRoleUid("owner");
    const id = ci(ENG);
    const w: World = { subjects: [id, subject("roleBindings", { groupUid: ORG, identityUid: id.uid, roleUid: owner })], now: NOW, unresolved: new Map() };
    expect(uidsToLookUp(w)).toEqual([]);
    expect(
      evaluate(w)
        .filter((f) => f.rule === "irv-workload-identity-admin-at-root")
        .map((f) => f.message),
    ).toEqual(["binds a workload identity to the built-in role owner at the organization's root"]);
  });
});

describe("uidsToLookUp", () => {
  it("names the roles and identities the program refers to by uid and does not declare", () => {
    const id = ci(ENG);
    const w = world(
      id,
      subject("roleBindings", { groupUid: ORG, identityUid: id.uid, roleUid: OWNER }),
      subject("groupInvites", { groupUid: ENG, roleUid: UNKNOWN }),
    );
    expect(uidsToLookUp(w)).toEqual([{ kind: "roles", uid: OWNER }]);
  });
});
