import { afterEach, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, createStack, loadSdk, type TestStack } from "../support/engine";
import { useServer } from "../support/server";

type Sdk = ReturnType<typeof loadSdk>;

/** One bad resource each, and what preview must say about it. */
const CASES: { name: string; declare(irv: Sdk, org: string): void; says: RegExp[] }[] = [
  {
    name: "a group name outside the API's pattern",
    declare: (irv, org) => new irv.iam.Group("bad-name", { parentUid: org, name: "Not Allowed!" }),
    says: [/name: must match \^\[a-z0-9 \._-\]\{1,\}\$/],
  },
  {
    name: "an identity with two kinds and a plain-http issuer",
    // Two kinds do not compile in TypeScript; a JavaScript program can still declare them.
    declare: (irv, org) =>
      // @ts-expect-error an identity has exactly one kind
      new irv.iam.Identity("two-kinds", {
        groupUid: org,
        name: "ci-0",
        claimMatch: { issuer: "http://tokens.example.com", subject: "repo:acme/infra" },
        servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
      }),
    says: [/claimMatch\.issuer: must be an https URL/, /only one of claimMatch, staticKeys, awsIdentity, servicePrincipal/],
  },
  {
    name: "a role with an unknown capability",
    declare: (irv, org) => new irv.iam.Role("bad-role", { groupUid: org, name: "r-0", capabilities: ["groups.explode"] as never }),
    says: [/capabilities\.0: is not a known capability/],
  },
  {
    // The engine prints the value it holds for the property: the real one, never `{<nil>}`.
    name: "a role whose second capability is unknown",
    declare: (irv, org) => new irv.iam.Role("bad-cap", { groupUid: org, name: "r-0", capabilities: ["groups.list", "tag.frobnicate"] as never }),
    says: [/property capabilities value \{\[\{groups\.list\} \{tag\.frobnicate\}\]\} has a problem: capabilities\.1: is not a known capability/],
  },
  {
    name: "an identity provider with a bad issuer, its secret kept out of the message",
    declare: (irv, org) =>
      new irv.iam.IdentityProvider("bad-idp", {
        groupUid: org,
        name: "sso",
        defaultRoleUid: org,
        oidc: { issuer: "ftp://x", clientId: "c", clientSecret: "plain-s3cret" },
      }),
    says: [/resource 'bad-idp' has a problem: oidc\.issuer: must be an https URL/],
  },
];

// Bad input is refused at preview time by the provider's check, with the field named; the server
// never sees a write for it.
describe("bad input through the engine", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  let t: TestStack | undefined;
  afterEach(async () => t?.dispose());

  it.each(CASES.map((c, i) => [c.name, i] as const))("fails preview on %s, naming the field", async (_, i) => {
    const irv = loadSdk();
    t = await createStack({
      stackName: `validation-${i}`,
      server: ctx.server,
      program: async () => CASES[i].declare(irv, ctx.server.organization),
    });
    const printed: string[] = [];
    const failure = await t.stack.preview({ onOutput: (s) => printed.push(s) }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(failure).toBeInstanceOf(Error);
    const said = `${failure?.message}\n${printed.join("")}`;
    for (const reason of CASES[i].says) expect(said).toMatch(reason);
    expect(said).not.toContain("<nil>");
    expect(said).not.toContain("plain-s3cret");
    expect(ctx.server.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });
});
