/**
 * A repo's deployment on registry v1 (`/registry/v1/repos/{id}/deployment`): created, read and
 * updated the same on REST and gRPC, cleared by an update with no charts (the Terraform
 * provider's destroy), gone with its repo, kept across a restart; bad input refused naming the
 * field. The platform's capabilities exactly: a viewer reads, a custom role with
 * registry.deployments.create creates, and nobody but the platform's staff (`--staff`) updates.
 */
import { status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { CHART_URL_MAX, CHARTS_MAX } from "../../api/kinds/repoDeployments";
import { deploymentPath as at, seedDeployer } from "../support/deployments";
import { grpcFor, type GrpcResult } from "../support/grpc";
import { apiFor, useServer } from "../support/server";
import { ensureBuilt, launch, stop, useDataDirs } from "../support/server-process";
import { bind, created, expectError, expectFieldViolation, mkIdentity, ok, role } from "../support/server-helpers";

const REGISTRY = "chainguard.platform.registry.Registry";
const sample = useServer({ staff: true, seed: seedDeployer() });
const dataDirs = useDataDirs("irv-deployments-");

const failure = (r: GrpcResult) => {
  if (!("error" in r)) throw new Error(`expected an error, got ${JSON.stringify(r.ok)}`);
  return { code: status[r.error.code], message: r.error.details };
};
const staff = () => apiFor(sample.server.url, sample.server.staffToken!);

describe("registry v1 deployments", () => {
  it("creates, reads, updates and clears a repo's deployment on REST, the same on gRPC", async () => {
    const org = sample.server.organization;
    const repo = await created(sample.api, "repos", org, { name: "podinfo-deploy" });
    expectError(await sample.api.get(at(repo.uid)), "NOT_FOUND");
    const charts = [{ repo: "oci://ghcr.io/stefanprodan/charts/podinfo", source: "https://github.com/stefanprodan/podinfo" }];
    expect(ok(await sample.api.post(at(repo.uid), { charts }))).toEqual({ id: repo.uid, charts });
    expectError(await sample.api.post(at(repo.uid), { charts }), "ALREADY_EXISTS");
    expect(ok(await sample.api.get(at(repo.uid)))).toEqual({ id: repo.uid, charts });
    const next = [{ repo: "https://kyverno.github.io/kyverno/", chart: "kyverno" }];
    expect(ok(await staff().put(at(repo.uid), { charts: next }))).toEqual({ id: repo.uid, charts: next });
    // The repo itself is not changed by its deployment, nor does its item show it.
    const item = ok(await sample.api.get(`/registry/v2beta1/repos/${repo.uid}`));
    expect(item).not.toHaveProperty("deployment");
    expect(item.updateTime).toBe(repo.updateTime);

    const g = grpcFor(sample.server.url, sample.server.token);
    const gs = grpcFor(sample.server.url, sample.server.staffToken!);
    try {
      const got = await g.call(REGISTRY, "GetDeployment", { repoId: repo.uid });
      expect("ok" in got && got.ok).toMatchObject({ id: repo.uid, charts: [{ repo: next[0].repo, chart: "kyverno" }] });
      const refused = failure(await g.call(REGISTRY, "UpdateDeployment", { repoId: repo.uid, charts: [] }));
      expect(refused.code).toBe("PERMISSION_DENIED");
      expect(refused.message).toContain("registry.deployments.update");
      const cleared = await gs.call(REGISTRY, "UpdateDeployment", { repoId: repo.uid, charts: [] });
      expect("ok" in cleared && cleared.ok).toMatchObject({ id: repo.uid });
      // Cleared is none: read NOT_FOUND, and it may be created again.
      expectError(await sample.api.get(at(repo.uid)), "NOT_FOUND");
      expect(failure(await gs.call(REGISTRY, "UpdateDeployment", { repoId: repo.uid, charts: [] })).code).toBe("NOT_FOUND");
      const made = await g.call(REGISTRY, "CreateDeployment", { parentId: repo.uid, charts: [{ repo: "oci://example.test/charts/x" }] });
      expect("ok" in made && made.ok).toMatchObject({ id: repo.uid, charts: [{ repo: "oci://example.test/charts/x" }] });
      expect(failure(await g.call(REGISTRY, "CreateDeployment", { parentId: repo.uid, charts: [] })).code).toBe("ALREADY_EXISTS");
      expect(failure(await g.call(REGISTRY, "GetDeployment", { repoId: "not-a-uid" })).code).toBe("INVALID_ARGUMENT");
      ok(await sample.api.del(`/registry/v2beta1/repos/${repo.uid}`));
      expect(failure(await g.call(REGISTRY, "GetDeployment", { repoId: repo.uid })).code).toBe("NOT_FOUND");
    } finally {
      g.close();
      gs.close();
    }
  });

  it("refuses bad charts naming the field, and an unknown repo as NOT_FOUND", async () => {
    const org = sample.server.organization;
    const repo = await created(sample.api, "repos", org, { name: "bad-charts" });
    expectFieldViolation(await sample.api.post(at(repo.uid), { charts: [{ source: "https://x.test" }] }), "charts.0.repo");
    expectFieldViolation(await sample.api.post(at(repo.uid), { charts: [{ repo: "r".repeat(CHART_URL_MAX + 1) }] }), "charts.0.repo");
    expectFieldViolation(await sample.api.post(at(repo.uid), { charts: [{ repo: "oci://x", source: "s".repeat(CHART_URL_MAX + 1) }] }), "charts.0.source");
    const many = Array.from({ length: CHARTS_MAX + 1 }, (_, i) => ({ repo: `oci://example.test/c${i}` }));
    expectFieldViolation(await sample.api.post(at(repo.uid), { charts: many }), "charts");
    expectFieldViolation(await staff().put(at(repo.uid), { charts: "x" }), "charts");
    expectError(await sample.api.get(at(`${org}/0123456789abcdef`)), "NOT_FOUND");
    expectFieldViolation(await sample.api.get(at("nope")), "repo_id");
    expectFieldViolation(await sample.api.post(at("nope"), { charts: [] }), "parent_id");
    // A deployment is never public, whatever its repo.
    expectError(await sample.api.as(null).get(at(repo.uid)), "UNAUTHENTICATED");
  });

  it("takes the platform's capabilities: a viewer reads, a role with registry.deployments.create creates, only the platform's staff updates", async () => {
    const org = sample.server.organization;
    const repo = await created(sample.api, "repos", org, { name: "viewed" });
    const other = await created(sample.api, "repos", org, { name: "viewed-too" });
    ok(await sample.api.post(at(repo.uid), { charts: [{ repo: "oci://example.test/c" }] }));
    const id = await mkIdentity(sample.api, org, "deploy-viewer");
    const api = apiFor(sample.server.url, await sample.server.issueToken(id.uid));
    expect(expectError(await api.get(at(repo.uid)), "PERMISSION_DENIED").message).toContain("registry.deployments.list");
    await bind(sample.api, org, id.uid, role.viewer);
    expect(ok(await api.get(at(repo.uid))).charts).toEqual([{ repo: "oci://example.test/c" }]);
    // An owner holds neither write: create takes a role that grants it, update the platform's staff.
    await bind(sample.api, org, id.uid, role.owner);
    expect(expectError(await api.post(at(other.uid), { charts: [] }), "PERMISSION_DENIED").message).toContain("registry.deployments.create");
    for (const who of [api, sample.api]) {
      const { message } = expectError(await who.put(at(repo.uid), { charts: [] }), "PERMISSION_DENIED");
      expect(message).toContain('"registry.deployments.update"');
      expect(message).toContain("platform's own capability (internal only)");
      expect(message).toContain("only its staff can change or clear");
    }
    // No role may even hold it.
    expectFieldViolation(
      await sample.api.post(`/iam/v2beta1/roles/${org}`, { name: "updater", capabilities: ["CAP_REGISTRY_DEPLOYMENTS_UPDATE"] }),
      "capabilities.0",
    );
    expect(ok(await staff().put(at(repo.uid), { charts: [{ repo: "oci://example.test/d" }] })).charts).toEqual([{ repo: "oci://example.test/d" }]);
    // Staff hold the deployments' capabilities and the internal ones, nothing of an organization's.
    expectError(await staff().get(`/registry/v2beta1/repos/${repo.uid}`), "PERMISSION_DENIED");
  });

  it("has no staff unless declared, and is kept in the data directory with its repo across a restart", async () => {
    ensureBuilt();
    const dir = dataDirs();
    const charts = [{ repo: "oci://example.test/charts/kept", chart: "kept" }];
    const first = await launch(dir, ["--port", "0", "--staff"]);
    let uid: string;
    const staffToken = (first.start as { staffToken?: string }).staffToken!;
    expect(staffToken).toBeTruthy();
    try {
      const api = apiFor(first.start.url, first.start.token);
      uid = (await created(api, "repos", first.start.organization, { name: "kept" })).uid;
      ok(await apiFor(first.start.url, staffToken).post(at(uid), { charts }));
    } finally {
      await stop(first);
    }
    const second = await launch(dir, ["--port", "0"]);
    try {
      expect(ok(await apiFor(second.start.url, second.start.token).get(at(uid)))).toEqual({ id: uid, charts });
      expect(second.start).not.toHaveProperty("staffToken");
      // Without --staff, the staff's token names no identity.
      expectError(await apiFor(second.start.url, staffToken).get(at(uid)), "UNAUTHENTICATED");
    } finally {
      await stop(second);
    }
  });
});
