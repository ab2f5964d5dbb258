/**
 * One live resource of every kind, made over the API as someone would by hand: a group with a
 * subgroup, an identity of each of the four relationship types, a custom role, a binding, an
 * identity provider (with a client secret the API never returns), an account association, an
 * invite and an events subscription. Import tests take these over and check that nothing changes.
 */
import { definitionOf, tokenOf, type Kind } from "../../api/kinds";
import { listAll, path as apiPath, type Api } from "./server";

/** A public JWKS (no private members), for a static-keys identity. */
export const JWKS = JSON.stringify({
  keys: [{ kty: "EC", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0" }],
});

/** The client secret the identity provider was made with (the API never returns it). */
export const IDP_CLIENT_SECRET = "idp-secret-5c0e91";

/** The uids of what `makeEveryKind` made, by a short name. */
export interface EveryKind {
  team: string;
  subteam: string;
  ci: string;
  keys: string;
  aws: string;
  syncer: string;
  deployer: string;
  binding: string;
  sso: string;
  accounts: string;
  invite: string;
  subscription: string;
  repo: string;
  tag: string;
  /** A built-in role (outside the team), which the invite and the IdP refer to. */
  viewer: string;
}

/** What `makeEveryKind` made: the uids, and the static keys' expiration (a value the program must repeat). */
export interface MadeByHand extends EveryKind {
  keysExpiration: string;
}

/** POSTs a create under `parent` and returns the new uid; throws with the API's answer otherwise. */
export async function make(api: Api, collection: Parameters<typeof apiPath>[0], parent: string, body: object): Promise<string> {
  const res = await api.post(apiPath(collection, parent), body);
  if (res.status !== 200) throw new Error(`create ${collection} under ${parent}: ${res.status} ${res.text}`);
  return res.body.uid as string;
}

/** Makes one resource of every kind under `parent` (the organization), named after `prefix`. */
export async function makeEveryKind(api: Api, parent: string, prefix = "imported"): Promise<MadeByHand> {
  const viewer = (await listAll(api, "roles", { name: "viewer" }))[0].uid as string;
  const team = await make(api, "groups", parent, { name: prefix, description: "Made by hand" });
  const subteam = await make(api, "groups", team, { name: "oncall" });
  const ci = await make(api, "identities", team, {
    name: "ci-0",
    description: "GitHub Actions on main",
    claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app:ref:refs/heads/main", audience: "irv" },
  });
  const expirationTime = new Date(Date.now() + 30 * 86400_000).toISOString().replace(/\.\d+Z$/, ".000Z");
  const keys = await make(api, "identities", team, {
    name: "signer",
    staticKeys: { issuer: "https://keys.example.com", subject: "signer", issuerKeys: JWKS, expirationTime },
  });
  const aws = await make(api, "identities", subteam, {
    name: "runner",
    awsIdentity: { awsAccount: "123456789012", arnPattern: "^arn:aws:iam::123456789012:role/runner-.*$" },
  });
  const syncer = await make(api, "identities", team, { name: "syncer", servicePrincipal: "SERVICE_PRINCIPAL_CATALOG_SYNCER" });
  const deployer = await make(api, "roles", team, { name: "deployer", capabilities: ["CAP_REPO_LIST", "CAP_TAG_LIST", "CAP_REPO_BLOBS_GET"] });
  const binding = await make(api, "roleBindings", team, { identityUid: ci, roleUid: deployer });
  const sso = await make(api, "identityProviders", team, {
    name: "sso",
    defaultRole: viewer,
    oidc: { issuer: "https://login.acme.example", clientId: "irv", clientSecret: IDP_CLIENT_SECRET, additionalScopes: ["email", "profile"] },
  });
  const accounts = await make(api, "accountAssociations", team, {
    name: "accounts",
    amazon: { account: "123456789012" },
    google: { projectId: "acme-prod", projectNumber: "123456789" },
    azure: { tenantId: "3f2b6a4c-8d1e-4f5a-9b7c-0e1d2c3b4a59", clientIds: { ci: "7c9e6679-7425-40de-944b-e07fc1f90ae7" } },
    chainguard: { serviceBindings: { SERVICE_PRINCIPAL_INGESTER: team } },
    github: { appInstallations: { "1234": { installations: [{ installationId: "42", name: "acme" }] } } },
  });
  const invite = await make(api, "groupInvites", team, { roleUid: viewer, email: "new-hire@acme.example", ttl: "86400s" });
  const subscription = await make(api, "subscriptions", team, { sink: `https://hooks.acme.example/${prefix}?token=t0k3n` });
  const repo = await make(api, "repos", team, {
    name: "app",
    description: "Our app's images",
    catalogTier: "CATALOG_TIER_APPLICATION",
    bundles: ["application"],
    aliases: ["acme-app"],
    activeTags: ["latest"],
  });
  const tag = await make(api, "tags", repo, { name: "latest", digest: `sha256:${"5e".repeat(32)}`, bundles: ["application"] });
  return { team, subteam, ci, keys, aws, syncer, deployer, binding, sso, accounts, invite, subscription, repo, tag, viewer, keysExpiration: expirationTime };
}

/**
 * The resources of `makeEveryKind` as one `pulumi import --file` takes them: logical name, type
 * token, key of its uid. The account association is imported apart: its uid is its group's, and
 * the code generator writes references only for uids that one imported resource holds.
 */
export const BY_FILE: [string, string, keyof EveryKind][] = (
  [
    ["team", "groups", "team"],
    ["oncall", "groups", "subteam"],
    ["ci", "identities", "ci"],
    ["signer", "identities", "keys"],
    ["runner", "identities", "aws"],
    ["syncer", "identities", "syncer"],
    ["deployer", "roles", "deployer"],
    ["ci-deployer", "roleBindings", "binding"],
    ["sso", "identityProviders", "sso"],
    ["invite", "groupInvites", "invite"],
    ["hook", "subscriptions", "subscription"],
    ["app", "repos", "repo"],
  ] as [string, Kind, keyof EveryKind][]
).map(([name, kind, key]) => [name, tokenOf(definitionOf(kind)), key]);
