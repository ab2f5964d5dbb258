/**
 * The access model against a brute-force oracle on random organizations (fast-check): can-i,
 * who-can and the access a change gains and loses agree with checking every (subject,
 * capability, group) triple by walking each group's parents; then what the items of a stack or
 * the API become (maybes, invites, identity providers, roles that could not be read).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AccessModel, diffAccess, orgOfItems, isIamWrite, type Org } from "../../policy/access";
import { BUILTIN_ROLES } from "../../api/capabilities";

const CAPS = ["groups.list", "groups.create", "identity.create", "role_bindings.create", "roles.list", "repo.list"];

/** A random organization: a tree of groups (each group's parent drawn among the earlier ones), roles, subjects and bindings. */
const orgArb = (groups: number) =>
  fc.record({
    parents: fc.array(fc.nat(), { minLength: groups - 1, maxLength: groups - 1 }),
    roles: fc.array(fc.option(fc.subarray(CAPS), { freq: 6 }), { minLength: 1, maxLength: 4 }),
    bindings: fc.array(fc.record({ group: fc.nat(groups - 1), subject: fc.nat(3), role: fc.nat(3) }), { maxLength: 12 }),
  });

type OrgShape = { parents: number[]; roles: (string[] | null)[]; bindings: { group: number; subject: number; role: number }[] };

function orgOf(spec: OrgShape, only?: (i: number) => boolean): Org {
  const g = (i: number) => `g${i}`;
  return {
    groups: [{ key: g(0), name: "root" }, ...spec.parents.map((p, i) => ({ key: g(i + 1), name: `n${i + 1}`, parent: g(p % (i + 1)) }))],
    roles: spec.roles.map((caps, i) => ({ key: `r${i}`, name: `role${i}`, capabilities: caps ?? undefined })),
    subjects: [0, 1, 2, 3].map((i) => ({ key: `s${i}`, name: `id${i}`, type: "claimMatch" as const })),
    bindings: spec.bindings
      .map((b, i) => ({
        key: `b${i}`,
        name: `b${i}`,
        source: "roleBindings" as const,
        group: g(b.group),
        subject: `s${b.subject}`,
        role: `r${b.role % spec.roles.length}`,
      }))
      .filter((_, i) => !only || only(i)),
    unseen: [],
  };
}

/** The oracle: does `s` hold `c` on `g`? Every binding, every ancestor, no index. */
function holds(org: Org, s: string, c: string, g: string): "yes" | "no" | "unknown" {
  const parent = new Map(org.groups.map((x) => [x.key, x.parent]));
  const chain: string[] = [];
  for (let x: string | undefined = g; x !== undefined; x = parent.get(x)) chain.push(x);
  let unknown = false;
  for (const b of org.bindings) {
    if (b.subject !== s || !chain.includes(b.group)) continue;
    const caps = org.roles.find((r) => r.key === b.role)!.capabilities;
    if (!caps) unknown = true;
    else if (caps.includes(c)) return "yes";
  }
  return unknown ? "unknown" : "no";
}

describe("the access model against a brute-force oracle", () => {
  it("answers can-i and who-can as checking every binding on every ancestor does", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 14 }).chain(orgArb), (spec) => {
        const org = orgOf(spec);
        const m = new AccessModel(org);
        for (const g of org.groups)
          for (const c of CAPS) {
            for (const s of org.subjects) expect(m.canI(s.key, c, g.key).answer).toBe(holds(org, s.key, c, g.key));
            const who = new Set(m.whoCan(c, g.key).grants.map((x) => x.subject));
            expect(who).toEqual(new Set(org.subjects.filter((s) => holds(org, s.key, c, g.key) === "yes").map((s) => s.key)));
          }
      }),
      { numRuns: 150 },
    );
  });

  it("gains and loses exactly the triples the oracle finds held after and not before, and the reverse", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }).chain(orgArb), fc.func(fc.boolean()), fc.func(fc.boolean()), (spec, inBefore, inAfter) => {
        const before = orgOf(spec, (i) => inBefore(i));
        const after = orgOf(spec, (i) => inAfter(i));
        const mb = new AccessModel(before);
        const ma = new AccessModel(after);
        const d = diffAccess(mb, ma);
        const expand = (deltas: typeof d.gained, m: AccessModel) => {
          const out = new Set<string>();
          for (const x of deltas) {
            let n = 0;
            for (const g of m.groups.keys()) {
              const up = m.ancestors(g);
              if (up.includes(x.group) && !x.except.some((e) => up.includes(e))) (out.add(`${x.subject} ${x.capability} ${g}`), n++);
            }
            expect(x.groups).toBe(n);
          }
          return out;
        };
        const want = (a: Org, b: Org) => {
          const out = new Set<string>();
          for (const g of a.groups)
            for (const c of CAPS)
              for (const s of a.subjects) if (holds(a, s.key, c, g.key) === "yes" && holds(b, s.key, c, g.key) !== "yes") out.add(`${s.key} ${c} ${g.key}`);
          return out;
        };
        expect(expand(d.gained, ma)).toEqual(want(after, before));
        expect(expand(d.lost, mb)).toEqual(want(before, after));
      }),
      { numRuns: 150 },
    );
  });
});

describe("the organization of a stack's or the API's items", () => {
  const ORG = "a".repeat(40);
  const ENG = `${ORG}/${"1".repeat(16)}`;
  const OWNER = "0".repeat(39) + "1";

  it("reads claim patterns as maybes, invites and identity providers as grants to whoever uses them, built-in roles by their hydrated name", () => {
    const org = orgOfItems([
      { kind: "groups", key: ENG, uid: ENG, label: "eng", fields: { parentUid: ORG, name: "engineering" } },
      {
        kind: "identities",
        key: "urn:ci",
        label: "ci",
        fields: { groupUid: ENG, name: "ci", claimMatch: { issuer: "https://gh", subjectPattern: "^repo:acme/.*$" } },
      },
      { kind: "identities", key: "urn:svc", label: "svc", fields: { groupUid: ENG, name: "svc", servicePrincipal: "COSIGNED" } },
      {
        kind: "roleBindings",
        key: "urn:b",
        label: "ci-owner",
        fields: { groupUid: ENG, identityUid: "04da6b54-80e4-46f7-96ec-b56ff0331ba9", roleUid: OWNER, role: { uid: OWNER, name: "owner" } },
        deps: { identityUid: ["urn:ci"] },
      },
      { kind: "groupInvites", key: "urn:inv", label: "invite", fields: { groupUid: ENG, roleUid: OWNER } },
      { kind: "identityProviders", key: "urn:idp", label: "okta", fields: { groupUid: ENG, name: "okta", defaultRoleUid: "f".repeat(40) } },
    ]);
    const m = new AccessModel(org);
    // The binding's identity is not known at preview (the engine's sentinel): its dependency names it.
    expect(m.bindings.get("urn:b")!.subject).toBe("urn:ci");
    expect(m.subjects.get("urn:ci")!.maybe).toBe('every token whose subject matches "^repo:acme/.*$"');
    expect(m.subjects.get("urn:svc")!.maybe).toBeUndefined();
    expect(m.canI("urn:ci", "role_bindings.create", ENG).answer).toBe("yes");
    expect(m.canI("urn:inv", "identity.create", ENG).grants[0]).toMatchObject({ binding: "urn:inv", role: OWNER, inherited: false });
    // A root-uid role that is not a built-in name, not listed: unknown, and said so.
    expect(m.canI("urn:idp", "groups.list", ENG).answer).toBe("unknown");
    expect(org.unseen).toEqual([`the capabilities of role ${"f".repeat(40)}: what its bindings grant is unknown`]);
    expect(m.roles.get(OWNER)!.capabilities).toEqual(BUILTIN_ROLES.owner.capabilities);
  });

  it("keeps names printable: a terminal escape or a line break in hostile data is replaced", () => {
    const org = orgOfItems([
      {
        kind: "identities",
        key: "k",
        label: "x",
        fields: { groupUid: ENG, name: "ci\u001b]52;c;bad\u0007\nyes: root", claimMatch: { issuer: "https://i", subjectPattern: "a\u009b2J" } },
      },
    ]);
    expect(org.subjects[0].name).toBe("ci\ufffd]52;c;bad\ufffd\ufffdyes: root");
    expect(org.subjects[0].maybe).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it("tells IAM writes from reads and registry writes", () => {
    expect(isIamWrite("role_bindings.create")).toBe(true);
    expect(isIamWrite("identity.create")).toBe(true);
    expect(isIamWrite("groups.list")).toBe(false);
    expect(isIamWrite("repo.create")).toBe(false);
  });
});
