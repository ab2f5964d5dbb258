/**
 * One operation's calls to a started plugin, as the engine makes them, for bench/startup.ts's
 * `--calls`: Configure, then `n` groups checked and created, read, checked, diffed and updated,
 * and deleted, each step for all `n` at once (`--parallel`). `mark` is called after Configure and
 * after each step, so the caller can read the plugin's CPU there.
 */
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import type { RunningServer } from "../server";

/** The steps, in order: `mark` is called with each as it ends. */
export const STEPS = ["configure", "create", "read", "update", "delete"] as const;
export type Step = (typeof STEPS)[number];

const struct = (v: object) => structproto.Struct.fromJavaScript(v as Record<string, structproto.JavaScriptValue>);

export async function driveSession(port: string, server: RunningServer, n: number, mark: (step: Step) => void): Promise<void> {
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = <Req, Res>(method: (req: Req, cb: (e: grpc.ServiceError | null, r: Res) => void) => unknown, req: Req) =>
    new Promise<Res>((resolve, reject) => method.call(client, req, (e, r) => (e ? reject(e) : resolve(r))));
  try {
    const token = { [specialSigKey]: specialSecretSig, value: server.token };
    await call(client.configure, new provproto.ConfigureRequest().setArgs(struct({ apiUrl: server.url, token })).setAcceptsecrets(true));
    mark("configure");
    const run = `${process.pid}-${Date.now().toString(36)}`;
    const urn = (i: number) => `urn:pulumi:dev::bench::irv:iam:Group::g${i}`;
    const groups = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const news = struct({ parentUid: server.organization, name: `bench-${run}-${i}`, description: "before" });
        const checked = await call<provproto.CheckRequest, provproto.CheckResponse>(
          client.check,
          new provproto.CheckRequest().setUrn(urn(i)).setNews(news).setOlds(struct({})),
        );
        const created = await call<provproto.CreateRequest, provproto.CreateResponse>(
          client.create,
          new provproto.CreateRequest().setUrn(urn(i)).setProperties(checked.getInputs()),
        );
        return { id: created.getId(), outs: created.getProperties()!, ins: checked.getInputs()! };
      }),
    );
    mark("create");
    await Promise.all(groups.map((g, i) => call(client.read, new provproto.ReadRequest().setUrn(urn(i)).setId(g.id).setProperties(g.outs).setInputs(g.ins))));
    mark("read");
    await Promise.all(
      groups.map(async (g, i) => {
        const news = struct({ ...g.ins.toJavaScript(), description: "after" });
        const checked = await call<provproto.CheckRequest, provproto.CheckResponse>(
          client.check,
          new provproto.CheckRequest().setUrn(urn(i)).setNews(news).setOlds(g.ins),
        );
        await call(client.diff, new provproto.DiffRequest().setUrn(urn(i)).setId(g.id).setOlds(g.outs).setNews(checked.getInputs()).setOldInputs(g.ins));
        const updated = await call<provproto.UpdateRequest, provproto.UpdateResponse>(
          client.update,
          new provproto.UpdateRequest().setUrn(urn(i)).setId(g.id).setOlds(g.outs).setNews(checked.getInputs()).setOldInputs(g.ins),
        );
        g.outs = updated.getProperties()!;
      }),
    );
    mark("update");
    await Promise.all(groups.map((g, i) => call(client.delete, new provproto.DeleteRequest().setUrn(urn(i)).setId(g.id).setProperties(g.outs))));
    mark("delete");
  } finally {
    client.close();
  }
}
