/**
 * Registry data sources with no credentials at all: public repos and their tags are read without
 * a token; a private one says which settings are missing. Other data sources still need them.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { listAll, useServer } from "../support/server";

const digest = `sha256:${"b".repeat(64)}`;
const ctx = useServer({
  fixtures: {
    repos: [
      { name: "public-one", visibility: "public", tags: [{ name: "latest", digest }] },
      { name: "private-one", tags: [{ name: "latest", digest }] },
    ],
  },
});
let irv: typeof import("../../dynamic");

beforeAll(async () => {
  // No credential anywhere: not in config, not in the environment, no irv auth login.
  for (const v of ["IRV_TOKEN", "IRV_IDENTITY", "IRV_IDENTITY_TOKEN", "IRV_API_URL"]) delete process.env[v];
  process.env.IRV_CONFIG_DIR = mkdtempSync(join(tmpdir(), "irv-anon-"));
  pulumi.runtime.setAllConfig({ "irv:apiUrl": ctx.server.url }, []);
  await pulumi.runtime.setMocks({ newResource: (a) => ({ id: a.name, state: a.inputs }), call: () => ({}) }, "p", "s", false);
  irv = await import("../../dynamic");
});

describe("registry data sources without credentials", () => {
  it("read public repos and their tags without a token", async () => {
    const { repos } = await irv.registry.getRepos();
    expect(repos.map((r) => [r.name, r.visibility])).toEqual([["public-one", "public"]]);
    const one = await irv.registry.getRepo({ name: "public-one" });
    expect((await irv.registry.getRepo({ uid: one.uid })).name).toBe("public-one");
    const { tags } = await irv.registry.getTags({ repoUid: one.uid });
    expect(tags.map((t) => t.name)).toEqual(["latest"]);
    const sent = ctx.server.requests.filter((r) => r.path.startsWith("/registry/"));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.caller === undefined)).toBe(true);
  });

  it("say which settings are missing when a private repo is asked for", async () => {
    const priv = (await listAll(ctx.api, "repos", { name: "private-one" }))[0];
    await expect(irv.registry.getRepo({ uid: priv.uid })).rejects.toThrow(
      /is not public.*needs credentials: no credentials: set irv:token \(IRV_TOKEN\), or irv:identity .* or run irv auth login/,
    );
    await expect(irv.registry.getRepo({ name: "private-one" })).rejects.toThrow(/no public repo named "private-one"; private repos need credentials: .*irv:token/);
    await expect(irv.registry.getTags({ repoUid: priv.uid })).rejects.toThrow(/is not public.*needs credentials: no credentials: set irv:token/);
  });

  it("other data sources still need credentials, and say so", async () => {
    await expect(irv.iam.getRoles()).rejects.toThrow(/no credentials: set irv:token/);
    await expect(irv.vulnerabilities.getAdvisories()).rejects.toThrow(/no credentials: set irv:token/);
  });
});
