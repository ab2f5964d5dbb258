/**
 * A resource plugin that makes no API call: `pulumi-resource-irvtrivial` (harness/bin). Its
 * resources (`irvtrivial:iam:<Type>`, any type) echo their inputs and get a random `uid`, so a
 * program declaring the irv org with its type tokens gives the engine the same dependency graph
 * as the irv plugin, and only the provider's work differs: the engine's own floor for a resource
 * plugin, as harness/trivial.ts is for dynamic resources. It serves the same gRPC stubs as
 * plugin/server.ts, with previews answered the same way (the outputs the provider computes
 * unknown).
 *
 * With `IRV_TRIVIAL_OUTPUTS` naming a JSON file of outputs by resource name (the benchmark records
 * the irv plugin's own), a create answers with those outputs: the same floor, with state and
 * messages as large as the irv plugin's.
 *
 *   node dist/harness/trivial-plugin.js     # prints its port, as the engine expects
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { unknownValue } from "../provider/sentinels";
import type { Rec } from "../provider/resources/spec";

const valuesOf = (s: structproto.Struct | undefined): Rec => (s?.toJavaScript() ?? {}) as Rec;
const struct = (v: Rec): structproto.Struct => structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(v)));
/** The inputs that differ between `olds` (outputs) and `news`. */
const changed = (olds: Rec, news: Rec) => Object.keys(news).filter((k) => k !== "uid" && JSON.stringify(olds[k]) !== JSON.stringify(news[k]));

/** Outputs to answer creates with, by resource name (see above). */
const recorded: Record<string, Rec> = process.env.IRV_TRIVIAL_OUTPUTS ? JSON.parse(readFileSync(process.env.IRV_TRIVIAL_OUTPUTS, "utf8")) : {};

function unary<Req>(f: (req: Req) => unknown) {
  return (call: grpc.ServerUnaryCall<Req, unknown>, done: grpc.sendUnaryData<unknown>) => {
    try {
      done(null, f(call.request));
    } catch (e) {
      done({ code: grpc.status.UNKNOWN, message: e instanceof Error ? e.message : String(e) });
    }
  };
}

const service = {
  getPluginInfo: unary(() => new plugproto.PluginInfo().setVersion("0.0.1")),
  checkConfig: unary((req: provproto.CheckRequest) => new provproto.CheckResponse().setInputs(req.getNews())),
  diffConfig: unary(() => new provproto.DiffResponse().setChanges(provproto.DiffResponse.DiffChanges.DIFF_NONE)),
  configure: unary(() => new provproto.ConfigureResponse().setSupportspreview(true).setAcceptsecrets(true).setAcceptresources(false)),
  check: unary((req: provproto.CheckRequest) => new provproto.CheckResponse().setInputs(req.getNews())),
  diff: unary((req: provproto.DiffRequest) => {
    const diffs = changed(valuesOf(req.getOlds()), valuesOf(req.getNews()));
    return new provproto.DiffResponse()
      .setChanges(diffs.length ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE)
      .setDiffsList(diffs);
  }),
  create: unary((req: provproto.CreateRequest) => {
    const news = valuesOf(req.getProperties());
    if (req.getPreview()) return new provproto.CreateResponse().setProperties(struct({ ...news, uid: unknownValue }));
    const outs = recorded[req.getUrn().split("::").pop() ?? ""];
    if (outs) return new provproto.CreateResponse().setId(String(outs.uid)).setProperties(struct({ ...outs, ...news }));
    const id = randomUUID();
    return new provproto.CreateResponse().setId(id).setProperties(struct({ ...news, uid: id }));
  }),
  read: unary((req: provproto.ReadRequest) => {
    const resp = new provproto.ReadResponse().setId(req.getId());
    const props = req.getProperties();
    const inputs = req.getInputs();
    if (props) resp.setProperties(props);
    if (inputs) resp.setInputs(inputs);
    return resp;
  }),
  update: unary((req: provproto.UpdateRequest) =>
    new provproto.UpdateResponse().setProperties(struct({ ...valuesOf(req.getOlds()), ...valuesOf(req.getNews()) })),
  ),
  delete: unary(() => new emptyproto.Empty()),
  cancel: unary(() => new emptyproto.Empty()),
};

const server = new grpc.Server();
server.addService(provrpc.ResourceProviderService, service);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    process.stderr.write(`pulumi-resource-irvtrivial: ${err.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});
