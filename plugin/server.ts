/**
 * The resource plugin's gRPC provider server, over the stubs `@pulumi/pulumi` ships. Every
 * resource operation dispatches to the same per-kind provider the dynamic classes use
 * (provider/resources); this layer only translates: secrets unwrapped on the way in and wrapped
 * again on the way out, member by member, the engine's timeouts passed on as the call's
 * deadline, a detailed diff, previews answered without calling the API, and an import's read
 * (which carries no properties) answered with outputs and the declared inputs. Read and Diff take
 * the engine's Structs as bytes (./wire), which a read that finds no drift sends back as they came.
 * Invoke runs the functions the TypeScript SDK's data sources run (plugin/functions.ts), with the
 * configured client. GetMappings and GetMapping answer the Terraform converter (plugin/terraform).
 * Values are decoded and encoded in ./values, diffs made in ./diff. Every call goes through the
 * server's calls (./calls): failures reach the engine with their gRPC
 * code, and the engine's Cancel stops what is in flight.
 */
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { KINDS, definitionOfTypeToken } from "../api/kinds";
import { contextOf, providerOf, type Call, type Context, type ReadBatch } from "../provider/resources";
import { VERSION } from "./version";
import { once } from "../api/once";
import { Session } from "../client/session";
import { statusOf, useEngine } from "./status";
import { Calls, type CallContext } from "./calls";
import { noteServed } from "./served";
import { typeOfUrn } from "./urn";
import { BadRequestError } from "./errors";
import { providerService, type DiffCall, type ReadAnswer, type ReadCall } from "./wire";
import { answerWith, decode, outward, outwardValues, plain } from "./values";
import { detailedDiff, previewOutputs } from "./diff";
import type { Rec } from "../provider/resources/spec";

/** Kinds by type token, as URNs name them (a refresh asks thousands of times). */
const kindsByType = new Map<string, (typeof KINDS)[number]>();

/** The kind of a resource from its URN (`urn:pulumi:stack::project::irv:iam:Group::name`). */
function kindOfUrn(urn: string): (typeof KINDS)[number] {
  const type = typeOfUrn(urn);
  let k = kindsByType.get(type);
  if (!k) {
    k = definitionOfTypeToken(type);
    if (!k) throw new BadRequestError(`irv: unknown resource type ${type}`);
    kindsByType.set(type, k);
  }
  return k;
}

/**
 * A call's options for resource `urn`: its requests' retry waits shown as the resource's status,
 * the engine's Cancel, and the engine's timeout (seconds, 0 when none) as its deadline.
 */
const optionsFor = (urn: string, c: CallContext, timeout = 0): Partial<Call> => ({
  report: statusOf(urn),
  signal: c.signal,
  deadline: timeout > 0 ? Date.now() + timeout * 1000 : undefined,
});

/** What one plugin server's calls share: the settings of its Configure call, and its operation's read batch. */
interface PluginState {
  /** From Configure; before it, the environment's settings alone. */
  session: Session;
  reads?: ReadBatch;
}

/** A call to one plugin server: the call's own (its Cancel), and its server's state. */
type PluginCall = CallContext & { plugin: PluginState };

/** The provider method's context for a call about resource `urn` (see `optionsFor`): nothing comes from the process. */
const contextFor = (urn: string, c: PluginCall, timeout?: number): Context => contextOf(c.plugin.session, optionsFor(urn, c, timeout), c.plugin.reads);

/** The settings getter of a Configure request: its args first, then its variables (`irv:config:<key>`). */
function settingsOf(req: provproto.ConfigureRequest): (key: string) => string | undefined {
  const args = plain(req.getArgs());
  const variables = req.getVariablesMap();
  return (key) => {
    const name = key.replace(/^irv:/, "");
    const v = args[name] ?? variables.get(`irv:config:${name}`);
    return typeof v === "string" && v !== "" ? v : undefined;
  };
}

/**
 * Refuses to import what lies in no group: the organization's root group and the built-in roles
 * belong to the platform, which no program can create or delete. Refer to them by uid instead.
 */
function refuseUnowned(k: (typeof KINDS)[number], uid: string, props: Rec): void {
  if (props[k.parentField]) return;
  const what = k.kind === "groups" ? "it is the organization's root group" : `it is a built-in ${k.label}`;
  throw new Error(`${k.label} ${uid} lies in no group (${what}): it belongs to the platform and cannot be imported; refer to it by uid`);
}

// What only some calls need loads on the first of them: the package schema (GetSchema, and the
// Terraform mappings built from it), the functions (Invoke). The engine starts the plugin for
// every operation, and most never ask for these.
const schema = once(() => import("./schema"));
const functions = once(() => import("./functions"));
const mapping = once(() => import("./terraform/mapping"));

/** The version of the package schema GetSchema answers with: the only one there is. */
const SCHEMA_VERSION = 0;

/**
 * The service's methods, each answering with what it returns or failing with the error's code
 * (see ./calls); `serve` answers them through its server's calls, and Cancel itself. Each
 * resource method hands its kind's provider the call's context.
 */
const methods = {
  getPluginInfo: () => new plugproto.PluginInfo().setVersion(VERSION),

  // A plugin started by hand (`PULUMI_DEBUG_PROVIDERS=irv:<port>`) learns the engine's address here.
  attach: (req: plugproto.PluginAttach) => {
    useEngine(req.getAddress());
    return new emptyproto.Empty();
  },

  getSchema: async (req: provproto.GetSchemaRequest) => {
    // An engine asking for a schema version this plugin does not know must not get another one.
    if (req.getVersion() !== SCHEMA_VERSION)
      throw new BadRequestError(`irv: unsupported schema version ${req.getVersion()}; pulumi-resource-irv ${VERSION} writes version ${SCHEMA_VERSION}`);
    return new provproto.GetSchemaResponse().setSchema(JSON.stringify((await schema()).packageSchema()));
  },

  checkConfig: (req: provproto.CheckRequest) => new provproto.CheckResponse().setInputs(req.getNews()),

  diffConfig: (req: provproto.DiffRequest) => {
    // Credentials and endpoints never replace what the provider manages.
    const olds = plain(req.getOldInputs() ?? req.getOlds());
    const news = plain(req.getNews());
    const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    const resp = new provproto.DiffResponse().setDiffsList(changed).setHasdetaileddiff(true);
    for (const [name, d] of detailedDiff(olds, news, changed, [])) resp.getDetaileddiffMap().set(name, d);
    return resp.setChanges(changed.length ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
  },

  configure: (req: provproto.ConfigureRequest, c: PluginCall) => {
    c.plugin.session = new Session(settingsOf(req), { once: true });
    return new provproto.ConfigureResponse().setSupportspreview(true).setAcceptsecrets(true).setAcceptresources(false);
  },

  check: async (req: provproto.CheckRequest, c: PluginCall) => {
    const k = kindOfUrn(req.getUrn());
    const news = decode(req.getNews());
    const r = await providerOf(k.kind).check(plain(req.getOlds()), news.plain, contextFor(req.getUrn(), c));
    const resp = new provproto.CheckResponse().setInputs(outward(k, r.inputs, news.secrets));
    for (const f of r.failures) resp.addFailures(new provproto.CheckFailure().setProperty(String(f.property)).setReason(f.reason));
    return resp;
  },

  diff: async ({ message: req, structs }: DiffCall, c: PluginCall) => {
    const k = kindOfUrn(req.getUrn());
    const olds = plain(structs.olds);
    const news = plain(structs.news);
    const v = await providerOf(k.kind).diff(req.getId(), olds, news, contextFor(req.getUrn(), c));
    const resp = new provproto.DiffResponse()
      .setChanges(v.changes ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE)
      .setReplacesList(v.replaces)
      .setDiffsList([...new Set([...v.changed, ...v.replaces])])
      .setDeletebeforereplace(v.deleteBeforeReplace)
      .setHasdetaileddiff(true);
    for (const [name, d] of detailedDiff(olds, news, v.changed, v.replaces)) resp.getDetaileddiffMap().set(name, d);
    return resp;
  },

  create: async (req: provproto.CreateRequest, c: PluginCall) => {
    const k = kindOfUrn(req.getUrn());
    const { plain: news, secrets: keep } = decode(req.getProperties());
    if (req.getPreview()) return new provproto.CreateResponse().setProperties(outward(k, previewOutputs(k, {}, news, false), keep));
    const r = await providerOf(k.kind).create(news, contextFor(req.getUrn(), c, req.getTimeout()));
    return new provproto.CreateResponse().setId(r.id).setProperties(outward(k, r.outs, keep));
  },

  read: async ({ message: req, structs }: ReadCall, c: PluginCall): Promise<ReadAnswer> => {
    const k = kindOfUrn(req.getUrn());
    // An import's request carries no properties: the kind reads everything from the API.
    const props = decode(structs.properties);
    const r = await providerOf(k.kind).read(req.getId(), props.plain, contextFor(req.getUrn(), c));
    const answer: ReadAnswer = { message: new provproto.ReadResponse(), structs: {} };
    if (!r) return answer; // gone: a blank id tells the engine so
    if (Object.keys(props.sent).length === 0) refuseUnowned(k, r.id, r.props);
    const inputs = decode(structs.inputs);
    answer.message.setId(r.id);
    answerWith(answer, "properties", outwardValues(k, r.props, props.secrets), props);
    answerWith(answer, "inputs", outwardValues(k, r.inputs, inputs.secrets), inputs);
    return answer;
  },

  update: async (req: provproto.UpdateRequest, c: PluginCall) => {
    const k = kindOfUrn(req.getUrn());
    const { plain: olds, secrets: oldSecrets } = decode(req.getOlds());
    const { plain: news, secrets: newSecrets } = decode(req.getNews());
    const keep = [...oldSecrets, ...newSecrets];
    if (req.getPreview()) return new provproto.UpdateResponse().setProperties(outward(k, previewOutputs(k, olds, news, true), keep));
    const r = await providerOf(k.kind).update(req.getId(), olds, news, contextFor(req.getUrn(), c, req.getTimeout()));
    return new provproto.UpdateResponse().setProperties(outward(k, r.outs, keep));
  },

  delete: async (req: provproto.DeleteRequest, c: PluginCall) => {
    const k = kindOfUrn(req.getUrn());
    await providerOf(k.kind).delete(req.getId(), plain(req.getProperties()), contextFor(req.getUrn(), c, req.getTimeout()));
    return new emptyproto.Empty();
  },

  invoke: (req: provproto.InvokeRequest, c: PluginCall) =>
    functions().then((f) => f.invoke(req, contextOf(c.plugin.session, { signal: c.signal }, c.plugin.reads))),

  // `pulumi convert --from terraform` and `pulumi import --from terraform` ask every plugin which
  // Terraform providers it maps, then for the mapping (plugin/terraform).
  getMappings: async (req: provproto.GetMappingsRequest) => new provproto.GetMappingsResponse().setProvidersList((await mapping()).mappingsFor(req.getKey())),

  getMapping: async (req: provproto.GetMappingRequest) => {
    const m = (await mapping()).mappingFor(req.getKey(), req.getProvider());
    return m ? new provproto.GetMappingResponse().setProvider(m.provider).setData(m.data) : new provproto.GetMappingResponse();
  },
};

/**
 * Starts the server on 127.0.0.1 at a free port; resolves to the port (which the engine reads
 * from stdout). `engineAddress`, the plugin's first argument, is where status lines go; `reads`,
 * the operation's read batch, when the plugin's process is one operation (./main.ts).
 */
export async function serve(engineAddress?: string, o: { reads?: ReadBatch } = {}): Promise<{ port: number; server: grpc.Server; calls: Calls }> {
  useEngine(engineAddress);
  const plugin: PluginState = { session: new Session(() => undefined), reads: o.reads };
  const calls = new Calls();
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  const service: grpc.UntypedServiceImplementation = { cancel: calls.cancelling() };
  for (const [name, f] of Object.entries(methods)) {
    const method = f as (req: unknown, c: PluginCall) => unknown;
    service[name] = calls.unary((req, c) => {
      noteServed(name, req);
      return method(req, { ...c, plugin });
    });
  }
  server.addService(providerService, service);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { port, server, calls };
}
