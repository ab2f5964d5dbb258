/**
 * The examples of the reference pages (docs/resources, docs/functions), one per resource and
 * function, keyed by type token. Inputs are typed by the TypeScript SDK's own argument types, so
 * a renamed or retyped property fails the type check; test/docs/docs.test.ts runs every example
 * through the plugin schema and the provider's check, so an example cannot rot.
 *
 * A value `${name}` stands for the stack config value `name` (declared in CONFIG): the TypeScript
 * example reads it with `config.require` (or `requireSecret`), the YAML one as `${name}`.
 */
import type * as irv from "../../sdk";

/** A config value the examples read, with a well-formed stand-in used to check the examples. */
export interface ConfigValue {
  description: string;
  /** Set with `pulumi config set --secret`. */
  secret?: boolean;
  /** A value of the right shape, for checking the example (never shown). */
  standIn: string;
}

const ORG = "5b0c4b7e1f2a3d4c5b6a7980a1b2c3d4e5f60718";
const GROUP = `${ORG}/35f614a52160e04f`;

/** Every config value the examples use. */
export const CONFIG: Record<string, ConfigValue> = {
  organization: { description: "the organization's uid (its root group)", standIn: ORG },
  groupUid: { description: "the uid of a group", standIn: GROUP },
  identityUid: { description: "the uid of an identity", standIn: `${GROUP}/c8eb45fc5d7d4903` },
  roleUid: { description: "the uid of a role", standIn: `${GROUP}/b04df24df5c7eb4d` },
  repoUid: { description: "the uid of a registry repository", standIn: `${ORG}/0a8f9e18de569720` },
  ssoClientSecret: { description: "the OIDC client secret", secret: true, standIn: "s3cr3t-from-the-idp" },
};

/** One resource example: its logical name, inputs, and what the page should add about the kind. */
export interface ResourceExample<Args> {
  name: string;
  inputs: Args;
  /** Facts about the kind that the schema cannot say, one sentence each. */
  notes?: string[];
  /** What to know when importing it, beyond "by its uid". */
  importNotes?: string[];
}

/** One function example: its arguments and the result property the example exports. */
export interface FunctionExample {
  args: Record<string, unknown>;
  /** The result property shown: exported as a stack output. */
  show: string;
}

/** Without the options every resource takes (`adoptUid`, `__timeouts`), which no example sets. */
type Inputs<A> = Omit<A, "adoptUid" | "__timeouts">;

/** The resource examples, by type token. */
export const RESOURCE_EXAMPLES: {
  "irv:iam:Group": ResourceExample<Inputs<irv.iam.GroupArgs>>;
  "irv:iam:Identity": ResourceExample<Inputs<irv.iam.IdentityArgs>>;
  "irv:iam:Role": ResourceExample<Inputs<irv.iam.RoleArgs>>;
  "irv:iam:RoleBinding": ResourceExample<Inputs<irv.iam.RoleBindingArgs>>;
  "irv:iam:IdentityProvider": ResourceExample<Inputs<irv.iam.IdentityProviderArgs>>;
  "irv:iam:AccountAssociation": ResourceExample<Inputs<irv.iam.AccountAssociationArgs>>;
  "irv:iam:GroupInvite": ResourceExample<Inputs<irv.iam.GroupInviteArgs>>;
} = {
  "irv:iam:Group": {
    name: "engineering",
    inputs: { parentUid: "${organization}", name: "engineering", description: "Everyone who builds the product" },
    notes: ["Deleting a group that still holds anything fails with the API's reason; Pulumi deletes a group's contents first when the program declares them."],
  },
  "irv:iam:Identity": {
    name: "release-ci",
    inputs: {
      groupUid: "${groupUid}",
      name: "release-ci",
      description: "GitHub Actions jobs on acme/product's main branch",
      claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/product:ref:refs/heads/main" },
    },
    notes: [
      "An identity takes exactly one of `claimMatch`, `staticKeys`, `awsIdentity` and `servicePrincipal` (its relationship type); changing which one it takes replaces it.",
      "Patterns (`issuerPattern`, `subjectPattern`, ...) are RE2, the platform's syntax: no backreferences or lookaround.",
    ],
  },
  "irv:iam:Role": {
    name: "releaser",
    inputs: { groupUid: "${groupUid}", name: "releaser", description: "Publishes release tags", capabilities: ["repo.list", "tag.list", "tag.create", "tag.update"] },
    notes: [
      "Capabilities are compared as a set: reordering them is no change.",
      "The credentials Pulumi runs with must hold every capability they put in a role.",
    ],
  },
  "irv:iam:RoleBinding": {
    name: "release-ci-releaser",
    inputs: { groupUid: "${groupUid}", identityUid: "${identityUid}", roleUid: "${roleUid}" },
    notes: [
      "The identity and the role update in place; another group replaces the binding.",
      "That the identity and the role exist is checked by the API at `pulumi up`, not at preview.",
    ],
  },
  "irv:iam:IdentityProvider": {
    name: "sso",
    inputs: {
      groupUid: "${groupUid}",
      name: "acme-sso",
      description: "Company single sign-on",
      defaultRoleUid: "${roleUid}",
      oidc: { issuer: "https://login.acme.example", clientId: "irv-platform", clientSecret: "${ssoClientSecret}", additionalScopes: ["email", "profile"] },
    },
    notes: [
      "`oidc.clientSecret` is write-only on the API: it is never read back, so its drift cannot be seen. Creating an identity provider needs it.",
      "The dynamic classes (`pulumi-irv`) keep the whole `oidc` block secret in state; the resource plugin keeps only `clientSecret` secret.",
    ],
    importNotes: [
      "The client secret is not imported (the API never returns it). A program without one previews no change; once the program states one, the next `pulumi up` writes it.",
    ],
  },
  "irv:iam:AccountAssociation": {
    name: "accounts",
    inputs: { groupUid: "${groupUid}", name: "accounts", amazon: { account: "123456789012" }, github: { installations: [{ id: "12345678", name: "acme" }] } },
    notes: ["A group has at most one account association, so its uid is the group's uid; a replacement deletes the old one first."],
    importNotes: ["Import it by its group's uid."],
  },
  "irv:iam:GroupInvite": {
    name: "security-invite",
    inputs: { groupUid: "${groupUid}", roleUid: "${roleUid}", ttl: "86400s", singleUse: true },
    notes: [
      "Invites cannot be updated: changing any input replaces the invite.",
      "Give `ttl` or `expirationTime`. The `code` output is secret and returned by create only.",
    ],
    importNotes: ["An imported invite declares its `expirationTime` (or the `ttl` it was made with); its `code` is null, because only create returns it."],
  },
};

/** The function examples, by function token. */
export const FUNCTION_EXAMPLES: Record<string, FunctionExample> = {
  "irv:iam:getGroup": { args: { name: "engineering", parentUid: "${organization}" }, show: "uid" },
  "irv:iam:getRole": { args: { name: "viewer" }, show: "uid" },
  "irv:iam:getRoles": { args: { builtin: true }, show: "roles" },
  "irv:iam:getIdentity": { args: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/product:ref:refs/heads/main" }, show: "uid" },
  "irv:registry:getRepos": { args: { descendantsOf: "${organization}" }, show: "repos" },
  "irv:registry:getRepo": { args: { name: "nginx" }, show: "uid" },
  "irv:registry:getTags": { args: { repoUid: "${repoUid}" }, show: "tags" },
  "irv:vulnerabilities:getAdvisories": { args: { query: "openssl" }, show: "advisories" },
  "irv:vulnerabilities:getAdvisory": { args: { advisoryId: "CGA-2f6q-8x7c-3r4v" }, show: "aliases" },
};
