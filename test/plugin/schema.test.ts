import { describe, expect, it } from "vitest";
import { KINDS } from "../../api/kinds";
import { SETTINGS } from "../../client/config";
import { packageSchema, tokenOf } from "../../plugin/schema";

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
