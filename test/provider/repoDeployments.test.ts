/**
 * registry.RepoDeployment's provider against a live irv-server: created by an organization's
 * caller holding registry.deployments.create (a custom role), read by one Get, changed and cleared
 * only as the platform's staff, each refusal saying what the user can do; a second create says to
 * import; bad charts named at preview.
 */
import { describe, expect, it } from "vitest";
import { configure, dynamicProviders, providers } from "../../provider";
import { hostContext, ReadBatch } from "../../provider/resources";
import type { Rec } from "../../provider/resources/spec";
import { clientFor } from "../../client/session";
import { seedDeployer } from "../support/deployments";
import { created, uniqueName, useProviderServer } from "../support/provider";

const ctx = useProviderServer({ staff: true, seed: seedDeployer() });
/** The kind's provider, each call given the dynamic host's context (the settings `configure` recorded). */
const provider = providers.repoDeployments;
const deployments = {
  check: (olds: Rec | undefined, news: Rec) => provider.check(olds, news, hostContext()),
  diff: (id: string, olds: Rec, news: Rec) => provider.diff(id, olds, news, hostContext()),
  create: (inputs: Rec) => provider.create(inputs, hostContext()),
  read: (id: string, props?: Rec) => provider.read(id, props, hostContext()),
  update: (id: string, olds: Rec, news: Rec) => provider.update(id, olds, news, hostContext()),
  delete: (id: string, props: Rec) => provider.delete(id, props, hostContext()),
};
const PODINFO = [{ repo: "oci://ghcr.io/stefanprodan/charts/podinfo", source: "https://github.com/stefanprodan/podinfo" }];
const KYVERNO = [{ repo: "https://kyverno.github.io/kyverno/", chart: "kyverno" }];

const freshRepo = async () => (await created(ctx.api, "repos", ctx.server.organization, { name: uniqueName("repo") })).uid as string;

/** Runs `fn` with the provider configured with `token`, then with the admin's again. */
async function as<T>(token: string, fn: () => Promise<T>): Promise<T> {
  const settings = (t: string): Record<string, string> => ({ "irv:apiUrl": ctx.server.url, "irv:token": t });
  configure((key) => settings(token)[key]);
  try {
    return await fn();
  } finally {
    configure((key) => settings(ctx.server.token)[key]);
  }
}

describe("registry.RepoDeployment provider", () => {
  it("creates and reads a deployment whose id is its repo's; only the platform's staff change or clear it", async () => {
    const repoUid = await freshRepo();
    const { id, outs } = await deployments.create({ repoUid, charts: PODINFO });
    expect(id).toBe(repoUid);
    expect(outs).toMatchObject({ uid: repoUid, repoUid, charts: PODINFO });
    const read = await deployments.read(id, outs);
    expect(read?.props).toEqual(outs);
    expect((await deployments.diff(id, outs, { repoUid, charts: PODINFO })).changes).toBe(false);
    const verdict = await deployments.diff(id, outs, { repoUid, charts: KYVERNO });
    expect(verdict.changes).toBe(true);
    expect(verdict.replaces ?? []).toEqual([]);

    const update = await deployments.update(id, outs, { repoUid, charts: KYVERNO }).catch((e: Error) => e);
    expect(update).toBeInstanceOf(Error);
    expect((update as Error).message).toMatch(/changing its charts takes registry\.deployments\.update, which on the platform only its staff hold/);
    expect((update as Error).message).toContain("retainOnDelete: true");
    expect((update as Error).message).toContain("pulumi state delete");
    const del = await deployments.delete(id, outs).catch((e: Error) => e);
    expect((del as Error).message).toMatch(/deleting it \(an update with no charts.*\) takes registry\.deployments\.update/);
    expect((await deployments.read(id, outs))?.props.charts).toEqual(PODINFO);

    const staff = ctx.server.staffToken!;
    const updated = await as(staff, () => deployments.update(id, outs, { repoUid, charts: KYVERNO }));
    expect(updated.outs.charts).toEqual(KYVERNO);
    await as(staff, () => deployments.delete(id, updated.outs));
    expect(await deployments.read(id, updated.outs)).toBeUndefined();
    // Deleting what is gone is done.
    await as(staff, () => deployments.delete(id, updated.outs));
  });

  it("refuses a second create, saying to import it; imports by the repo's uid", async () => {
    const repoUid = await freshRepo();
    await deployments.create({ repoUid, charts: PODINFO });
    const again = await deployments.create({ repoUid, charts: KYVERNO }).catch((e: Error) => e);
    expect((again as Error).message).toContain(`repo ${repoUid} already has a deployment`);
    expect((again as Error).message).toContain(`pulumi import irv:registry:RepoDeployment <name> ${repoUid}`);
    const imported = await dynamicProviders.repoDeployments.read(repoUid, {} as any);
    expect(imported.inputs).toEqual({ repoUid, charts: PODINFO });
    // Adopting takes it as it is.
    expect((await deployments.create({ repoUid, charts: PODINFO, adoptUid: repoUid })).id).toBe(repoUid);
  });

  it("reads each deployment with one Get, never a List (the API has none)", async () => {
    const repos = [await freshRepo(), await freshRepo()];
    for (const repoUid of repos) await deployments.create({ repoUid, charts: PODINFO });
    const client = clientFor({ apiUrl: ctx.server.url, token: ctx.server.token });
    const before = ctx.server.requests.length;
    const batch = new ReadBatch();
    for (const uid of [...repos, ...repos]) expect((await batch.read(client, "repoDeployments", uid)).charts).toEqual(PODINFO);
    const seen = ctx.server.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(seen).toEqual([...repos, ...repos].map((u) => `GET /registry/v1/repos/${u}/deployment`));
  });

  it("checks at preview, naming the field", async () => {
    const repoUid = await freshRepo();
    const failures = async (i: object) => (await deployments.check(undefined, { repoUid, ...i } as any)).failures.map((f) => f.property);
    expect(await failures({ charts: PODINFO })).toEqual([]);
    expect(await failures({ charts: [] })).toEqual(["charts"]);
    expect(await failures({ charts: [{ source: "https://x.test" }] })).toEqual(["charts"]);
    expect(await failures({ charts: [{ repo: "r".repeat(3000) }] })).toEqual(["charts"]);
    const reason = (await deployments.check(undefined, { repoUid, charts: [] })).failures[0].reason;
    expect(reason).toContain("at least one chart");
  });
});
