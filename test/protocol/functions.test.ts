/**
 * The functions (data sources) through the platform's generated REST gateway in front of
 * irv-server's gRPC: every repo, tag and advisory the sample holds parses as the gateway writes it
 * (enum names, int64 strings, unset messages as null, its timestamps) and equals what irv-server's
 * own REST serves. Called from a program process (mocks stand in for the engine only).
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../support/gateway";
import { listAll, useServer } from "../support/server";

const ctx = useServer();
let gw: Gateway;
let irv: typeof import("../../dynamic");

beforeAll(async () => {
  gw = await startGateway(ctx.server);
  pulumi.runtime.setAllConfig({ "irv:apiUrl": gw.url, "irv:token": ctx.server.token }, ["irv:token"]);
  await pulumi.runtime.setMocks({ newResource: (a) => ({ id: a.name, state: a.inputs }), call: () => ({}) }, "p", "s", false);
  irv = await import("../../dynamic");
});
afterAll(() => gw?.close());

describe("data sources through the platform's REST gateway", () => {
  it("reads every repo and one repo's tags, each as irv-server serves it", async () => {
    const direct = await listAll(ctx.api, "repos", { "uidp.descendants_of": ctx.server.organization });
    const { repos } = await irv.registry.getRepos({ descendantsOf: ctx.server.organization });
    expect(repos.map((r) => r.uid).sort()).toEqual(direct.map((r) => r.uid).sort());
    const nginx = await irv.registry.getRepo({ name: "nginx" });
    expect(nginx).toMatchObject({ name: "nginx", bundles: ["application"] });
    const { tags } = await irv.registry.getTags({ repoUid: nginx.uid });
    const directTags = await listAll(ctx.api, "tags", { "uidp.children_of": nginx.uid });
    expect(tags.map((t) => [t.name, t.digest]).sort()).toEqual(directTags.map((t) => [t.name, t.digest]).sort());
  });

  it("reads every advisory, and one by its id", async () => {
    const { advisories } = await irv.vulnerabilities.getAdvisories();
    expect(advisories).toHaveLength(300);
    const sample = advisories[0];
    expect(await irv.vulnerabilities.getAdvisory({ advisoryId: sample.advisoryId })).toEqual(sample);
  });
});
