/**
 * The mapping the resource plugin answers `GetMapping("terraform", "chainguard")` with: the
 * Terraform bridge's marshallable provider info (`tfbridge.MarshallableProviderInfo`), which
 * Pulumi's Terraform converter reads for `pulumi convert --from terraform` and `pulumi import
 * --from terraform`. It holds the Terraform schema of what maps (./chainguard.ts), each resource
 * and data source's token, and each attribute's name here. Tokens come from the kinds' and
 * functions' definitions, and every name is checked against the plugin's schema, which derives
 * from them: a field renamed in a definition fails here rather than in a converted program.
 */
import { definitionOf, tokenOf, type Kind } from "../../api/kinds";
import { FUNCTIONS } from "../../api/functions";
import { isRecord } from "../../provider/resources/values";
import { packageSchema } from "../schema";
import { VERSION } from "../version";
import { TERRAFORM_DATA_SOURCES, TERRAFORM_PROVIDER, TERRAFORM_RESOURCES, TERRAFORM_VERSION, type TfMember, type TfNested } from "./chainguard";

type Json = Record<string, unknown>;
type Properties = Record<string, Json>;

/** `tfbridge`'s shim value types, by number (pkg/tfshim: TypeBool = 1 ... TypeSet = 7). */
const VALUE_TYPE = { bool: 1, int: 2, string: 4, list: 5, map: 6, set: 7 } as const;

const isNested = (m: TfMember): m is TfNested => "nested" in m;

/** The camelCase of a Terraform name: `issuer_pattern` -> `issuerPattern`. */
export const camelCase = (tf: string): string => tf.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The name an attribute lands on here, or null. */
export const landingOf = (tf: string, m: TfMember): string | null => (m.to === undefined ? camelCase(tf) : m.to);

/** One attribute's Terraform schema, as `MarshallableSchemaShim`. */
function shimOf(m: TfMember): Json {
  const use = m.use ?? "optional";
  const flags = {
    ...(use === "required" ? { required: true } : {}),
    ...(use === "optional" || use === "optional+computed" ? { optional: true } : {}),
    ...(use === "computed" || use === "optional+computed" ? { computed: true } : {}),
    ...(m.forceNew ? { forceNew: true } : {}),
    ...(!isNested(m) && m.sensitive ? { sensitive: true } : {}),
    ...(m.deprecated ? { deprecated: m.deprecated } : {}),
  };
  if (isNested(m) && m.nested === "object-map") {
    // A map of objects: a map whose element is an object (itself shimmed as a map of a resource).
    return { type: VALUE_TYPE.map, ...flags, element: { schema: { type: VALUE_TYPE.map, element: { resource: resourceShimOf(m.attributes) } } } };
  }
  if (isNested(m)) {
    // As the bridge shims the plugin framework: a single block or object is a map of a resource,
    // a list of blocks or objects a list of one.
    const list = m.nested === "list" || m.nested === "object-list";
    return { type: list ? VALUE_TYPE.list : VALUE_TYPE.map, ...flags, element: { resource: resourceShimOf(m.attributes) } };
  }
  switch (m.type) {
    case "map":
    case "set":
    case "list":
      return { type: VALUE_TYPE[m.type], ...flags, element: { schema: { type: VALUE_TYPE.string } } };
    case "int-map":
      return { type: VALUE_TYPE.map, ...flags, element: { schema: { type: VALUE_TYPE.int } } };
    default:
      return { type: VALUE_TYPE[m.type], ...flags };
  }
}

const resourceShimOf = (attributes: Record<string, TfMember>): Json => Object.fromEntries(Object.entries(attributes).map(([tf, m]) => [tf, shimOf(m)]));

/** A Pulumi schema type's properties, from a property's `$ref` (or its array items'). */
function nestedProperties(p: Json | undefined, types: Record<string, Json>): Properties | undefined {
  const ref = p?.$ref ?? (isRecord(p?.items) ? p.items.$ref : undefined);
  return typeof ref === "string" && ref.startsWith("#/types/") ? (types[ref.slice("#/types/".length)]?.properties as Properties) : undefined;
}

/**
 * The `SchemaInfo` of each attribute that lands here (`{ name }`, with `fields` for a single
 * block, `element.fields` for a list), checked against `properties`, the Pulumi names it may take.
 */
function fieldsOf(attributes: Record<string, TfMember>, properties: Properties, types: Record<string, Json>, where: string): Json {
  const out: Json = {};
  for (const [tf, m] of Object.entries(attributes)) {
    const name = landingOf(tf, m);
    if (name === null) continue;
    const p = properties[name];
    if (!p) throw new Error(`terraform mapping: ${where}.${tf} lands on ${name}, which ${where} does not have`);
    if (!isNested(m)) {
      out[tf] = { name };
      continue;
    }
    const inner = nestedProperties(p, types);
    if (!inner) throw new Error(`terraform mapping: ${where}.${tf} is a block, but ${name} is no object`);
    const fields = fieldsOf(m.attributes, inner, types, `${where}.${tf}`);
    const list = m.nested === "list" || m.nested === "object-list";
    // A list's members, twice: the converter reads a block's body through `element`, but a
    // reference through an index (`items[0].id`) through the list's own `fields`.
    out[tf] = list ? { name, fields, element: { fields } } : { name, fields };
  }
  return out;
}

let cached: Buffer | undefined;

/** The mapping as `tfbridge.MarshallableProviderInfo` JSON (built once). */
export function terraformMapping(): Buffer {
  if (cached) return cached;
  const schema = packageSchema() as { resources: Record<string, Json>; functions: Record<string, Json>; types: Record<string, Json> };
  const resources: Json = {};
  const resourceShims: Json = {};
  for (const [tf, r] of Object.entries(TERRAFORM_RESOURCES)) {
    const tok = tokenOf(definitionOf(r.kind as Kind));
    const spec = schema.resources[tok];
    const properties = { ...(spec.properties as Properties), ...(spec.inputProperties as Properties) };
    resources[tf] = { tok, fields: fieldsOf(r.attributes, properties, schema.types, tf) };
    resourceShims[tf] = resourceShimOf(r.attributes);
  }
  const dataSources: Json = {};
  const dataSourceShims: Json = {};
  for (const [tf, d] of Object.entries(TERRAFORM_DATA_SOURCES)) {
    const f = FUNCTIONS.find((x) => x.name === d.function);
    if (!f) throw new Error(`terraform mapping: ${tf} becomes ${d.function}, which is no function`);
    const spec = schema.functions[f.token] as { inputs: { properties: Properties }; outputs: { properties: Properties } };
    const properties = { ...spec.outputs.properties, ...spec.inputs.properties };
    dataSources[tf] = { tok: f.token, fields: fieldsOf(d.attributes, properties, schema.types, `data.${tf}`) };
    dataSourceShims[tf] = resourceShimOf(d.attributes);
  }
  const info = {
    provider: { resources: resourceShims, dataSources: dataSourceShims },
    name: TERRAFORM_PROVIDER,
    version: VERSION,
    resources,
    dataSources,
    tfProviderVersion: TERRAFORM_VERSION,
  };
  return (cached = Buffer.from(JSON.stringify(info)));
}

/** The conversion keys the plugin answers: Terraform, under both the converter's key and the prototype's. */
const KEYS = new Set(["terraform", "tf"]);

/** What the plugin answers `GetMappings(key)` with: the providers it maps from. */
export const mappingsFor = (key: string): string[] => (KEYS.has(key) ? [TERRAFORM_PROVIDER] : []);

/**
 * What the plugin answers `GetMapping(key, provider)` with: the mapping, for the Terraform
 * provider it maps or for no provider named (the engine's fallback, and `pulumi package
 * get-mapping terraform <plugin>`); nothing otherwise.
 */
export function mappingFor(key: string, provider: string): { provider: string; data: Buffer } | undefined {
  if (!KEYS.has(key) || (provider !== "" && provider !== TERRAFORM_PROVIDER)) return undefined;
  return { provider: TERRAFORM_PROVIDER, data: terraformMapping() };
}

/** One Terraform attribute and where it lands, for the docs and the tests. */
export interface Landing {
  /** The resource or data source (`chainguard_identity`). */
  type: string;
  dataSource: boolean;
  /** The token it becomes (`irv:iam:Identity`). */
  token: string;
  /** The attribute's path: `claim_match.issuer`, list items as `items[].id`. */
  path: string;
  /** Its path here (`claimMatch.issuer`, `roles[].uid`), or null when nothing holds it. */
  to: string | null;
  note?: string;
}

/** Every attribute of every mapped resource and data source, in the table's order. */
export function landings(): Landing[] {
  const out: Landing[] = [];
  const walk = (base: Omit<Landing, "path" | "to" | "note">, attributes: Record<string, TfMember>, tfPrefix: string, toPrefix: string | null) => {
    for (const [tf, m] of Object.entries(attributes)) {
      const name = landingOf(tf, m);
      const to = toPrefix === null || name === null ? null : `${toPrefix}${name}`;
      out.push({ ...base, path: `${tfPrefix}${tf}`, to, ...(m.note ? { note: m.note } : {}) });
      // A map of objects is one value to the converter: its members are not attributes of their own.
      if (!isNested(m) || m.nested === "object-map") continue;
      const list = m.nested === "list" || m.nested === "object-list";
      walk(base, m.attributes, `${tfPrefix}${tf}${list ? "[]" : ""}.`, to === null ? null : `${to}${list ? "[]" : ""}.`);
    }
  };
  for (const [type, r] of Object.entries(TERRAFORM_RESOURCES))
    walk({ type, dataSource: false, token: tokenOf(definitionOf(r.kind as Kind)) }, r.attributes, "", "");
  for (const [type, d] of Object.entries(TERRAFORM_DATA_SOURCES))
    walk({ type, dataSource: true, token: FUNCTIONS.find((f) => f.name === d.function)!.token }, d.attributes, "", "");
  return out;
}
