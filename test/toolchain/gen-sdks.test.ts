import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/engine";
import { BUILD_TIMEOUT, itBuildsGeneratedSdks, run } from "../support/toolchain";

// scripts/gen-sdks on a small schema (fixtures/irvtest-schema.json: one resource with a secret
// field in a nested type, one function, provider configuration with a secret token) writes the
// four SDKs, and the ones this machine can build are built: the Go SDK with a program using it
// (`go build`, modules from the Go module proxy), the TypeScript SDK with a program using it
// (`tsc` against @pulumi/pulumi). Python is byte-compiled; .NET cannot be built here (no SDK).
const fixtures = path.join(__dirname, "fixtures");
const schema = path.join(fixtures, "irvtest-schema.json");

/** What a Go user writes against the generated SDK: a provider instance, a resource, a function. */
const GO_PROGRAM = `package main

import (
	"example.com/irvtest/sdk/go/irvtest"
	"example.com/irvtest/sdk/go/irvtest/config"
	"example.com/irvtest/sdk/go/irvtest/iam"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		org, err := irvtest.NewProvider(ctx, "org", &irvtest.ProviderArgs{
			ApiUrl: pulumi.String(config.GetApiUrl(ctx)),
			Token:  pulumi.String("token"),
		})
		if err != nil {
			return err
		}
		idp, err := iam.NewIdentityProvider(ctx, "corp", &iam.IdentityProviderArgs{
			GroupUid: pulumi.String("org-1/eng"),
			Name:     pulumi.String("corp"),
			Oidc: &iam.OidcArgs{
				Issuer:       pulumi.String("https://idp.example.com"),
				ClientId:     pulumi.String("client"),
				ClientSecret: pulumi.ToSecret(pulumi.String("shh")).(pulumi.StringOutput),
			},
		}, pulumi.Provider(org))
		if err != nil {
			return err
		}
		viewer := iam.GetRoleOutput(ctx, iam.GetRoleOutputArgs{Name: pulumi.String("viewer")}, pulumi.Provider(org))
		ctx.Export("uid", idp.Uid)
		ctx.Export("clientId", idp.Oidc.ClientId())
		ctx.Export("capabilities", viewer.Capabilities())
		return nil
	})
}
`;

/** The same for TypeScript, plus a missing required input that must not type-check. */
const TS_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as irvtest from "./index";

const org = new irvtest.Provider("org", { apiUrl: irvtest.config.apiUrl, token: pulumi.secret("token") });
const oidc = { issuer: "https://idp.example.com", clientId: "client", clientSecret: pulumi.secret("shh") };
const idp = new irvtest.iam.IdentityProvider("corp", { groupUid: "org-1/eng", name: "corp", oidc }, { provider: org });
const viewer = irvtest.iam.getRoleOutput({ name: "viewer" }, { provider: org });
export const uid: pulumi.Output<string> = idp.uid;
export const clientId: pulumi.Output<string> = idp.oidc.clientId;
export const capabilities: pulumi.Output<string[]> = viewer.capabilities;
// @ts-expect-error groupUid is required
new irvtest.iam.IdentityProvider("bad", { name: "corp", oidc });
`;

describe("scripts/gen-sdks", () => {
  let out: string;
  const read = (p: string) => readFileSync(path.join(out, p), "utf8");

  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), "irv-sdks-"));
    await run(path.join(repoRoot, "scripts", "gen-sdks"), [schema, out]);
  }, BUILD_TIMEOUT);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("writes the TypeScript, Go, Python and .NET SDKs, versioned as the schema says", () => {
    for (const f of [
      "nodejs/package.json",
      "nodejs/iam/identityProvider.ts",
      "nodejs/iam/getRole.ts",
      "nodejs/provider.ts",
      "go/go.mod",
      "go/irvtest/iam/identityProvider.go",
      "go/irvtest/iam/getRole.go",
      "go/irvtest/provider.go",
      "python/setup.py",
      "python/irvtest/iam/identity_provider.py",
      "python/irvtest/iam/get_role.py",
      "dotnet/IrvTest.Irvtest.csproj",
      "dotnet/Iam/IdentityProvider.cs",
      "dotnet/Iam/GetRole.cs",
      "dotnet/Provider.cs",
    ]) {
      expect(existsSync(path.join(out, f)), f).toBe(true);
    }
    const pkg = JSON.parse(read("nodejs/package.json"));
    expect(pkg).toMatchObject({ name: "@irvtest/irvtest", version: "0.1.0", pulumi: { resource: true, name: "irvtest" } });
    for (const p of ["go/irvtest/pulumi-plugin.json", "python/irvtest/pulumi-plugin.json", "dotnet/pulumi-plugin.json"]) {
      expect(JSON.parse(read(p)), p).toEqual({ resource: true, name: "irvtest", version: "0.1.0" });
    }
    // The .NET package embeds the logo named by the schema's logoUrl, read from beside the schema.
    expect(readFileSync(path.join(out, "dotnet/logo.png"))).toEqual(readFileSync(path.join(fixtures, "logo.png")));
  });

  it("keeps the provider's secret token secret in every language", () => {
    expect(read("nodejs/provider.ts")).toContain("pulumi.secret(args.token)");
    expect(read("go/irvtest/provider.go")).toContain("pulumi.ToSecret(args.Token)");
    expect(read("python/irvtest/provider.py")).toContain("pulumi.Output.secret(token)");
    expect(read("dotnet/Provider.cs")).toContain("Output.CreateSecret");
  });

  it("refuses a schema that does not validate, naming the field", async () => {
    const bad = path.join(out, "bad-schema.json");
    const spec = JSON.parse(readFileSync(schema, "utf8"));
    spec.logoUrl = path.join(fixtures, spec.logoUrl);
    spec.resources["irvtest:iam:IdentityProvider"].requiredInputs.push("owner");
    writeFileSync(bad, JSON.stringify(spec));
    await expect(run(path.join(repoRoot, "scripts", "gen-sdks"), [bad, path.join(out, "bad")])).rejects.toThrow(
      /requiredInputs\/3: unknown required property "owner"/,
    );
  });

  itBuildsGeneratedSdks({ out: () => out, pythonPackage: "irvtest", goModule: "example.com/irvtest/sdk/go", goProgram: GO_PROGRAM, tsProgram: TS_PROGRAM });
});
