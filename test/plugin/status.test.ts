import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as enginerpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineAddressOf } from "../../plugin/status";
import { secret, struct, usePlugin } from "../support/plugin";
import { useServer } from "../support/server";

/** A stand-in for the engine's Log service: what a provider shows as a resource's status. */
function useEngine() {
  const logs: engineproto.LogRequest[] = [];
  let server: grpc.Server | undefined;
  let address = "";
  beforeAll(async () => {
    server = new grpc.Server();
    server.addService(enginerpc.EngineService, {
      log: (call: grpc.ServerUnaryCall<engineproto.LogRequest, unknown>, done: grpc.sendUnaryData<unknown>) => {
        logs.push(call.request);
        done(null, new emptyproto.Empty());
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      server!.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    address = `127.0.0.1:${port}`;
  });
  afterAll(() => server?.forceShutdown());
  return { logs, address: () => address };
}

describe("the plugin's status lines", () => {
  const ctx = useServer();
  const engine = useEngine();
  const plugin = usePlugin(engine.address);
  beforeAll(() => plugin.configure({ apiUrl: ctx.server.url, token: secret(ctx.server.token) }));

  it("say, beside the resource, what a create waits on while the API answers 503", async () => {
    const urn = "urn:pulumi:dev::p::irv:iam:Group::waits";
    ctx.server.faults.add({ method: "POST", path: "/iam/v2beta1/groups", action: "unavailable", times: 2, retryAfterSeconds: 1 });
    const req = new provproto.CreateRequest().setUrn(urn).setProperties(struct({ parentUid: ctx.server.organization, name: "waits" }));
    const created = await plugin.call<provproto.CreateResponse>("create", req);
    expect(created.getId()).toMatch(new RegExp(`^${ctx.server.organization}/`));

    // Both waits were shown as the group's status (ephemeral), naming the request, why and the API.
    await expect.poll(() => engine.logs.length).toBeGreaterThanOrEqual(2);
    for (const log of engine.logs) {
      expect(log.getUrn()).toBe(urn);
      expect(log.getEphemeral()).toBe(true);
      expect(log.getMessage()).toMatch(
        new RegExp(
          `^POST /iam/v2beta1/groups/${ctx.server.organization}: HTTP 503 from ${ctx.server.url}; trying again in \\d+ s \\(\\d+ s left of the operation's budget\\)$`,
        ),
      );
    }
  });

  it("say what a read, an update and a delete wait on too, each beside its own resource", async () => {
    const group = (await ctx.api.post(`/iam/v2beta1/groups/${ctx.server.organization}`, { name: "waits-too" })).body as { uid: string; name: string };
    const urn = "urn:pulumi:dev::p::irv:iam:Group::waits-too";
    const calls: [string, string, () => Promise<unknown>][] = [
      [
        "GET",
        "read",
        () =>
          plugin.call(
            "read",
            new provproto.ReadRequest()
              .setUrn(urn)
              .setId(group.uid)
              .setProperties(struct({ uid: group.uid, parentUid: ctx.server.organization, name: group.name })),
          ),
      ],
      [
        "PATCH",
        "update",
        () =>
          plugin.call(
            "update",
            new provproto.UpdateRequest()
              .setUrn(urn)
              .setId(group.uid)
              .setOlds(struct({ uid: group.uid, parentUid: ctx.server.organization, name: group.name }))
              .setNews(struct({ parentUid: ctx.server.organization, name: group.name, description: "now" })),
          ),
      ],
      [
        "DELETE",
        "delete",
        () =>
          plugin.call(
            "delete",
            new provproto.DeleteRequest()
              .setUrn(urn)
              .setId(group.uid)
              .setProperties(struct({ uid: group.uid, parentUid: ctx.server.organization, name: group.name })),
          ),
      ],
    ];
    for (const [method, , send] of calls) {
      engine.logs.length = 0;
      ctx.server.faults.add({ method, path: `/iam/v2beta1/groups/${group.uid}`, action: "unavailable", times: 1, retryAfterSeconds: 1 });
      await send();
      await expect.poll(() => engine.logs.length).toBeGreaterThanOrEqual(1);
      for (const log of engine.logs) {
        expect(log.getUrn()).toBe(urn);
        expect(log.getMessage()).toMatch(new RegExp(`^${method} /iam/v2beta1/groups/${group.uid}: HTTP 503 from ${ctx.server.url}; trying again in \\d+ s`));
      }
    }
  });

  it("find the engine's address among the plugin's arguments, flags or not", () => {
    expect(engineAddressOf(["127.0.0.1:4000"])).toBe("127.0.0.1:4000");
    expect(engineAddressOf(["--logtostderr", "-v=9", "127.0.0.1:4000"])).toBe("127.0.0.1:4000");
    expect(engineAddressOf(["--tracing", "file:/tmp/t.json", "127.0.0.1:4000"])).toBe("127.0.0.1:4000");
    expect(engineAddressOf([])).toBeUndefined();
  });
});

describe("a plugin started by hand, as `PULUMI_DEBUG_PROVIDERS=irv:<port>` needs", () => {
  const ctx = useServer();
  const engine = useEngine();
  const plugin = usePlugin();
  beforeAll(() => plugin.configure({ apiUrl: ctx.server.url, token: secret(ctx.server.token) }));

  it("takes the engine's address from Attach, and sends its status lines there", async () => {
    await plugin.call("attach", new plugproto.PluginAttach().setAddress(engine.address()));
    const urn = "urn:pulumi:dev::p::irv:iam:Group::attached";
    ctx.server.faults.add({ method: "POST", path: "/iam/v2beta1/groups", action: "unavailable", times: 1, retryAfterSeconds: 1 });
    await plugin.call("create", new provproto.CreateRequest().setUrn(urn).setProperties(struct({ parentUid: ctx.server.organization, name: "attached" })));
    await expect.poll(() => engine.logs.length).toBeGreaterThanOrEqual(1);
    expect(engine.logs.map((l) => l.getUrn())).toContain(urn);
  });
});
