import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, pulumiBinDir, pulumiEnv, repoRoot } from "../support/engine";
import { path as apiPath, useServer } from "../support/server";
import { BUILD_TIMEOUT, buildGoModule, goFlags, pulumiSdkVersion, run } from "../support/toolchain";

// A Go program on the Go SDK committed in sdk/go (fresh: test/plugin/plugin-sdk), used as
// docs/installation-configuration.md tells a Go user (its go.mod, the plugin found through
// Pulumi.yaml), run by the real engine through the Go language host that scripts/ensure-pulumi
// builds, with no network but the Go module proxy: a group, a role from the capability
// enum, an identity provider whose client secret comes from secret config (the generated Go SDK
// does not mark the nested member; the plugin does), and a function. Up, a no-change preview, an
// in-place update, refresh after an edit by hand, and destroy, each checked at the API.
const OIDC_SECRET = "oidc-cs-go-93be1c";

const GO_PROGRAM = `package main

import (
	"github.com/pulumi-irv/pulumi-irv/sdk/go/irv/iam"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		eng, err := iam.NewGroup(ctx, "eng", &iam.GroupArgs{
			ParentUid:   pulumi.String(cfg.Require("organization")),
			Name:        pulumi.String("engineering"),
			Description: pulumi.String(cfg.Get("description")),
		})
		if err != nil {
			return err
		}
		releaser, err := iam.NewRole(ctx, "releaser", &iam.RoleArgs{
			GroupUid:     eng.Uid,
			Name:         pulumi.String("releaser"),
			Capabilities: pulumi.StringArray{iam.CapabilityRepoList, iam.CapabilityTagList},
		})
		if err != nil {
			return err
		}
		if _, err := iam.NewIdentityProvider(ctx, "sso", &iam.IdentityProviderArgs{
			GroupUid:       eng.Uid,
			Name:           pulumi.String("acme-sso"),
			DefaultRoleUid: releaser.Uid,
			Oidc: &iam.OidcArgs{
				Issuer:       pulumi.String("https://login.acme.example"),
				ClientId:     pulumi.String("irv-platform"),
				ClientSecret: cfg.RequireSecret("oidcClientSecret"),
			},
		}); err != nil {
			return err
		}
		viewer, err := iam.LookupRole(ctx, &iam.LookupRoleArgs{Name: pulumi.StringRef("viewer")})
		if err != nil {
			return err
		}
		ctx.Export("engUid", eng.Uid)
		ctx.Export("releaserCaps", releaser.Capabilities)
		ctx.Export("viewerUid", pulumi.String(viewer.Uid))
		return nil
	})
}
`;

/** The go.mod the installation page gives a Go user, with the path of this clone in its `replace`. */
function documentedGoMod(): string {
  const page = readFileSync(path.join(repoRoot, "docs", "installation-configuration.md"), "utf8");
  const block = page.match(/```go\.mod\n([^]*?)```/)?.[1];
  if (!block) throw new Error("docs/installation-configuration.md has no ```go.mod block");
  const clone = "../pulumi-irv/sdk/go";
  if (!block.includes(`=> ${clone}\n`)) throw new Error(`the documented go.mod no longer replaces the SDK with ${clone}`);
  return block.replace(clone, path.join(repoRoot, "sdk", "go"));
}

describe("a Go program on the committed Go SDK, through the engine and the irv resource plugin", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  let base: string;
  let dir: string;
  let env: Record<string, string | undefined>;
  const pulumi = async (...args: string[]) => (await run("pulumi", [...args, "--non-interactive", "--cwd", dir], { env })).stdout;
  const previewJson = async (...args: string[]) => JSON.parse(await pulumi("preview", "--json", ...args));
  const output = async (name: string) => JSON.parse(await pulumi("stack", "output", name, "--json"));

  beforeAll(async () => {
    const host = path.join(pulumiBinDir(), "pulumi-language-go");
    if (!existsSync(host)) throw new Error(`no ${host}: scripts/ensure-pulumi could not build the Go language host (its log says why)`);
    base = mkdtempSync(path.join(tmpdir(), "irv-plugin-go-"));
    dir = path.join(base, "project");
    const chosen = await buildGoModule(dir, documentedGoMod(), GO_PROGRAM);
    expect(chosen).toBe(`github.com/pulumi/pulumi/sdk/v3 v${pulumiSdkVersion()}`);
    // The plugin found as a user's project finds it. The Go host compiles the program for every
    // operation (the CLI no longer hands it `runtime.options.binary`); with the flags the build
    // above and the CLI's used, in GOFLAGS, that compile finds every package in Go's build cache
    // and only links, instead of compiling Pulumi's SDK afresh (minutes on a loaded machine).
    const backend = path.join(base, "backend");
    mkdirSync(backend);
    writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      [
        "name: go-org",
        "runtime: go",
        `backend:\n  url: file://${backend}`,
        `plugins:\n  providers:\n    - name: irv\n      path: ${path.join(repoRoot, "bin")}`,
        "",
      ].join("\n"),
    );
    env = { ...process.env, GOFLAGS: goFlags(), IRV_API_URL: "", IRV_TOKEN: "", ...pulumiEnv(path.join(base, "home")) };
    await pulumi("stack", "init", "dev");
    await pulumi("config", "set", "organization", ctx.server.organization);
    await pulumi("config", "set", "description", "Builds the product.");
    await pulumi("config", "set", "irv:apiUrl", ctx.server.url);
    await pulumi("config", "set", "--secret", "irv:token", ctx.server.token);
    await pulumi("config", "set", "--secret", "oidcClientSecret", OIDC_SECRET);
  }, BUILD_TIMEOUT);
  afterAll(() => base && rmSync(base, { recursive: true, force: true }));

  it("previews, applies, shows no change, updates in place, refreshes, keeps the client secret out of state and destroys", async () => {
    expect((await previewJson()).changeSummary).toEqual({ create: 4 });
    // The IAM guardrails judge a Go program's resources too: the role has no description (advisory).
    const policy = await pulumi("preview", "--policy-pack", path.join(repoRoot, "policy"));
    expect(policy).toMatch(/\[advisory\] +irv-missing-description +\(irv:iam:Role: releaser\)/);
    expect(policy).not.toContain("[mandatory]");
    await pulumi("up", "--yes", "--skip-preview");
    const engUid: string = await output("engUid");
    const eng = (await ctx.api.get(apiPath("groups", engUid))).body;
    expect(eng).toMatchObject({ name: "engineering", description: "Builds the product." });
    expect(await output("releaserCaps")).toEqual(["repo.list", "tag.list"]);
    const viewer = (await ctx.api.get(apiPath("roles", await output("viewerUid")))).body;
    expect(viewer.name).toBe("viewer");

    // The client secret: only ciphertext in state, its block's other members readable.
    const state = await pulumi("stack", "export");
    expect(state).not.toContain(OIDC_SECRET);
    expect(state).not.toContain(ctx.server.token);
    const sso = JSON.parse(state).deployment.resources.find((r: { urn: string }) => r.urn.endsWith("irv:iam:IdentityProvider::sso"));
    for (const props of [sso.inputs, sso.outputs]) {
      expect(props.oidc).toMatchObject({ issuer: "https://login.acme.example", clientId: "irv-platform" });
      expect(props.oidc.clientSecret).toMatchObject({ ciphertext: expect.any(String) });
    }

    expect((await previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 4 });

    // An in-place update of the group: its children, which reference its uid, stay unchanged.
    await pulumi("config", "set", "description", "Ships the product.");
    const update = await previewJson();
    expect(update.changeSummary).toEqual({ update: 1, same: 3 });
    expect(update.steps.find((s: { op: string }) => s.op === "update").urn).toMatch(/irv:iam:Group::eng$/);
    await pulumi("up", "--yes", "--skip-preview");
    expect((await ctx.api.get(apiPath("groups", engUid))).body.description).toBe("Ships the product.");

    // Refresh reads an edit by hand back; the next preview puts the program's value back.
    expect((await ctx.api.patch(apiPath("groups", engUid), { description: "edited by hand" }, { updateMask: "description" })).status).toBe(200);
    await pulumi("refresh", "--yes", "--skip-preview");
    expect((await previewJson()).changeSummary).toEqual({ update: 1, same: 3 });

    await pulumi("destroy", "--yes", "--skip-preview");
    expect((await ctx.api.get(apiPath("groups", engUid))).status).toBe(404);
  });
});
