/**
 * Workload identity for CI: a CI job proves who it is with the OIDC token its CI system issues
 * (GitHub Actions, GitLab, Buildkite...), exchanges it for a short-lived API token, and so needs no
 * stored secret. Two programs:
 * - `program`: what an admin declares once: the identity (which tokens may assume it) and what
 *   it may do (a role binding).
 * - `jobProgram`: what the CI job then runs with only `irv:identity` and `irv:identityToken` set.
 *
 * In your own project, import the package by name: `import * as irv from "pulumi-irv"`.
 */
import * as pulumi from "@pulumi/pulumi";
import * as irv from "../../dynamic";

/** Which CI tokens may assume the identity, and where it may act. */
export interface CiIdentityArgs {
  /** The group the CI job works in (config `groupUid`). */
  groupUid?: string;
  /** The CI system's token issuer (config `issuer`); default GitHub Actions. */
  issuer?: string;
  /** The token subject of the allowed jobs (config `subject`). */
  subject?: string;
  /** The audience the job requests its token for (config `audience`); default "irv". */
  audience?: string;
  /** The role the job gets (config `role`); default the built-in viewer. */
  role?: string;
}

/** Declares the CI identity and its role binding; outputs the uid the job sets as irv:identity. */
export async function program(args: CiIdentityArgs = {}) {
  const config = new pulumi.Config();
  const groupUid = args.groupUid ?? config.require("groupUid");
  const issuer = args.issuer ?? config.get("issuer") ?? "https://token.actions.githubusercontent.com";
  const subject = args.subject ?? config.get("subject") ?? "repo:acme/infra:ref:refs/heads/main";
  const audience = args.audience ?? config.get("audience") ?? "irv";

  const ci = new irv.iam.Identity("ci", {
    groupUid,
    name: "ci-deploy",
    description: `CI jobs with subject ${subject}`,
    claimMatch: { issuer, subject, audience },
  });
  const role = irv.iam.getRoleOutput({ name: args.role ?? config.get("role") ?? "viewer" });
  new irv.iam.RoleBinding("ci-binding", { groupUid, identityUid: ci.uid, roleUid: role.uid });

  return { identityUid: ci.uid, roleUid: role.uid };
}

/**
 * What the CI job runs: with a viewer binding it can read the group and its repositories (this
 * program), but any write (a resource) fails with PERMISSION_DENIED.
 */
export async function jobProgram(args: { groupUid?: string } = {}) {
  const groupUid = args.groupUid ?? new pulumi.Config().require("groupUid");
  const group = irv.iam.getGroupOutput({ uid: groupUid });
  const repos = irv.registry.getReposOutput({ descendantsOf: groupUid });
  return {
    groupName: group.name,
    repoNames: repos.repos.apply((rs) => rs.map((r) => r.name).sort()),
  };
}
