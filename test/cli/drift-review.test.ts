import { builtinRoleUid } from "../../server";
import { describe, expect, it } from "vitest";
import { formatDrift, formatReview, runReview, type DriftReport } from "../../cli";
import { ENGINE_TIMEOUT, nodeRequire } from "../support/engine";
import { path as apiPath } from "../support/server";
import { runIrv, useAppliedStack } from "../support/cli";

// `irv drift` and `irv review` through the real engine against a live irv-server: drift made
// through the API, reported by the compiled CLI with exit 2, then 0 after `pulumi refresh`; then
// the review of an edit that moves a group to another parent.

const irv = nodeRequire("pulumi-irv") as typeof import("../../dynamic");
const pulumi = nodeRequire("@pulumi/pulumi") as typeof import("@pulumi/pulumi");

const SECRET_V1 = "first-client-secret-never-printed";
const SECRET_V2 = "second-client-secret-never-printed";
const GITHUB = "https://token.actions.githubusercontent.com";

// Engine runs: bounded by the engine tests' timeout, not vitest's 60 s default (the first test
// alone took 24 s on an idle machine; a loaded one takes several times that).
describe("irv drift and irv review", { timeout: ENGINE_TIMEOUT }, () => {
  let edited = false;
  const stack = useAppliedStack("drift", async (org) => {
    const eng = new irv.iam.Group("eng", { parentUid: org, name: "engineering", description: "Everyone who builds" });
    const ops = new irv.iam.Group("ops", { parentUid: org, name: "ops" });
    // The edit moves platform from engineering to ops: a replacement forced by parentUid.
    const platform = new irv.iam.Group("platform", { parentUid: edited ? ops.uid : eng.uid, name: "platform" });
    new irv.iam.Group("scratch", { parentUid: org, name: "scratch" });
    new irv.iam.Identity("ci", {
      groupUid: platform.uid,
      name: "ci-0",
      claimMatch: { issuer: GITHUB, subject: "repo:acme/infra:ref:refs/heads/main" },
    });
    if (!edited) new irv.iam.Role("releaser", { groupUid: eng.uid, name: "releaser", capabilities: ["repo.list", "tag.create"] });
    new irv.iam.IdentityProvider("sso", {
      groupUid: eng.uid,
      name: "sso",
      defaultRoleUid: builtinRoleUid("viewer"),
      oidc: { issuer: "https://login.acme.example", clientId: "irv", clientSecret: pulumi.secret(edited ? SECRET_V2 : SECRET_V1) },
    });
    if (edited) new irv.iam.Group("security", { parentUid: org, name: "security", description: "Vulnerability response" });
  });

  const uidOf = async (name: string): Promise<string> => {
    const state = await stack.t.exportState();
    const r = (state.deployment.resources as any[]).find((x) => String(x.urn).endsWith(`::${name}`));
    return r.outputs.uid;
  };

  it("reports drift made through the API (changed fields, a deleted resource) with exit 2, then 0 after refresh", async () => {
    const api = stack.srv.api;
    expect((await api.patch(apiPath("groups", await uidOf("eng")), { description: "Changed in the console" }, { updateMask: "description" })).status).toBe(200);
    const ci = await uidOf("ci");
    const subject = "repo:acme/infra:ref:refs/heads/release";
    expect((await api.patch(apiPath("identities", ci), { claimMatch: { issuer: GITHUB, subject } }, { updateMask: "claim_match" })).status).toBe(200);
    const sso = apiPath("identityProviders", await uidOf("sso"));
    expect((await api.patch(sso, { oidc: { clientId: "irv-console" } }, { updateMask: "oidc.client_id" })).status).toBe(200);
    const scratch = await uidOf("scratch");
    expect((await api.del(apiPath("groups", scratch))).status).toBe(200);

    const run = await runIrv(["drift", "--stack", "drift", "--cwd", stack.t.workDir, "--format", "json"], stack.env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout) as DriftReport;
    expect(report).toMatchObject({ stack: "drift", inSync: false, changed: 3, deleted: 1 });
    // In the state's order (parents first), whatever order the engine refreshed in.
    const recorded = ((await stack.t.exportState()).deployment.resources as { urn: string }[]).map((r) => r.urn);
    expect(report.resources.map((r) => r.urn)).toEqual(recorded.filter((urn) => report.resources.some((r) => r.urn === urn)));
    const byName = Object.fromEntries(report.resources.map((r) => [r.name, r]));
    expect(byName.eng).toMatchObject({ kind: "iam.Group", status: "changed" });
    expect(byName.eng.fields).toEqual([{ path: "description", recorded: "Everyone who builds", live: "Changed in the console" }]);
    expect(byName.ci.fields).toEqual([{ path: "claimMatch.subject", recorded: "repo:acme/infra:ref:refs/heads/main", live: subject }]);
    // The SDK keeps the whole oidc block secret (it holds the client secret): its drift names
    // the changed member, masked on both sides.
    expect(byName.sso.fields).toEqual([{ path: "oidc.clientId", recorded: "[secret]", live: "[secret]" }]);
    expect(byName.scratch).toMatchObject({ status: "deleted", uid: scratch, kind: "iam.Group" });

    const markdown = formatDrift(report, "markdown");
    expect(markdown).toContain("## Drift detected in stack `drift`");
    expect(markdown).toContain("| `description` | `Everyone who builds` | `Changed in the console` |");
    expect(markdown).toContain("### `scratch` (iam.Group): deleted outside Pulumi");
    const text = formatDrift(report, "text");
    expect(text).toContain('description: "Everyone who builds" (recorded) -> "Changed in the console" (live)');
    for (const out of [run.stdout, markdown, text]) {
      expect(out).not.toContain(SECRET_V1);
      expect(out).not.toContain("irv-console");
    }

    await stack.t.stack.refresh();
    const after = await runIrv(["drift", "--stack", "drift", "--cwd", stack.t.workDir], stack.env);
    expect(after.code).toBe(0);
    expect(after.stdout).toContain("No drift");
  });

  it("reviews an edit: a parent change is a replace naming parentUid, secrets stay masked", async () => {
    const platform = await uidOf("platform");
    edited = true;
    const report = await runReview({ stack: stack.t.stack });
    // After the refresh, engineering's description is the console's; the program puts it back.
    expect(report.summary).toBe("2 to create, 2 to update, 2 to replace (groupUid, parentUid), 1 to delete");
    const byName = Object.fromEntries(report.changes.map((c) => [c.name, c]));
    expect(byName.platform).toMatchObject({ action: "replace", uid: platform, replaceBecause: ["parentUid"] });
    expect(byName.platform.fields).toEqual([{ path: "parentUid", before: await uidOf("eng"), after: await uidOf("ops") }]);
    // The identity under platform follows it: its groupUid is the new group's, unknown until apply.
    expect(byName.ci).toMatchObject({ action: "replace", replaceBecause: ["groupUid"] });
    expect(byName.eng).toMatchObject({ action: "update" });
    expect(byName.eng.fields).toEqual([{ path: "description", before: "Changed in the console", after: "Everyone who builds" }]);
    // The engine masks secrets: the change shows as the secret field, masked on both sides.
    // (sso's parent, eng, is updated in place: its uid stays known, so sso is not replaced.)
    expect(byName.sso).toMatchObject({ action: "update", replaceBecause: [] });
    expect(byName.sso.fields).toEqual([{ path: "oidc", before: "[secret]", after: "[secret]" }]);
    expect(byName.releaser).toMatchObject({ action: "delete" });
    expect(byName.security).toMatchObject({ action: "create" });
    expect(byName.security.fields).toContainEqual({ path: "name", before: undefined, after: "security" });

    const markdown = formatReview(report, "markdown");
    expect(markdown).toContain("### Replace (2)");
    expect(markdown).toContain("#### `platform` (iam.Group): replaced because `parentUid` changed");
    expect(markdown).toContain("| `oidc` | `[secret]` | `[secret]` |");
    for (const out of [markdown, formatReview(report, "json")]) {
      expect(out).not.toContain(SECRET_V1);
      expect(out).not.toContain(SECRET_V2);
    }
  });
});
