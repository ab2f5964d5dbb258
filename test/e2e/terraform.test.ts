import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terraformMapping } from "../../plugin/terraform/mapping";
import { ENGINE_TIMEOUT, pulumiEnv, repoRoot } from "../support/engine";
import { make, makeEveryKind } from "../support/every-kind";
import { startTestServer, type TestServer } from "../support/server";
import { fixtureState, importFileOf, stateOnto } from "../support/terraform";
import { deploymentPath, seedDeployer } from "../support/deployments";
import { run } from "../support/toolchain";
import { yamlProject, type YamlProject } from "../support/yaml-project";

// Coming from the Terraform provider through the real CLI: `pulumi package get-mapping` of the
// plugin, as docs/from-terraform.md runs it, and the import of an org from a state that provider
// wrote (its ids: uids, the association's its group's), by the document the converter makes of
// it, after which the code `pulumi import` writes previews no change.

const PLUGIN = path.join(repoRoot, "bin", "pulumi-resource-irv");

describe("pulumi package get-mapping terraform", { timeout: ENGINE_TIMEOUT }, () => {
  let dir: string;
  beforeAll(() => void (dir = mkdtempSync(path.join(tmpdir(), "irv-get-mapping-"))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const pulumi = (...args: string[]) => run("pulumi", args, { cwd: dir, env: { ...process.env, ...pulumiEnv(path.join(dir, "home")) } });

  it("prints the plugin's mapping, for the chainguard provider", async () => {
    const r = await pulumi("package", "get-mapping", "terraform", PLUGIN);
    expect(Buffer.from(r.stdout).equals(terraformMapping())).toBe(true);
    expect(r.stderr).toContain(`${PLUGIN} maps to provider chainguard`);
  });

  it("writes it to the mapping file `pulumi convert --mappings` reads, named after the provider", async () => {
    await pulumi("package", "get-mapping", "terraform", PLUGIN, "chainguard", "--out", "chainguard.json");
    expect(readFileSync(path.join(dir, "chainguard.json")).equals(terraformMapping())).toBe(true);
  });
});

describe("importing an org from the Terraform provider's state", { timeout: ENGINE_TIMEOUT }, () => {
  let srv: TestServer;
  let p: YamlProject;
  let live: Record<string, string>;
  beforeAll(async () => {
    // The admin may create a repo's deployment (a custom role: no built-in one may).
    srv = await startTestServer({ seed: seedDeployer() });
    const made = await makeEveryKind(srv.api, srv.server.organization, "engineering");
    // As the provider wrote them: Terraform's null is an unset member, as protojson reads it.
    const charts = fixtureState().resources.find((r) => r.type === "chainguard_image_repo_deployment")!.instances[0].attributes.charts;
    expect((await srv.api.post(deploymentPath(made.repo), { charts })).status).toBe(200);
    const viewerBinding = await make(srv.api, "roleBindings", made.team, { identityUid: made.aws, roleUid: made.viewer });
    // The fixture's resources, by address, onto live items of their kinds.
    live = {
      "chainguard_group.engineering": made.team,
      "chainguard_identity.release_ci": made.ci,
      "chainguard_identity.signer": made.keys,
      "chainguard_identity.aws_deployer": made.aws,
      "chainguard_identity.ingester": made.syncer,
      "chainguard_role.releaser": made.deployer,
      "chainguard_rolebinding.release_ci": made.binding,
      "chainguard_rolebinding.deployer_viewer": viewerBinding,
      "chainguard_identity_provider.sso": made.sso,
      "chainguard_account_associations.accounts": made.accounts,
      "chainguard_group_invite.security": made.invite,
      "chainguard_subscription.deploy_hook": made.subscription,
      "chainguard_image_repo.app": made.repo,
      "chainguard_image_tag.app_latest": made.tag,
      // A deployment's id is its repo's.
      "chainguard_image_repo_deployment.app": made.repo,
    };
    p = await yamlProject("from-terraform", srv.server);
  }, ENGINE_TIMEOUT);
  afterAll(async () => {
    p?.dispose();
    await srv?.close();
  });

  it("imports every resource by the id Terraform wrote, and the code pulumi import writes previews no change", async () => {
    const state = stateOnto(live);
    // The association's id is its group's uid, as the Terraform provider writes it.
    expect(live["chainguard_account_associations.accounts"]).toBe(live["chainguard_group.engineering"]);
    const doc = importFileOf(state, JSON.parse(terraformMapping().toString()));
    expect(doc.resources).toHaveLength(15);
    const file = path.join(p.base, "import.json");
    writeFileSync(file, JSON.stringify(doc));
    const out = path.join(p.base, "code.yaml");
    await p.pulumi("import", "--file", file, "--yes", "--protect=false", "--out", out);
    const resources = await p.resources();
    for (const e of doc.resources) expect(resources.find((r) => r.type === e.type && r.urn.endsWith(`::${e.name}`))?.id, `${e.type} ${e.name}`).toBe(e.id);
    const code = readFileSync(out, "utf8");
    p.write(code.replace(/^resources:\n/, ""));
    // Two resources share a Terraform name (an identity and a binding are both `release_ci`): the code names them apart.
    expect(code.match(/^ {2}release_ci\w*:$/gm)).toHaveLength(2);
    expect((await p.previewJson("--expect-no-changes")).changeSummary).toEqual({ same: doc.resources.length + 1 }); // and the stack
  });
});
