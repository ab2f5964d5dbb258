/**
 * Pins the public SDK surface: compiled by types.test.ts with the TypeScript compiler. A change
 * that breaks a program written against these names fails the build of this file. Each
 * `@ts-expect-error` pins something that must stay an error.
 */
import * as pulumi from "@pulumi/pulumi";
import * as irv from "../../dynamic";

declare const org: string;

const eng: irv.iam.Group = new irv.iam.Group("eng", { parentUid: org, name: "engineering", description: "d" });
const uid: pulumi.Output<string> = eng.uid;
const parent: pulumi.Output<string> = eng.parentUid;
const times: pulumi.Output<string>[] = [eng.createTime, eng.updateTime];
new irv.iam.Group("adopted", { parentUid: org, name: "x-0", adoptUid: "uid" }, { customTimeouts: { create: "5m" } });
// @ts-expect-error name is required
new irv.iam.Group("bad", { parentUid: org });

const ci = new irv.iam.Identity("ci", {
  groupUid: eng.uid,
  name: "ci-0",
  claimMatch: { issuer: "https://token.actions.githubusercontent.com", subjectPattern: pulumi.output("repo:acme/.*") },
});
const cm: pulumi.Output<irv.iam.ClaimMatch | undefined> = ci.claimMatch;
new irv.iam.Identity("aws", { groupUid: eng.uid, name: "aws", awsIdentity: { awsAccount: "123456789012", arn: "arn" } });
new irv.iam.Identity("svc", { groupUid: eng.uid, name: "svc", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });

// Exactly one identity kind, and service principals from the API's table.
// @ts-expect-error two kinds
new irv.iam.Identity("two", { groupUid: eng.uid, name: "two", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER", awsIdentity: { awsAccount: "123456789012", arn: "arn" } });
// @ts-expect-error no kind
new irv.iam.Identity("none", { groupUid: eng.uid, name: "none" });
// @ts-expect-error not a service principal
new irv.iam.Identity("nope", { groupUid: eng.uid, name: "nope", servicePrincipal: "NOPE" });
const sp: irv.iam.ServicePrincipal = "SERVICE_PRINCIPAL_TENANT_SCANNER";
new irv.iam.Identity("svc-output", { groupUid: eng.uid, name: "svc2", servicePrincipal: pulumi.output(sp) });

const role = new irv.iam.Role("r", { groupUid: eng.uid, name: "r-0", capabilities: ["groups.list", pulumi.output("tag.create" as const)] });
// @ts-expect-error not a capability
new irv.iam.Role("bad-cap", { groupUid: eng.uid, name: "r-0", capabilities: ["groups.list", "tag.frobnicate"] });
const cap: irv.iam.Capability = "repo.blobs.get";
const caps: pulumi.Output<string[]> = role.capabilities;

const viewer: pulumi.Output<irv.iam.RoleResult> = irv.iam.getRoleOutput({ name: "viewer" });
const viewerP: Promise<irv.iam.RoleResult> = irv.iam.getRole({ name: "viewer", groupUid: org });
const binding = new irv.iam.RoleBinding("b", { groupUid: eng.uid, identityUid: ci.uid, roleUid: viewer.uid });
const hydrated: pulumi.Output<string> = binding.identity.apply((i) => i.issuer);
const bindingTime: pulumi.Output<string> = binding.createTime;

const idp = new irv.iam.IdentityProvider("sso", {
  groupUid: eng.uid,
  name: "sso",
  defaultRoleUid: viewer.uid,
  oidc: { issuer: "https://sso.example.com", clientId: "c", clientSecret: pulumi.secret("s"), additionalScopes: ["email"] },
});
const oidc: pulumi.Output<irv.iam.Oidc> = idp.oidc;

new irv.iam.AccountAssociation("acct", {
  groupUid: eng.uid,
  name: "accounts",
  amazon: { account: "123456789012" },
  google: { projectId: "p", projectNumber: "1" },
  azure: { tenantId: "00000000-0000-0000-0000-000000000000", clientIds: {} },
  chainguard: { serviceBindings: {} },
  github: { appInstallations: { "99": { installations: [{ installationId: "1", name: "acme" }] } } },
});

const invite = new irv.iam.GroupInvite("inv", { groupUid: eng.uid, roleUid: viewer.uid, ttl: "86400s", email: "a@example.com", singleUse: true });
const code: pulumi.Output<string | null> = invite.code;
const exp: pulumi.Output<string> = invite.expirationTime;

const g1: Promise<irv.iam.GroupResult> = irv.iam.getGroup({ name: "engineering", parentUid: org });
const g2: pulumi.Output<irv.iam.GroupResult> = irv.iam.getGroupOutput({ uid: org });
const roles: Promise<{ roles: irv.iam.RoleResult[] }> = irv.iam.getRoles({ builtin: true, orderBy: "name desc" });
const who: Promise<irv.iam.IdentityResult> = irv.iam.getIdentity({ issuer: "https://i", subject: "s" });
// With allowMissing, the answer says whether anyone was found; only a found one has a uid.
const maybe: Promise<irv.iam.IdentityResult | irv.iam.MissingIdentity> = irv.iam.getIdentity({ issuer: "https://i", subject: "s", allowMissing: true });
const maybeUid: Promise<string | undefined> = maybe.then((r) => (r.found ? r.uid : undefined));
// @ts-expect-error without checking found, there may be no uid
const unchecked: Promise<string> = maybe.then((r) => r.uid);
const maybeOut: pulumi.Output<irv.iam.IdentityResult | irv.iam.MissingIdentity> = irv.iam.getIdentityOutput({ issuer: pulumi.output("https://i"), subject: "s", allowMissing: true });
const repos: Promise<{ repos: irv.registry.RepoResult[] }> = irv.registry.getRepos({ descendantsOf: org, orderBy: "name" });
const repo: pulumi.Output<irv.registry.RepoResult> = irv.registry.getRepoOutput({ name: "nginx" });
const tags: Promise<{ tags: irv.registry.TagResult[] }> = irv.registry.getTags({ repoUid: "r", updatedSince: "2026-01-01T00:00:00.000Z" });
const advisories: Promise<{ advisories: irv.vulnerabilities.Advisory[] }> = irv.vulnerabilities.getAdvisories({ aliases: ["CVE-2024-1"], query: "ssl" });
// Every getXOutput argument is an Input.
const repoTags: pulumi.Output<{ tags: irv.registry.TagResult[] }> = irv.registry.getTagsOutput({ repoUid: repo.uid, name: pulumi.output("latest") });
const byName: pulumi.Output<irv.iam.GroupResult> = irv.iam.getGroupOutput({ name: pulumi.output("platform"), parentUid: eng.uid });
const someIds = irv.iam.getRolesOutput({ ids: [role.uid, "r2"], inRoot: pulumi.output(true) });
const advisory: pulumi.Output<irv.vulnerabilities.Advisory> = irv.vulnerabilities.getAdvisoryOutput({ advisoryId: "CGA-1" });

const refs: irv.iam.Group = irv.iam.Group.get("ref", "uid");
const refRole: irv.iam.Role = irv.iam.Role.get("ref-role", "uid");

export { maybe, maybeUid, unchecked, maybeOut };
export { cap, repoTags, byName, someIds, uid, parent, times, cm, caps, viewerP, hydrated, bindingTime, oidc, code, exp, g1, g2, roles, who, repos, repo, tags, advisories, advisory, refs, refRole };
