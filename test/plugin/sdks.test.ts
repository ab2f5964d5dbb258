import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/engine";
import { generateSdks } from "../../scripts/gen-plugin-sdk";
import { BUILD_TIMEOUT, itBuildsGeneratedSdks } from "../support/toolchain";

// The SDKs of the plugin's real schema (packageSchema(), what `pulumi package get-schema` prints
// through the plugin's GetSchema) from scripts/gen-sdks: all four are written, the Go SDK and a
// program using it build, the TypeScript SDK and a program type-check, Python byte-compiles.
// .NET is generated only: there is no .NET SDK on this machine to build it.

/**
 * A Go program: an explicit provider, a group, an identity in it (its claimMatch an object type),
 * a role (capabilities from the enum) and a role binding of both, an identity provider (its oidc an
 * object type with a secret member), and functions.
 */
const GO_PROGRAM = `package main

import (
	"github.com/pulumi-irv/pulumi-irv/sdk/go/irv"
	"github.com/pulumi-irv/pulumi-irv/sdk/go/irv/config"
	"github.com/pulumi-irv/pulumi-irv/sdk/go/irv/iam"
	"github.com/pulumi-irv/pulumi-irv/sdk/go/irv/registry"
	"github.com/pulumi-irv/pulumi-irv/sdk/go/irv/vulnerabilities"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		org, err := irv.NewProvider(ctx, "org", &irv.ProviderArgs{
			ApiUrl: pulumi.String(config.GetApiUrl(ctx)),
			Token:  pulumi.ToSecret(pulumi.String("token")).(pulumi.StringOutput),
		})
		if err != nil {
			return err
		}
		eng, err := iam.NewGroup(ctx, "eng", &iam.GroupArgs{
			ParentUid: pulumi.String("org-1"),
			Name:      pulumi.String("eng"),
		}, pulumi.Provider(org))
		if err != nil {
			return err
		}
		ci, err := iam.NewIdentity(ctx, "ci", &iam.IdentityArgs{
			GroupUid: eng.Uid,
			Name:     pulumi.String("ci"),
			ClaimMatch: &iam.ClaimMatchArgs{
				Issuer:  pulumi.String("https://token.actions.example.com"),
				Subject: pulumi.String("repo:org/app:ref:refs/heads/main"),
				Claims:  pulumi.StringMap{"ref": pulumi.String("refs/heads/main")},
			},
		}, pulumi.Provider(org))
		if err != nil {
			return err
		}
		releaser, err := iam.NewRole(ctx, "releaser", &iam.RoleArgs{
			GroupUid:     eng.Uid,
			Name:         pulumi.String("releaser"),
			Capabilities: pulumi.StringArray{iam.CapabilityRepoList, iam.CapabilityRepoBlobsGet},
		}, pulumi.Provider(org))
		if err != nil {
			return err
		}
		binding, err := iam.NewRoleBinding(ctx, "ci-releaser", &iam.RoleBindingArgs{
			GroupUid:    eng.Uid,
			IdentityUid: ci.Uid,
			RoleUid:     releaser.Uid,
		}, pulumi.Provider(org))
		if err != nil {
			return err
		}
		sso, err := iam.NewIdentityProvider(ctx, "sso", &iam.IdentityProviderArgs{
			GroupUid:       eng.Uid,
			Name:           pulumi.String("sso"),
			DefaultRoleUid: releaser.Uid,
			Oidc: &iam.OidcArgs{
				Issuer:       pulumi.String("https://login.example.com"),
				ClientId:     pulumi.String("irv"),
				ClientSecret: pulumi.String("not-a-real-secret"),
			},
		}, pulumi.Provider(org))
		if err != nil {
			return err
		}
		ctx.Export("bindingUid", binding.Uid)
		ctx.Export("ssoIssuer", sso.Oidc.Issuer())
		ctx.Export("boundIdentity", binding.Identity.Name())
		// Functions: one object, a list of named objects, and their Output forms with nested lists.
		viewer, err := iam.LookupRole(ctx, &iam.LookupRoleArgs{Name: pulumi.StringRef("viewer")}, pulumi.Provider(org))
		if err != nil {
			return err
		}
		builtins, err := iam.GetRoles(ctx, &iam.GetRolesArgs{Builtin: pulumi.BoolRef(true), OrderBy: pulumi.StringRef("name")}, pulumi.Provider(org))
		if err != nil {
			return err
		}
		tags := registry.GetTagsOutput(ctx, registry.GetTagsOutputArgs{RepoUid: eng.Uid}, pulumi.Provider(org))
		advisories := vulnerabilities.GetAdvisoriesOutput(ctx, vulnerabilities.GetAdvisoriesOutputArgs{
			Aliases: pulumi.StringArray{pulumi.String("CVE-2024-1")},
		}, pulumi.Provider(org))
		var firstBuiltin string = builtins.Roles[0].Name
		ctx.Export("viewerUid", pulumi.String(viewer.Uid))
		ctx.Export("firstBuiltin", pulumi.String(firstBuiltin))
		ctx.Export("firstTag", tags.Tags().Index(pulumi.Int(0)).Name())
		ctx.Export("firstSeverity", advisories.Advisories().Index(pulumi.Int(0)).Severities().Index(pulumi.Int(0)).Score())
		return nil
	})
}
`;

/** The same in TypeScript, plus a missing required input, an unknown capability and a mistyped argument that must not type-check. */
const TS_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as irv from "./index";

const org = new irv.Provider("org", { apiUrl: irv.config.apiUrl, token: pulumi.secret("token") });
const eng = new irv.iam.Group("eng", { parentUid: "org-1", name: "eng" }, { provider: org });
const claimMatch = { issuer: "https://token.actions.example.com", subject: "repo:org/app:ref:refs/heads/main" };
const ci = new irv.iam.Identity("ci", { groupUid: eng.uid, name: "ci-0", claimMatch }, { provider: org });
const releaser = new irv.iam.Role("releaser", { groupUid: eng.uid, name: "releaser", capabilities: ["repo.list", irv.iam.Capability.RepoBlobsGet] }, { provider: org });
const binding = new irv.iam.RoleBinding("ci-releaser", { groupUid: eng.uid, identityUid: ci.uid, roleUid: releaser.uid }, { provider: org });
const sso = new irv.iam.IdentityProvider("sso", { groupUid: eng.uid, name: "sso", defaultRoleUid: releaser.uid, oidc: { issuer: "https://login.example.com", clientId: "irv", clientSecret: pulumi.secret("s") } }, { provider: org });
export const bindingUid: pulumi.Output<string> = binding.uid;
export const ssoIssuer: pulumi.Output<string> = sso.oidc.issuer;
export const boundIdentity: pulumi.Output<string> = binding.identity.name;
// Functions: one object, a list of named objects, and the Output form with nested lists.
export const viewer: Promise<string> = irv.iam.getRole({ name: "viewer" }, { provider: org }).then((r) => r.uid);
export const firstBuiltin: Promise<string> = irv.iam.getRoles({ builtin: true }, { provider: org }).then((r) => r.roles[0].name);
export const firstTag: pulumi.Output<string> = irv.registry.getTagsOutput({ repoUid: eng.uid }, { provider: org }).tags[0].name;
export const severity: pulumi.Output<string> = irv.vulnerabilities
  .getAdvisoriesOutput({ aliases: ["CVE-2024-1"] }, { provider: org })
  .advisories.apply((a) => a[0].severities[0].score);
// @ts-expect-error uid is a string
irv.iam.getGroup({ uid: 5 });
// @ts-expect-error parentUid is required
new irv.iam.Group("bad", { name: "eng" }, { provider: org });
// @ts-expect-error not a capability
new irv.iam.Role("bad", { groupUid: eng.uid, name: "bad", capabilities: ["tag.frobnicate"] }, { provider: org });
// @ts-expect-error the issuer is required (the client secret is not: an imported one has none)
new irv.iam.IdentityProvider("bad", { groupUid: eng.uid, name: "bad", oidc: { clientId: "irv", clientSecret: "s" } }, { provider: org });
`;

describe("the SDKs generated from the plugin's schema", () => {
  let out: string;
  const read = (p: string) => readFileSync(path.join(out, p), "utf8");
  const version = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).version;

  beforeAll(async () => {
    // The schema as served, but for its logo (see generateSdks).
    out = await generateSdks(mkdtempSync(path.join(tmpdir(), "irv-plugin-sdks-")));
  }, BUILD_TIMEOUT);
  afterAll(() => rmSync(path.dirname(out), { recursive: true, force: true }));

  it("writes the TypeScript, Go, Python and .NET SDKs with every kind, at the package's version", () => {
    for (const f of [
      "nodejs/package.json",
      "nodejs/iam/group.ts",
      "nodejs/iam/identity.ts",
      "nodejs/iam/roleBinding.ts",
      "nodejs/provider.ts",
      "go/go.mod",
      "go/irv/iam/group.go",
      "go/irv/iam/identity.go",
      "go/irv/iam/roleBinding.go",
      "go/irv/provider.go",
      "python/setup.py",
      "python/pulumi_irv/iam/group.py",
      "python/pulumi_irv/iam/role_binding.py",
      "python/pulumi_irv/provider.py",
      "dotnet/PulumiIrv.Irv.csproj",
      "dotnet/Iam/Group.cs",
      "dotnet/Iam/RoleBinding.cs",
      "dotnet/Provider.cs",
      // Functions, and the named objects of their list results.
      "nodejs/iam/getRoles.ts",
      "nodejs/registry/getTags.ts",
      "nodejs/vulnerabilities/getAdvisory.ts",
      "go/irv/iam/getRoles.go",
      "go/irv/registry/pulumiTypes.go",
      "python/pulumi_irv/vulnerabilities/get_advisories.py",
      "dotnet/Registry/GetRepos.cs",
    ]) {
      expect(existsSync(path.join(out, f)), f).toBe(true);
    }
    expect(JSON.parse(read("nodejs/package.json"))).toMatchObject({ name: "@pulumi-irv/irv", version, pulumi: { resource: true, name: "irv" } });
    for (const p of ["go/irv/pulumi-plugin.json", "python/pulumi_irv/pulumi-plugin.json", "dotnet/pulumi-plugin.json"]) {
      expect(JSON.parse(read(p)), p).toEqual({ resource: true, name: "irv", version });
    }
    // Secrets stay secret: the provider's token and the group invite's code.
    expect(read("go/irv/provider.go")).toContain("pulumi.ToSecret(args.Token)");
    expect(read("nodejs/iam/groupInvite.ts")).toMatch(/additionalSecretOutputs: \[[^\]]*"code"/);
  });

  it("writes the object and enum types in every language; .NET marks the client secret, the others leave it to the provider", () => {
    expect(read("nodejs/types/input.ts")).toMatch(/export interface ClaimMatchArgs \{[^]*?issuerPattern\?: pulumi\.Input<string/);
    expect(read("nodejs/types/output.ts")).toMatch(/export interface BoundIdentity \{/);
    expect(read("nodejs/types/enums/iam/index.ts")).toContain('RoleBindingsList: "role_bindings.list"');
    expect(read("go/irv/iam/pulumiTypes.go")).toMatch(/^type OidcArgs struct \{/m);
    expect(read("go/irv/iam/pulumiEnums.go")).toMatch(/ServicePrincipalCatalogSyncer\s+= ServicePrincipal\("SERVICE_PRINCIPAL_CATALOG_SYNCER"\)/);
    expect(read("python/pulumi_irv/iam/_inputs.py")).toContain("class StaticKeysArgs:");
    expect(read("python/pulumi_irv/iam/_enums.py")).toContain("class Capability(_builtins.str, Enum):");
    expect(read("dotnet/Iam/Inputs/OidcArgs.cs")).toMatch(/_clientSecret = Output\.Tuple<Input<string>\?, int>\(value, emptySecret\)/);
  });

  itBuildsGeneratedSdks({
    out: () => out,
    pythonPackage: "pulumi_irv",
    goModule: "github.com/pulumi-irv/pulumi-irv/sdk/go",
    goProgram: GO_PROGRAM,
    tsProgram: TS_PROGRAM,
  });
});
