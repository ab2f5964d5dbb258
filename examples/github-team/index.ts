/**
 * Grant every member of a GitHub team a role, the platform's documented pattern: for each GitHub
 * user id of the team, look up the person who signs in as `github|<id>` at the platform's issuer,
 * and bind a role to those who exist. A member who has never signed in has no identity yet: the
 * lookup says `found: false` (not an error), the program skips them, and the next `pulumi up`
 * after their first sign-in binds them. Any other failure of the lookup (the network, a
 * permission) fails the program.
 *
 * In your own project, import the package by name: `import * as irv from "pulumi-irv"`.
 */
import * as pulumi from "@pulumi/pulumi";
import * as irv from "../../dynamic";

/** The platform's issuer: people who sign in to it with GitHub are `github|<id>` there. */
export const PLATFORM_ISSUER = "https://auth.chainguard.dev/";

/** Who to bind, where, and to what. */
export interface GitHubTeamArgs {
  /** The group to grant the role on (config `groupUid`). */
  groupUid?: string;
  /** The numeric GitHub user ids of the team's members (config `githubUserIds`, a JSON list). */
  githubUserIds?: string[];
  /** The issuer people sign in with (config `issuer`); default the platform's. Against irv-server: its `authUrl`. */
  issuer?: string;
  /** The role to grant (config `role`); default the built-in viewer. */
  role?: string;
}

/** Binds the role to every member who has signed in; outputs who was bound and who was skipped. */
export async function program(args: GitHubTeamArgs = {}) {
  const config = new pulumi.Config();
  const groupUid = args.groupUid ?? config.require("groupUid");
  const ids = (args.githubUserIds ?? config.requireObject<(string | number)[]>("githubUserIds")).map(String);
  const issuer = args.issuer ?? config.get("issuer") ?? PLATFORM_ISSUER;
  const role = irv.iam.getRoleOutput({ name: args.role ?? config.get("role") ?? "viewer" });

  // One lookup per member; nobody is `found: false`, any error fails here.
  const members = await Promise.all(
    ids.map(async (id) => ({ id, person: await irv.iam.getIdentity({ issuer, subject: `github|${id}`, allowMissing: true }) })),
  );
  const bound: string[] = [];
  for (const { id, person } of members) {
    if (!person.found) continue;
    new irv.iam.RoleBinding(`github-${id}`, { groupUid, identityUid: person.uid, roleUid: role.uid });
    bound.push(id);
  }
  return { bound, notSignedIn: members.filter((m) => !m.person.found).map((m) => m.id) };
}
