import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT } from "../support/engine";
import { BY_FILE, IDP_CLIENT_SECRET, JWKS, makeEveryKind, type MadeByHand } from "../support/every-kind";
import { path as apiPath, useServer } from "../support/server";
import { yamlProject, type YamlProject } from "../support/yaml-project";

// `pulumi import` (one command for eleven resources, and the one-resource form) and the `import`
// resource option, for every kind and each identity type, through the plain CLI, the YAML
// language host and the resource plugin, in one stack: the code `--out` writes previews no
// change, the write-only fields behave as the README says, refresh keeps it so, destroy ends it.

/** Outputs the API computes: never in the code an import writes. */
const COMPUTED = ["uid:", "createTime", "updateTime", "keyId", "code:", "lastSeenTime", "verified", "clientSecret"];
const SECRET_CONFIG = "  ssoSecret:\n    type: string\n    secret: true\n";

/** The program declaring `m` with the `import` option on every resource, as one writes it: references between them. */
function declaredWithImport(m: MadeByHand, org: string): string {
  const r = (name: string, type: string, uid: string, props: string[]) =>
    `  ${name}:\n    type: ${type.includes(":") ? type : `irv:iam:${type}`}\n    properties:\n${props.map((l) => `      ${l}\n`).join("")}    options:\n      import: ${uid}\n`;
  const inTeam = "groupUid: ${a-team.uid}";
  return [
    r("a-team", "Group", m.team, [`parentUid: ${org}`, "name: adopted", "description: Made by hand"]),
    r("a-oncall", "Group", m.subteam, ["parentUid: ${a-team.uid}", "name: oncall"]),
    r("a-ci", "Identity", m.ci, [
      inTeam,
      "name: ci-0",
      "description: GitHub Actions on main",
      "claimMatch:",
      "  issuer: https://token.actions.githubusercontent.com",
      "  subject: repo:acme/app:ref:refs/heads/main",
      "  audience: irv",
    ]),
    r("a-signer", "Identity", m.keys, [
      inTeam,
      "name: signer",
      "staticKeys:",
      "  issuer: https://keys.example.com",
      "  subject: signer",
      `  issuerKeys: '${JWKS}'`,
      `  expirationTime: ${m.keysExpiration}`,
    ]),
    r("a-runner", "Identity", m.aws, [
      "groupUid: ${a-oncall.uid}",
      "name: runner",
      "awsIdentity:",
      "  awsAccount: '123456789012'",
      "  arnPattern: ^arn:aws:iam::123456789012:role/runner-.*$",
    ]),
    r("a-syncer", "Identity", m.syncer, [inTeam, "name: syncer", "servicePrincipal: SERVICE_PRINCIPAL_CATALOG_SYNCER"]),
    // Capabilities in another order than the API keeps them: a set.
    r("a-deployer", "Role", m.deployer, [inTeam, "name: deployer", "capabilities: [tag.list, repo.blobs.get, repo.list]"]),
    r("a-ci-deployer", "RoleBinding", m.binding, [inTeam, "identityUid: ${a-ci.uid}", "roleUid: ${a-deployer.uid}"]),
    r("a-sso", "IdentityProvider", m.sso, [
      inTeam,
      "name: sso",
      `defaultRoleUid: ${m.viewer}`,
      "oidc:",
      "  issuer: https://login.acme.example",
      "  clientId: irv",
      "  clientSecret: ${ssoSecret}",
      "  additionalScopes: [email, profile]",
    ]),
    r("a-accounts", "AccountAssociation", m.accounts, [
      inTeam,
      "name: accounts",
      "amazon:",
      "  account: '123456789012'",
      "google: { projectId: acme-prod, projectNumber: '123456789' }",
      "azure:",
      "  tenantId: 3f2b6a4c-8d1e-4f5a-9b7c-0e1d2c3b4a59",
      "  clientIds: { ci: 7c9e6679-7425-40de-944b-e07fc1f90ae7 }",
      "chainguard:",
      "  serviceBindings:",
      "    SERVICE_PRINCIPAL_INGESTER: ${a-team.uid}",
      "github:",
      "  appInstallations:",
      "    '1234':",
      "      installations:",
      "        - installationId: '42'",
      "          name: acme",
    ]),
    // The ttl it was made with, not its expiration: the invite lives exactly that long, so it matches.
    r("a-invite", "GroupInvite", m.invite, [inTeam, `roleUid: ${m.viewer}`, "email: new-hire@acme.example", "ttl: 86400s"]),
    r("a-hook", "irv:events:Subscription", m.subscription, ["parentUid: ${a-team.uid}", "sink: https://hooks.acme.example/adopted?token=t0k3n"]),
    // Aliases and bundles in any order: sets.
    r("a-app", "irv:registry:Repo", m.repo, [
      "parentUid: ${a-team.uid}",
      "name: app",
      "description: Our app's images",
      "catalogTier: APPLICATION",
      "bundles: [application]",
      "aliases: [acme-app]",
      "activeTags: [latest]",
    ]),
    r("a-latest", "irv:registry:Tag", m.tag, ["repoUid: ${a-app.uid}", "name: latest", `digest: sha256:${"5e".repeat(32)}`, "bundles: [application]"]),
  ].join("");
}

describe("pulumi import and the import option, every kind, through the resource plugin", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  let p: YamlProject;
  beforeAll(async () => {
    p = await yamlProject("imports", ctx.server);
  });
  afterAll(() => p?.dispose());

  it("imports, previews no change, writes a stated client secret once, refreshes and destroys", async () => {
    const org = ctx.server.organization;
    const m = await makeEveryKind(ctx.api, org, "by-hand");

    // Eleven resources in one `pulumi import --file`; the account association in the one-resource
    // form, after them: its uid is its group's, and the code generator writes references only for
    // uids that one imported resource holds (in one command, the group would be a literal uid,
    // and its children would not depend on it).
    const file = path.join(p.base, "import.json");
    writeFileSync(file, JSON.stringify({ resources: BY_FILE.map(([name, type, key]) => ({ type, name, id: m[key] })) }));
    await p.pulumi("import", "--file", file, "--yes", "--protect=false", "--out", path.join(p.base, "file.yaml"));
    await p.pulumi("import", "irv:iam:AccountAssociation", "accounts", m.accounts, "--yes", "--protect=false", "--out", path.join(p.base, "accounts.yaml"));
    const code = ["file.yaml", "accounts.yaml"].map((f) => readFileSync(path.join(p.base, f), "utf8").replace(/^resources:\n/, "")).join("");

    // The code declares each resource by its kind, with its inputs and none of its outputs.
    for (const [name, type] of [...BY_FILE, ["accounts", "irv:iam:AccountAssociation"]]) expect(code).toContain(`  ${name}:\n    type: ${type}\n`);
    // References are code: children of the team depend on it, so destroy deletes them first.
    for (const ref of ["parentUid: ${team.id}", "groupUid: ${oncall.id}", "identityUid: ${ci.id}", "roleUid: ${deployer.id}"]) expect(code).toContain(ref);
    expect(code).toMatch(
      /  hook:\n    type: irv:events:Subscription\n    properties:\n      parentUid: \$\{team\.id\}\n      sink: https:\/\/hooks\.acme\.example\/by-hand\?token=t0k3n\n/,
    );
    for (const output of COMPUTED) expect(code).not.toContain(output);
    for (const input of [
      "servicePrincipal: SERVICE_PRINCIPAL_CATALOG_SYNCER",
      "awsAccount: '123456789012'",
      "projectNumber: '123456789'",
      "ci: 7c9e6679-7425-40de-944b-e07fc1f90ae7",
      "tenantId: 3f2b6a4c-8d1e-4f5a-9b7c-0e1d2c3b4a59",
      `expirationTime: ${m.keysExpiration}`,
      "audience: irv",
      "clientId: irv",
      "- tag.list",
      "email: new-hire@acme.example",
    ])
      expect(code).toContain(input);
    const state = await p.resources();
    for (const [name, type, key] of BY_FILE) expect(state.find((r) => r.urn.endsWith(`::${type}::${name}`))?.id).toBe(m[key]);
    // Only create returns an invite's code: an imported invite has none.
    expect(state.find((r) => r.urn.endsWith("::invite"))?.outputs?.code).toBeNull();

    // That code, as the program, previews no change.
    p.write(code);
    expect((await p.previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 14 });

    // The API never returns the client secret, so the imported state has none: stating one is an
    // update of the identity provider only (Pulumi cannot know whether the live one matches), which
    // writes it; then there is no change, and state holds it only as ciphertext.
    await p.pulumi("config", "set", "--secret", "ssoSecret", IDP_CLIENT_SECRET);
    const withSecret = code.replace("        clientId: irv\n", "        clientId: irv\n        clientSecret: ${ssoSecret}\n");
    expect(withSecret).not.toBe(code);
    p.write(withSecret, SECRET_CONFIG);
    const stated = await p.previewJson("--diff");
    expect(stated.changeSummary).toEqual({ update: 1, same: 13 });
    expect(stated.steps.find((s: { op: string }) => s.op === "update").urn).toMatch(/::irv:iam:IdentityProvider::sso$/);
    const before = ctx.server.requests.length;
    await p.pulumi("up", "--yes", "--skip-preview");
    const patches = ctx.server.requests.slice(before).filter((r) => r.method === "PATCH");
    expect(patches.map((r) => [r.path, String(r.query.updateMask)])).toEqual([[apiPath("identityProviders", m.sso), "oidc.client_secret"]]);
    expect((await p.previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 14 });
    expect(p.stateText()).not.toContain(IDP_CLIENT_SECRET);

    // The `import` option on every kind of a second set: an import each, the stated client secret
    // written once more as an update, an invite's ttl matched against its lifetime.
    const second = await makeEveryKind(ctx.api, org, "adopted");
    p.write(`${withSecret}${declaredWithImport(second, org)}`, SECRET_CONFIG);
    const adopting = await p.previewJson();
    expect(adopting.changeSummary).toEqual({ import: 14, update: 1, same: 14 });
    expect(adopting.steps.find((s: { op: string }) => s.op === "update").urn).toMatch(/::irv:iam:IdentityProvider::a-sso$/);
    await p.pulumi("up", "--yes", "--skip-preview");
    expect((await p.previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 28 });
    const adopted = await p.resources();
    for (const key of [
      "team",
      "subteam",
      "ci",
      "keys",
      "aws",
      "syncer",
      "deployer",
      "binding",
      "sso",
      "accounts",
      "invite",
      "subscription",
      "repo",
      "tag",
    ] as const)
      expect(adopted.some((r) => r.id === second[key] && r.urn.includes("::a-"))).toBe(true);

    // Refresh reads it all back unchanged.
    await p.pulumi("refresh", "--yes", "--skip-preview");
    expect((await p.previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 28 });

    // What lies in no group belongs to the platform: importing it fails, saying why.
    await expect(p.pulumi("import", "irv:iam:Role", "viewer", m.viewer, "--yes")).rejects.toThrow(/built-in role\).*cannot be imported/);
    await expect(p.pulumi("import", "irv:iam:Group", "org", org, "--yes")).rejects.toThrow(/organization's root group\).*cannot be imported/);

    await p.pulumi("destroy", "--yes", "--skip-preview");
    for (const uid of [m.team, second.team]) expect((await ctx.api.get(apiPath("groups", uid))).status).toBe(404);
  });
});
