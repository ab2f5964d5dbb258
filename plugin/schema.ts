/**
 * The Pulumi package schema of the `irv` resource plugin, derived from the per-kind definitions
 * in api/kinds and the settings of client/config: nothing here names a field of a kind. Each kind
 * becomes `irv:<module>:<className>` (`irv:iam:Group`, `irv:events:Subscription`); a field's
 * description, secrecy and replace-on-change come from its definition, and its type, with the
 * object and enum types of structured fields (`irv:iam:Oidc`, `irv:iam:ClaimMatch`, ...) in the
 * kind's module, from the zod schemas the server checks (types.ts).
 */
import { KINDS, dynamicTokenOf, tokenOf, type FieldDefinition, type KindDefinition } from "../api/kinds";
import { SETTINGS, type SettingFacts } from "../client/config";
import { kindTypes, tsTypeSpec, type PropertySpec } from "./types";
import { functionSpecs, functionTypes } from "./functions";
import { VERSION } from "./version";

/** The settings the provider takes, with what they mean (which are secret: SETTINGS). */
const SETTING_DOCS: Record<keyof typeof SETTINGS, { description: string }> = {
  apiUrl: { description: "The API base URL." },
  authUrl: { description: "The token issuer's URL; default `<apiUrl>/auth`." },
  token: { description: "A static API token." },
  identity: { description: "The identity uid to assume by token exchange." },
  identityToken: { description: "An OIDC token, or the path of a file holding one, exchanged for `identity`." },
};

function propertyOf(d: KindDefinition, name: string, f: FieldDefinition, asInput: boolean): PropertySpec {
  return {
    ...(kindTypes().fields[d.kind][name] ?? tsTypeSpec(f.type)),
    description: f.description,
    ...(f.secret ? { secret: true } : {}),
    ...(asInput && f.replace ? { replaceOnChanges: true, willReplaceOnChanges: true } : {}),
    // The schema takes only scalar defaults; a list's (`[]`) is the provider's to apply.
    ...(asInput && f.default !== undefined && typeof f.default !== "object" ? { default: f.default } : {}),
  };
}

// The type tokens live with the definitions; the schema's readers may take them from here too.
export { tokenOf, dynamicTokenOf };

const UID: PropertySpec = { type: "string", description: "The resource's uid (also its id)." };
const ADOPT_UID: PropertySpec = {
  type: "string",
  description: "Adopt this existing resource on create instead of creating a new one (dropped once the resource is in state).",
};

/** The resource spec of one kind. */
function resourceOf(d: KindDefinition): PropertySpec {
  const fields = Object.entries(d.fields);
  const inputs = fields.filter(([, f]) => f.input);
  const properties: Record<string, PropertySpec> = { uid: UID };
  for (const [name, f] of fields) properties[name] = propertyOf(d, name, f, false);
  const inputProperties: Record<string, PropertySpec> = {};
  for (const [name, f] of inputs) inputProperties[name] = propertyOf(d, name, f, true);
  inputProperties.adoptUid = ADOPT_UID;
  // Required: the parent, what the create body requires (unless the API computes it when omitted),
  // and, among outputs, also the inputs that have a default or are computed, and what every API item has.
  const required = kindTypes().required[d.kind];
  const requiredInputs = inputs.filter(([name, f]) => name === d.parentField || (required.inputs.includes(name) && !f.computedWhenOmitted)).map(([n]) => n);
  const filled = inputs.filter(([name, f]) => !requiredInputs.includes(name) && (f.default !== undefined || f.computedWhenOmitted)).map(([n]) => n);
  return {
    description: `${d.description} API collection: \`${d.kind}\`.`,
    properties,
    required: ["uid", ...requiredInputs, ...filled, ...required.outputs],
    inputProperties,
    requiredInputs,
    aliases: [{ type: dynamicTokenOf(d) }],
  };
}

/** The provider's configuration variables and its resource's inputs, from client/config. */
function settingsSpecs(): Record<string, PropertySpec> {
  const out: Record<string, PropertySpec> = {};
  for (const [name, { env, secret }] of Object.entries(SETTINGS) as [keyof typeof SETTINGS, SettingFacts][]) {
    out[name] = { type: "string", description: `${SETTING_DOCS[name].description} Falls back to \`${env}\`.`, ...(secret ? { secret: true } : {}) };
  }
  return out;
}

/**
 * The named types: the kinds' object and enum types and the functions' result objects. A type
 * token equal to a resource's would make the generated SDKs declare two things of one name.
 */
function namedTypes(resources: Record<string, unknown>): Record<string, unknown> {
  const types = { ...kindTypes().types, ...functionTypes() };
  for (const token of Object.keys(types))
    if (token in resources) throw new Error(`schema: the type ${token} has the token of a resource; name one of them otherwise`);
  return types;
}

/** The whole package schema. */
export function packageSchema(): Record<string, unknown> {
  const settings = settingsSpecs();
  const resources = Object.fromEntries(KINDS.map((d) => [tokenOf(d), resourceOf(d)]));
  const respectSchemaVersion = { respectSchemaVersion: true };
  return {
    name: "irv",
    displayName: "IRV Platform",
    version: VERSION,
    description: "Manage an organization on the Identity, Registry and Vulnerability Platform as code.",
    keywords: ["pulumi", "irv", "category/utility", "kind/native"],
    license: "Apache-2.0",
    meta: { moduleFormat: "(.*)", supportPack: true },
    config: { variables: settings },
    provider: {
      description: "The irv provider: one instance per organization and set of credentials.",
      properties: settings,
      inputProperties: settings,
    },
    // The resources' object and enum types, and the functions' result objects (plugin/functions.ts).
    types: namedTypes(resources),
    resources,
    functions: functionSpecs(),
    language: {
      nodejs: { packageName: "@pulumi-irv/irv", ...respectSchemaVersion },
      python: { packageName: "pulumi_irv", ...respectSchemaVersion },
      go: { importBasePath: "github.com/pulumi-irv/pulumi-irv/sdk/go/irv", ...respectSchemaVersion },
      csharp: { rootNamespace: "PulumiIrv", ...respectSchemaVersion },
    },
  };
}
