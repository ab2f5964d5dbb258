/**
 * The org example: an organization's teams, who may act in them, and what they may do, declared
 * once. Run it inline (`npm start`, the e2e tests) with `program({ organization })`, or as the
 * root Pulumi project (`pulumi up` in the repository root runs main.ts).
 *
 * In your own project, import the package by name: `import * as irv from "pulumi-irv"`.
 */
import * as pulumi from "@pulumi/pulumi";
import * as irv from "../../dynamic";

/** What the org program needs; each field falls back to stack config, then the environment. */
export interface OrgArgs {
  /** The root group's uid (config `organization`, env IRV_ORGANIZATION). */
  organization?: string;
  /** The OIDC client secret of the identity provider (secret config `oidcClientSecret`). */
  oidcClientSecret?: pulumi.Input<string>;
}

/** The GitHub Actions issuer: the CI identity below is assumed by jobs of one repository. */
const GITHUB_ACTIONS = "https://token.actions.githubusercontent.com";

/** Declares the org; returns the stack outputs. */
export async function program(args: OrgArgs = {}) {
  const config = new pulumi.Config();
  const organization = args.organization ?? config.get("organization") ?? process.env.IRV_ORGANIZATION;
  if (!organization) throw new Error("set the organization uid: config `organization` or IRV_ORGANIZATION");
  const oidcClientSecret = args.oidcClientSecret ?? config.getSecret("oidcClientSecret") ?? pulumi.secret("example-client-secret");

  // Teams: engineering with platform inside it, and security beside it.
  const engineering = new irv.iam.Group("engineering", {
    parentUid: organization,
    name: "engineering",
    description: "Everyone who builds the product",
  });
  const platform = new irv.iam.Group("platform", {
    parentUid: engineering.uid,
    name: "platform",
    description: "Build, release and runtime infrastructure",
  });
  const security = new irv.iam.Group("security", {
    parentUid: organization,
    name: "security",
    description: "Vulnerability response",
  });

  // Built-in roles are looked up by name; a custom role grants exactly the capabilities a job needs.
  const viewer = irv.iam.getRoleOutput({ name: "viewer" });
  const releaser = new irv.iam.Role("releaser", {
    groupUid: platform.uid,
    name: "releaser",
    description: "Publishes release tags",
    capabilities: ["repo.list", "repo.blobs.get", "manifest.list", "manifest.create", "tag.list", "tag.create", "tag.update"],
  });

  // Who: a CI workload (no stored secret: it exchanges its OIDC token) and a scanner service.
  const releaseCi = new irv.iam.Identity("release-ci", {
    groupUid: platform.uid,
    name: "release-ci",
    description: "GitHub Actions jobs on acme/product's main branch",
    claimMatch: { issuer: GITHUB_ACTIONS, subject: "repo:acme/product:ref:refs/heads/main", audience: "irv" },
  });
  const auditor = new irv.iam.Identity("auditor", {
    groupUid: security.uid,
    name: "auditor",
    description: "Nightly audit jobs of any acme repository",
    claimMatch: { issuer: GITHUB_ACTIONS, subjectPattern: "^repo:acme/[a-z-]+:ref:refs/heads/main$" },
  });

  // What: release-ci releases from platform; the auditor reads the whole organization.
  new irv.iam.RoleBinding("release-ci-releaser", {
    groupUid: platform.uid,
    identityUid: releaseCi.uid,
    roleUid: releaser.uid,
  });
  new irv.iam.RoleBinding("auditor-viewer", {
    groupUid: organization,
    identityUid: auditor.uid,
    roleUid: viewer.uid,
  });

  // Single sign-on for people: members of engineering log in through the company's OIDC provider.
  const sso = new irv.iam.IdentityProvider("sso", {
    groupUid: engineering.uid,
    name: "acme-sso",
    description: "Company single sign-on",
    defaultRoleUid: viewer.uid,
    oidc: {
      issuer: "https://login.acme.example",
      clientId: "irv-platform",
      clientSecret: oidcClientSecret,
      additionalScopes: ["email", "profile"],
    },
  });

  // A one-day, single-use invite to join security as a viewer; its code is a secret output.
  const invite = new irv.iam.GroupInvite("security-invite", {
    groupUid: security.uid,
    roleUid: viewer.uid,
    ttl: "86400s",
    singleUse: true,
  });

  // Reads: the built-in roles, the organization's image repositories, and the advisories that
  // mention openssl.
  const roles = irv.iam.getRolesOutput({ builtin: true });
  const repos = irv.registry.getReposOutput({ descendantsOf: organization });
  const advisories = irv.vulnerabilities.getAdvisoriesOutput({ query: "openssl" });

  return {
    engineeringUid: engineering.uid,
    platformUid: platform.uid,
    securityUid: security.uid,
    releaserRoleUid: releaser.uid,
    releaseCiUid: releaseCi.uid,
    auditorUid: auditor.uid,
    identityProviderUid: sso.uid,
    inviteCode: invite.code,
    builtinRoles: roles.roles.apply((rs) => rs.map((r) => r.name).sort()),
    repoCount: repos.repos.apply((rs) => rs.length),
    opensslAdvisoryCount: advisories.advisories.apply((as) => as.length),
  };
}
