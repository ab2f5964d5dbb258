/**
 * The examples of the reference pages (docs/resources, docs/functions), one per resource and
 * function, keyed by type token: a resource's comes from its kind's definition (api/kinds), a
 * function's is here. test/docs/docs.test.ts runs every example through the plugin schema and
 * the provider's check, so an example cannot rot.
 *
 * A value `${name}` stands for the stack config value `name` (declared in CONFIG): the TypeScript
 * example reads it with `config.require` (or `requireSecret`), the YAML one as `${name}`.
 */
import { KINDS, tokenOf, type KindDefinition, type KindExample } from "../../api/kinds";

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
  group: { description: "the uid of a group", standIn: GROUP },
  identity: { description: "the uid of an identity", standIn: `${GROUP}/c8eb45fc5d7d4903` },
  role: { description: "the uid of a role", standIn: `${GROUP}/b04df24df5c7eb4d` },
  repo: { description: "the uid of a registry repository", standIn: `${ORG}/0a8f9e18de569720` },
  ssoClientSecret: { description: "the OIDC client secret", secret: true, standIn: "s3cr3t-from-the-idp" },
};

/** One resource example: the kind's own (api/kinds), with the notes its facts imply. */
export type ResourceExample = KindExample;

/** One function example: its arguments and the result property the example exports. */
export interface FunctionExample {
  args: Record<string, unknown>;
  /** The result property shown: exported as a stack output. */
  show: string;
  /** What to know beyond the arguments, one sentence each (shown above the example). */
  notes?: readonly string[];
}

/** The resource examples, by type token: each kind's, from its definition. */
export const RESOURCE_EXAMPLES: Record<string, ResourceExample> = Object.fromEntries(
  (KINDS as readonly KindDefinition[]).map((k) => [
    tokenOf(k),
    { ...k.example, notes: [...(k.exactlyOne ? [`Give exactly one of ${k.exactlyOne.map((f) => `\`${f}\``).join(", ")}.`] : []), ...(k.example.notes ?? [])] },
  ]),
);

/** The function examples, by function token. */
export const FUNCTION_EXAMPLES: Record<string, FunctionExample> = {
  "irv:iam:getGroup": { args: { name: "engineering", parentUid: "${organization}" }, show: "uid" },
  "irv:iam:getRole": { args: { name: "viewer" }, show: "uid" },
  "irv:iam:getRoles": { args: { builtin: true }, show: "roles" },
  "irv:iam:getIdentity": {
    args: { issuer: "https://auth.chainguard.dev/", subject: "github|1234567", allowMissing: true },
    show: "found",
    notes: [
      "A person who signed in to the platform with GitHub is `github|<numeric GitHub user id>` at the platform's issuer, `https://auth.chainguard.dev/` (irv-server's own issuer is its `authUrl`); a workload identity is found by its claimMatch's exact issuer and subject.",
      "The lookup is the platform's (v1 `Identities.Lookup`, as Terraform's `data \"chainguard_identity\"` calls it): any signed-in caller may look people up; a workload identity is found only by a caller that may list it.",
      "Without `allowMissing`, nobody found fails, naming the issuer and subject. With `allowMissing: true`, nobody is `found: false` and nothing else (no `uid`): bind the people found and skip who has never signed in, with no try/catch, as [examples/github-team](../../examples/github-team/README.md) does.",
      'Only "nobody" is `found: false`: an error of the network, of authentication or of a permission still fails the program.',
      "A person's result has what the lookup gives (uid, name, description, times); a workload identity's has every field.",
    ],
  },
  "irv:registry:getRepos": { args: { descendantsOf: "${organization}" }, show: "repos" },
  "irv:registry:getRepo": { args: { name: "nginx" }, show: "uid" },
  "irv:registry:getTags": { args: { repoUid: "${repo}" }, show: "tags" },
  "irv:registry:getVersions": { args: { package: "nodejs" }, show: "versions" },
  "irv:vulnerabilities:getAdvisories": { args: { query: "openssl" }, show: "advisories" },
  "irv:vulnerabilities:getAdvisory": { args: { advisoryId: "CGA-2f6q-8x7c-3r4v" }, show: "aliases" },
};
