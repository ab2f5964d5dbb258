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
import { IrvClient } from "../../client/client";
import { StaticTokenSource } from "../../client/auth";
import { vulnerabilities } from "../../provider/functions";

const ctx = useServer();
let gw: Gateway;
let irv: typeof import("../../dynamic");
/** The functions' client on irv-server's own REST, not the gateway. */
const directClients = () => new IrvClient(ctx.server.url, new StaticTokenSource(ctx.server.token));

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

  it("reads every advisory, and one by its id, each as irv-server serves it", async () => {
    const { advisories } = await irv.vulnerabilities.getAdvisories();
    expect(advisories).toHaveLength(300);
    // The same function over irv-server's own REST: field for field, nested events included.
    const direct = await vulnerabilities.getAdvisories(directClients);
    const byUid = (a: { uid: string }, b: { uid: string }) => a.uid.localeCompare(b.uid);
    expect([...advisories].sort(byUid)).toEqual([...direct.advisories].sort(byUid));
    const sample = advisories.find((a) => a.events.length > 0) ?? advisories[0];
    expect(sample.events.length, "the sample has an advisory with events").toBeGreaterThan(0);
    expect(await irv.vulnerabilities.getAdvisory({ advisoryId: sample.advisoryId })).toEqual(sample);
  });
});
