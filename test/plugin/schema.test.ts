import { describe, expect, it } from "vitest";
import { KINDS } from "../../api/kinds";
import { SETTINGS } from "../../client/config";
import { packageSchema, tokenOf } from "../../plugin/schema";
import { FUNCTIONS } from "../../api/functions";

// The plugin's schema is derived from api/kinds: every kind and every field, with its secrecy and
// replace-on-change, appears without being written a second time.
describe("the plugin's package schema", () => {
  const schema = packageSchema() as any;

  it.each(KINDS.map((k) => [k.className, k] as const))("declares %s from its definition", (_name, k) => {
    const r = schema.resources[tokenOf(k)];
    expect(Object.keys(r.properties)).toEqual(["uid", ...Object.keys(k.fields)]);
    for (const [name, f] of Object.entries(k.fields) as [string, any][]) {
      expect(r.properties[name].description).toBe(f.description);
      expect(!!r.properties[name].secret).toBe(!!f.secret);
      if (f.input) expect(!!r.inputProperties[name].replaceOnChanges).toBe(!!f.replace);
      else expect(r.inputProperties[name]).toBeUndefined();
    }
    expect(r.requiredInputs).toContain(k.parentField);
  });

  it("marks the invite code and the OIDC block secret, and the token secret in the provider's config", () => {
    expect(schema.resources["irv:iam:GroupInvite"].properties.code.secret).toBe(true);
    expect(schema.resources["irv:iam:IdentityProvider"].inputProperties.oidc.secret).toBe(true);
    expect(Object.keys(schema.config.variables).sort()).toEqual(Object.keys(SETTINGS).sort());
    expect(schema.config.variables.token.secret).toBe(true);
    expect(schema.config.variables.identityToken.secret).toBe(true);
    expect(schema.provider.inputProperties.apiUrl.description).toContain("IRV_API_URL");
  });

  it("maps the definitions' types to schema types", () => {
    expect(schema.resources["irv:iam:Role"].inputProperties.capabilities).toMatchObject({ type: "array", items: { type: "string" } });
    expect(schema.resources["irv:iam:GroupInvite"].inputProperties.singleUse).toMatchObject({ type: "boolean", default: false });
    expect(schema.resources["irv:iam:Identity"].inputProperties.claimMatch.$ref).toBe("pulumi.json#/Any");
    expect(schema.meta.supportPack).toBe(true);
    for (const lang of Object.values(schema.language) as any[]) expect(lang.respectSchemaVersion).toBe(true);
  });
});

// The functions come from api/functions the same way: arguments from their zod schemas, results
// from the result fields (a kind's fields where the result is a kind), list items as named types.
describe("the plugin's package schema: functions", () => {
  const schema = packageSchema() as any;
  /** Every `$ref` under `v`. */
  const refs = (v: unknown): string[] =>
    !v || typeof v !== "object" ? [] : Object.entries(v).flatMap(([k, x]) => (k === "$ref" && typeof x === "string" ? [x] : refs(x)));

  it("declares exactly the functions of the issue, in the package's modules", () => {
    expect(Object.keys(schema.functions).sort()).toEqual(
      [
        "irv:iam:getGroup", "irv:iam:getRole", "irv:iam:getRoles", "irv:iam:getIdentity", "irv:registry:getRepos", "irv:registry:getRepo",
        "irv:registry:getTags", "irv:vulnerabilities:getAdvisories", "irv:vulnerabilities:getAdvisory",
      ].sort(),
    );
  });

  it.each(FUNCTIONS.map((f) => [f.token, f] as const))("declares %s's arguments and results from its definition", (token, f) => {
    const spec = schema.functions[token];
    expect(spec.description).toBe(f.description);
    const args = Object.entries(f.args.shape) as [string, any][];
    expect(Object.keys(spec.inputs.properties)).toEqual(args.map(([n]) => n));
    for (const [name, a] of args) {
      expect(spec.inputs.properties[name].description, name).toBe(a.description);
      expect(spec.inputs.properties[name].description, name).toBeTruthy();
    }
    const result = "object" in f.result ? f.result.object.fields : { [f.result.list]: { optional: false } };
    expect(Object.keys(spec.outputs.properties)).toEqual(Object.keys(result));
    expect(spec.outputs.required).toEqual(Object.keys(result).filter((n) => !(result as any)[n].optional));
    for (const p of Object.values(spec.outputs.properties) as any[]) expect(p.description).toBeTruthy();
    if ("list" in f.result) expect(spec.outputs.properties[f.result.list]).toMatchObject({ type: "array", items: { $ref: `#/types/irv:${f.module}:${f.result.of.name}` } });
    for (const ref of refs(spec)) if (ref.startsWith("#/types/")) expect(schema.types[ref.slice("#/types/".length)], ref).toBeDefined();
  });

  it("derives results of kinds from api/kinds, and names list item types apart from every resource", () => {
    const group = schema.functions["irv:iam:getGroup"].outputs.properties;
    const groups = KINDS.find((k) => k.kind === "groups")!;
    for (const [name, f] of Object.entries(groups.fields)) if (name !== "parentUid") expect(group[name].description).toBe(f.description);
    expect(schema.types["irv:iam:RoleResult"].properties.builtin.type).toBe("boolean");
    expect(schema.types["irv:iam:RoleResult"].properties.capabilities).toMatchObject({ type: "array", items: { type: "string" } });
    expect(schema.types["irv:vulnerabilities:Advisory"].properties.severities.items.$ref).toBe("#/types/irv:vulnerabilities:AdvisorySeverity");
    expect(schema.functions["irv:registry:getTags"].inputs.properties.filters).toMatchObject({ type: "object" });
    expect(schema.functions["irv:vulnerabilities:getAdvisories"].inputs.properties.aliases).toMatchObject({ type: "array", items: { type: "string" } });
    for (const t of Object.keys(schema.types)) expect(schema.resources[t], t).toBeUndefined();
    for (const ref of refs(schema.types)) if (ref.startsWith("#/types/")) expect(schema.types[ref.slice(8)], ref).toBeDefined();
  });
});
