import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AccountBlocks, AwsIdentity, ClaimMatch, IdentityProviderCreate, StaticKeys } from "../../api/bodies";
import { CAPABILITIES, isInternalOnly } from "../../api/capabilities";
import { SERVICE_PRINCIPALS } from "../../api/fields";
import { KINDS, secretNames, secretPaths } from "../../api/kinds";
import { BoundIdentity, BoundRef } from "../../api/resources";
import { SETTINGS } from "../../client/config";
import { packageSchema, tokenOf } from "../../plugin/schema";
import { enumName, kindTypes, schemaTypeOf } from "../../plugin/types";
import { FUNCTIONS } from "../../api/functions";

// The plugin's schema is derived from api/kinds: every kind and every field, with its secrecy and
// replace-on-change, appears without being written a second time.
describe("the plugin's package schema", () => {
  const schema = packageSchema() as any;

  it.each(KINDS.map((k) => [k.className, k] as const))("declares %s from its definition", (_name, k) => {
    const r = schema.resources[tokenOf(k)];
    expect(Object.keys(r.properties)).toEqual(["uid", ...Object.keys(k.fields)]);
    for (const [name, f] of Object.entries<any>(k.fields)) {
      expect(r.properties[name].description).toBe(f.description);
      expect(!!r.properties[name].secret).toBe(!!f.secret);
      if (f.input) expect(!!r.inputProperties[name].replaceOnChanges).toBe(!!f.replace);
      else expect(r.inputProperties[name]).toBeUndefined();
    }
    expect(r.requiredInputs).toContain(k.parentField);
  });

  it("marks the invite code and the OIDC client secret secret, and the token secret in the provider's config", () => {
    expect(schema.resources["irv:iam:GroupInvite"].properties.code.secret).toBe(true);
    // Only the client secret: issuer, clientId and additionalScopes stay readable in state.
    const idp = schema.resources["irv:iam:IdentityProvider"];
    for (const p of [idp.inputProperties.oidc, idp.properties.oidc]) expect(p).toEqual({ $ref: "#/types/irv:iam:Oidc", description: expect.any(String) });
    const oidc = schema.types["irv:iam:Oidc"].properties;
    expect(
      Object.entries(oidc)
        .filter(([, m]: [string, any]) => m.secret)
        .map(([n]) => n),
    ).toEqual(["clientSecret"]);
    expect(Object.keys(schema.config.variables).sort()).toEqual(Object.keys(SETTINGS).sort());
    expect(schema.config.variables.token.secret).toBe(true);
    expect(schema.config.variables.identityToken.secret).toBe(true);
    expect(schema.provider.inputProperties.apiUrl.description).toContain("IRV_API_URL");
  });

  it("maps the definitions' types to schema types", () => {
    // An enum's property takes any string (or one of its values): check, not the YAML host, judges it.
    expect(schema.resources["irv:iam:Role"].inputProperties.capabilities).toMatchObject({
      type: "array",
      items: { type: "string", oneOf: [{ type: "string" }, { $ref: "#/types/irv:iam:Capability" }] },
    });
    expect(schema.resources["irv:iam:GroupInvite"].inputProperties.singleUse).toMatchObject({ type: "boolean", default: false });
    expect(schema.resources["irv:iam:Identity"].inputProperties.claimMatch.$ref).toBe("#/types/irv:iam:ClaimMatch");
    expect(schema.meta.supportPack).toBe(true);
    for (const lang of Object.values<any>(schema.language)) expect(lang.respectSchemaVersion).toBe(true);
  });
});

// Structured fields get object and enum types derived from the zod schemas the server checks.
describe("the plugin schema's object and enum types", () => {
  const schema = packageSchema() as any;
  const types = schema.types as Record<string, any>;
  const refs = (v: unknown): string[] =>
    !v || typeof v !== "object" ? [] : Object.entries(v).flatMap(([k, x]) => (k === "$ref" && typeof x === "string" ? [x] : refs(x)));

  it("types every structured field: nothing is Any but the values of an opaque map", () => {
    for (const k of KINDS) {
      const r = schema.resources[tokenOf(k)];
      for (const [name, f] of Object.entries(k.fields)) {
        const p = r.properties[name];
        if (/^(string|boolean|number)( \| null)?$/.test(f.type)) expect(p.type, `${k.className}.${name}`).toBe(f.type.split(" ")[0]);
        else if (f.type === "string[]") expect(p, `${k.className}.${name}`).toMatchObject({ type: "array", items: { type: "string" } });
        else if (f.type === "Record<string, number>") expect(p.additionalProperties, `${k.className}.${name}`).toEqual({ type: "number" });
        else
          expect(p.$ref ?? p.items?.$ref ?? p.additionalProperties?.$ref ?? refs(p)[0], `${k.className}.${name}`).toMatch(
            /^#\/types\/irv:[a-z]+:|^pulumi\.json#\/Any$/,
          );
        if (p.$ref === "pulumi.json#/Any") throw new Error(`${k.className}.${name} is Any`);
      }
    }
    // Nothing: even Group.resourceLimits is typed (int32 values by kind of resource, as the protos say).
    const anys = KINDS.flatMap((k) =>
      Object.entries(schema.resources[tokenOf(k)].properties)
        .filter(([, p]) => refs(p).includes("pulumi.json#/Any"))
        .map(([n]) => `${k.className}.${n}`),
    );
    expect(anys).toEqual([]);
    // The resources' own types (the functions' result objects are checked below).
    const own = kindTypes().types;
    expect(Object.values(own).flatMap(refs)).not.toContain("pulumi.json#/Any");
    expect(Object.keys(own).sort()).toEqual(
      [
        "AccountAssociationAmazon",
        "AccountAssociationAzure",
        "AccountAssociationChainguard",
        "AccountAssociationGithub",
        "AccountAssociationGithubAppInstallations",
        "AccountAssociationGithubInstallation",
        "AccountAssociationGoogle",
        "AwsIdentity",
        "BoundIdentity",
        "BoundRef",
        "Capability",
        "ClaimMatch",
        "CorrelationRule",
        "IdentityProviderScim",
        "InviteRole",
        "Oidc",
        "ServicePrincipal",
        "StaticKeys",
      ]
        .map((t) => `irv:iam:${t}`)
        .concat(
          [
            "CatalogTier",
            "CertificateEntry",
            "CustomOverlay",
            "HelmChart",
            "ImageContents",
            "OverlayAccounts",
            "OverlayCertificates",
            "OverlayGroup",
            "OverlayUser",
            "RuntimeKeyringEntry",
            "SyncConfig",
          ].map((t) => `irv:registry:${t}`),
        )
        .sort(),
    );
  });

  it("refers only to types it declares", () => {
    const all = [...Object.values(schema.resources), ...Object.values(types)].flatMap(refs).filter((r) => r.startsWith("#/types/"));
    expect(all.length).toBeGreaterThan(10);
    for (const r of all) expect(types[r.slice("#/types/".length)], r).toBeDefined();
  });

  it("describes every type and every member", () => {
    for (const [token, t] of Object.entries(types)) {
      expect(t.description, token).toMatch(/\w/);
      for (const [name, m] of Object.entries<any>(t.properties ?? {})) expect(m.description, `${token}.${name}`).toMatch(/\w/);
    }
  });

  it("has the members and required-ness of the zod schemas the server checks", () => {
    const cases: [string, z.ZodObject][] = [
      ["ClaimMatch", ClaimMatch],
      ["StaticKeys", StaticKeys],
      ["AwsIdentity", AwsIdentity],
      ["Oidc", IdentityProviderCreate.shape.oidc],
      ["AccountAssociationAmazon", AccountBlocks.amazon],
      ["AccountAssociationGoogle", AccountBlocks.google],
      ["AccountAssociationAzure", AccountBlocks.azure],
      ["AccountAssociationChainguard", AccountBlocks.chainguard],
      ["AccountAssociationGithub", AccountBlocks.github],
      ["BoundIdentity", BoundIdentity],
      ["BoundRef", BoundRef],
    ];
    for (const [name, zod] of cases) {
      const t = types[`irv:iam:${name}`];
      expect(Object.keys(t.properties), name).toEqual(Object.keys(zod.shape));
      // Members the API never returns (oidc.clientSecret) are absent after an import, so optional in the schema.
      const writeOnly = name === "Oidc" ? ["clientSecret"] : [];
      const required = Object.entries(zod.shape)
        .filter(([n, m]) => !writeOnly.includes(n) && (!(m as z.ZodType).safeParse(undefined).success || (m as z.ZodType).def.type === "default"))
        .map(([n]) => n);
      expect(t.required ?? [], name).toEqual(required);
    }
    // The rules the server states: a client secret on create (check asks for it then; the schema
    // cannot, as an imported one has none), an issuer or a pattern (so neither required).
    expect(types["irv:iam:Oidc"].required).toEqual(["issuer", "clientId"]);
    expect(types["irv:iam:ClaimMatch"].required).toBeUndefined();
    expect(types["irv:iam:AwsIdentity"].required).toEqual(["awsAccount"]);
    expect(types["irv:iam:ClaimMatch"].properties.claims).toMatchObject({ type: "object", additionalProperties: { type: "string" } });
    expect(types["irv:iam:AccountAssociationGithub"].properties.appInstallations.additionalProperties).toEqual({
      $ref: "#/types/irv:iam:AccountAssociationGithubAppInstallations",
    });
    expect(types["irv:iam:AccountAssociationGithubAppInstallations"].properties.installations.items).toEqual({
      $ref: "#/types/irv:iam:AccountAssociationGithubInstallation",
    });
  });

  it("requires the inputs the create body requires, and in outputs what is always there", () => {
    const r = (c: string) => schema.resources[`irv:iam:${c}`];
    expect(r("IdentityProvider").requiredInputs).toEqual(["groupUid", "name", "defaultRoleUid", "oidc"]);
    expect(r("RoleBinding").requiredInputs).toEqual(["groupUid", "identityUid", "roleUid"]);
    expect(r("Role").requiredInputs).toEqual(["groupUid", "name", "capabilities"]);
    expect(r("GroupInvite").requiredInputs).toEqual(["groupUid", "roleUid", "ttl"]);
    expect(r("Identity").requiredInputs).toEqual(["groupUid", "name"]);
    expect(r("RoleBinding").required).toEqual(expect.arrayContaining(["uid", "identity", "group", "role", "createTime"]));
    expect(r("GroupInvite").required).toEqual(expect.arrayContaining(["expirationTime", "email", "singleUse", "keyId"]));
    expect(r("GroupInvite").required).not.toContain("code");
    // Input only on the API, but always in state: the program's, or for an import the one the invite was made with.
    expect(r("GroupInvite").required).toContain("ttl");
  });

  it("has enums with exactly the values of the server's tables, each with a name the SDKs can use", () => {
    const values = (t: string) => types[t].enum.map((e: any) => e.value);
    // Every capability a role of an organization may hold: the internal ones are the platform's own.
    expect(values("irv:iam:Capability")).toEqual(CAPABILITIES.filter((c) => !isInternalOnly(c)));
    expect(values("irv:iam:ServicePrincipal")).toEqual([...SERVICE_PRINCIPALS]);
    expect(schema.resources["irv:iam:Identity"].inputProperties.servicePrincipal).toMatchObject({
      type: "string",
      oneOf: [{ type: "string" }, { $ref: "#/types/irv:iam:ServicePrincipal" }],
    });
    expect(types["irv:iam:Oidc"].properties.correlationRule).toMatchObject({
      type: "string",
      oneOf: [{ type: "string" }, { $ref: "#/types/irv:iam:CorrelationRule" }],
    });
    for (const t of ["irv:iam:Capability", "irv:iam:ServicePrincipal"]) {
      const names = types[t].enum.map((e: any) => e.name);
      expect(new Set(names).size, t).toBe(names.length);
      for (const n of names) expect(n).toMatch(/^[A-Z][A-Za-z0-9]*$/);
    }
    expect(enumName("role_bindings.list")).toBe("RoleBindingsList");
    expect(enumName("SERVICE_PRINCIPAL_CATALOG_SYNCER", "SERVICE_PRINCIPAL_")).toBe("CatalogSyncer");
    // The protos' shared prefix of every value goes from the SDK names.
    expect(types["irv:iam:ServicePrincipal"].enum.find((e: any) => e.value === "SERVICE_PRINCIPAL_CATALOG_SYNCER").name).toBe("CatalogSyncer");
  });

  it("says which member is secret once: the plugin marks it, the dynamic classes keep its block secret", () => {
    const idp = KINDS.find((k) => k.className === "IdentityProvider")!;
    const invite = KINDS.find((k) => k.className === "GroupInvite")!;
    expect(secretPaths(idp)).toEqual([["oidc", "clientSecret"]]);
    expect(secretNames(idp)).toEqual(["oidc"]);
    expect(secretPaths(invite)).toEqual([["code"]]);
    expect(secretNames(invite)).toEqual(["code"]);
  });

  it("refuses a structure the schema cannot name", () => {
    expect(() => schemaTypeOf(z.object({ a: z.string() }), {})).toThrow(/needs a name.*\.meta\(\{ id \}\)/);
    expect(() => schemaTypeOf(z.enum(["A", "B"]), {})).toThrow(/closed set needs a name/);
    const types: Record<string, Record<string, unknown>> = {};
    expect(schemaTypeOf(z.array(z.object({ a: z.string().describe("an a") }).meta({ id: "Thing" })), types, "registry")).toEqual({
      type: "array",
      items: { $ref: "#/types/irv:registry:Thing" },
    });
    expect(types["irv:registry:Thing"]).toEqual({ type: "object", properties: { a: { type: "string", description: "an a" } }, required: ["a"] });
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
        "irv:iam:getGroup",
        "irv:iam:getRole",
        "irv:iam:getRoles",
        "irv:iam:getIdentity",
        "irv:registry:getRepos",
        "irv:registry:getRepo",
        "irv:registry:getTags",
        "irv:registry:getVersions",
        "irv:vulnerabilities:getAdvisories",
        "irv:vulnerabilities:getAdvisory",
      ].sort(),
    );
  });

  it.each(FUNCTIONS.map((f) => [f.token, f] as const))("declares %s's arguments and results from its definition", (token, f) => {
    const spec = schema.functions[token];
    expect(spec.description).toBe(f.description);
    const args = Object.entries<any>(f.args.shape);
    expect(Object.keys(spec.inputs.properties)).toEqual(args.map(([n]) => n));
    for (const [name, a] of args) {
      expect(spec.inputs.properties[name].description, name).toBe(a.description);
      expect(spec.inputs.properties[name].description, name).toBeTruthy();
    }
    const result = "object" in f.result ? f.result.object.fields : { [f.result.list]: { optional: false } };
    expect(Object.keys(spec.outputs.properties)).toEqual(Object.keys(result));
    expect(spec.outputs.required).toEqual(Object.keys(result).filter((n) => !(result as any)[n].optional));
    for (const p of Object.values<any>(spec.outputs.properties)) expect(p.description).toBeTruthy();
    if ("list" in f.result)
      expect(spec.outputs.properties[f.result.list]).toMatchObject({ type: "array", items: { $ref: `#/types/irv:${f.module}:${f.result.of.name}` } });
    for (const ref of refs(spec)) if (ref.startsWith("#/types/")) expect(schema.types[ref.slice("#/types/".length)], ref).toBeDefined();
  });

  it("derives results of kinds from api/kinds, and names list item types apart from every resource", () => {
    const group = schema.functions["irv:iam:getGroup"].outputs.properties;
    const groups = KINDS.find((k) => k.kind === "groups")!;
    for (const [name, f] of Object.entries(groups.fields)) if (name !== "parentUid") expect(group[name].description).toBe(f.description);
    expect(schema.types["irv:iam:RoleResult"].properties.builtin.type).toBe("boolean");
    // A result field of a kind shares the kind's schema type.
    expect(schema.types["irv:iam:RoleResult"].properties.capabilities).toMatchObject({
      type: "array",
      items: { type: "string", oneOf: [{ type: "string" }, { $ref: "#/types/irv:iam:Capability" }] },
    });
    expect(schema.functions["irv:iam:getIdentity"].outputs.properties.claimMatch).toMatchObject({ $ref: "#/types/irv:iam:ClaimMatch" });
    expect(schema.types["irv:vulnerabilities:Advisory"].properties.severities.items.$ref).toBe("#/types/irv:vulnerabilities:AdvisorySeverity");
    // The registry's and advisories' objects in the API's shape (tags have updateTime; events a oneof of objects).
    expect(schema.types["irv:registry:TagResult"].properties.updateTime.type).toBe("string");
    expect(schema.types["irv:registry:TagResult"].properties.lastUpdated).toBeUndefined();
    expect(schema.types["irv:registry:RepoResult"].properties.syncConfig.$ref).toBe("#/types/irv:registry:RepoSyncConfig");
    expect(schema.types["irv:vulnerabilities:AdvisoryEvent"].properties.detection.$ref).toBe("#/types/irv:vulnerabilities:AdvisoryDetection");
    expect(schema.types["irv:vulnerabilities:AdvisoryDetection"].properties.scanv1.$ref).toBe("#/types/irv:vulnerabilities:AdvisoryScanDetection");
    expect(schema.functions["irv:registry:getTags"].inputs.properties.includeReferrers.type).toBe("boolean");
    expect(schema.functions["irv:registry:getTags"].inputs.properties.filters).toMatchObject({ type: "object" });
    expect(schema.functions["irv:vulnerabilities:getAdvisories"].inputs.properties.aliases).toMatchObject({ type: "array", items: { type: "string" } });
    for (const t of Object.keys(schema.types)) expect(schema.resources[t], t).toBeUndefined();
    for (const ref of refs(schema.types)) if (ref.startsWith("#/types/")) expect(schema.types[ref.slice(8)], ref).toBeDefined();
  });
});
