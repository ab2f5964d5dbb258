import * as grpc from "@grpc/grpc-js";
import type { IncomingMessage, ServerResponse } from "node:http";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secret, struct, urn, usePlugin } from "../support/plugin";
import { json, startHostileServer, type HostileServer } from "../support/hostile-server";
import { useServer } from "../support/server";
import { COLLECTIONS } from "../../api/collections";

// What Pulumi's own provider server does right, in ours: failures reach the engine with the
// API's gRPC codes, a bad request is INVALID_ARGUMENT, an unknown schema version is refused, and
// the engine's Cancel aborts what is in flight and refuses what comes after.
const GROUP = "0123456789abcdef0123456789abcdef01234567";
const UID = `${GROUP}/0123456789abcdef`;

/** The gRPC error a call failed with (failing the test when it answered). */
async function failureOf(p: Promise<unknown>): Promise<grpc.ServiceError> {
  const e = await p.then(
    () => undefined,
    (e: grpc.ServiceError) => e,
  );
  if (!e) throw new Error("the call answered; it should have failed");
  return e;
}

/** An update of a group's description: one PATCH to the API. */
const updateGroup = (timeoutSeconds = 0) =>
  new provproto.UpdateRequest()
    .setUrn(urn("irv:iam:Group", "g"))
    .setId(UID)
    .setOlds(struct({ parentUid: GROUP, name: "g", description: "before", uid: UID }))
    .setNews(struct({ parentUid: GROUP, name: "g", description: "after" }))
    .setTimeout(timeoutSeconds);

/** A hostile API answering with `answer` (switched by each test), and a plugin configured for it. */
function useHostileApi() {
  let answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => json(res, {}, 200);
  let api: HostileServer;
  const plugin = usePlugin();
  beforeAll(async () => {
    api = await startHostileServer((req, res) => answer(req, res));
    await plugin.configure({ apiUrl: api.url, token: secret("a-token") });
  });
  afterAll(() => api?.close());
  return { plugin, answer: (a: typeof answer) => (answer = a) };
}

describe("the plugin's failures", () => {
  const { plugin, answer } = useHostileApi();

  it.each([
    ["INVALID_ARGUMENT", 400],
    ["NOT_FOUND", 404],
    ["PERMISSION_DENIED", 403],
    ["UNAUTHENTICATED", 401],
    ["FAILED_PRECONDITION", 400],
    ["UNAVAILABLE", 503],
  ] as const)("reach the engine as the API's %s, its message kept", async (name, http) => {
    const code = grpc.status[name];
    answer((_req, res) => {
      // A Retry-After beyond any budget: the client gives up at once instead of retrying.
      res.setHeader("retry-after", "3600");
      json(res, { code, message: `the API says ${name}`, details: [] }, http);
    });
    const e = await failureOf(plugin.call("update", updateGroup()));
    expect(e.code).toBe(code);
    // A refused static token also says which setting holds it (never the token).
    const hint =
      name === "UNAUTHENTICATED"
        ? "; the API refused the token in irv:token (IRV_TOKEN): check that it is a token of this API (irv:apiUrl) that has not expired"
        : "";
    expect(e.details).toBe(`PATCH ${COLLECTIONS.groups.path}/${UID}: the API says ${name}${hint}`);
  });

  it("reach the engine as DEADLINE_EXCEEDED when the operation's timeout passes before the API answers", async () => {
    answer(() => undefined); // never answers
    const e = await failureOf(plugin.call("update", updateGroup(1)));
    expect(e.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(e.details).toMatch(/gave up after 1\.0s, the time budget for this operation/);
  });

  it("stay UNKNOWN when they are not the API's: an answer of the wrong shape", async () => {
    answer((_req, res) => json(res, { uid: 42 }, 200));
    const e = await failureOf(plugin.call("update", updateGroup()));
    expect(e.code).toBe(grpc.status.UNKNOWN);
    expect(e.details).toMatch(/unexpected response shape/);
  });

  it("answer a request for an unknown type or function token INVALID_ARGUMENT, naming it", async () => {
    const check = new provproto.CheckRequest().setUrn(urn("irv:iam:Nothing", "n")).setOlds(struct({})).setNews(struct({}));
    const e = await failureOf(plugin.call("check", check));
    expect(e.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(e.details).toBe("irv: unknown resource type irv:iam:Nothing");
    const invoked = await failureOf(plugin.call("invoke", new provproto.InvokeRequest().setTok("irv:iam:getNothing").setArgs(struct({}))));
    expect(invoked.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(invoked.details).toMatch(/^irv: unknown function irv:iam:getNothing; known: /);
  });

  it("answer GetSchema for a schema version the plugin does not know INVALID_ARGUMENT, naming it; version 0 is the schema", async () => {
    const e = await failureOf(plugin.call("getSchema", new provproto.GetSchemaRequest().setVersion(7)));
    expect(e.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(e.details).toMatch(/unsupported schema version 7/);
    const schema = await plugin.call<provproto.GetSchemaResponse>("getSchema", new provproto.GetSchemaRequest().setVersion(0));
    expect(JSON.parse(schema.getSchema()).name).toBe("irv");
  });
});

describe("the plugin's failures against a live irv-server", () => {
  const ctx = useServer();
  const plugin = usePlugin();
  beforeAll(() => plugin.configure({ apiUrl: ctx.server.url, token: secret(ctx.server.token) }));

  it("keep the API's NOT_FOUND through a resource operation and a function that name what failed", async () => {
    const missing = `${ctx.server.organization}/0123456789abcdef`;
    const update = updateGroup()
      .setId(missing)
      .setOlds(struct({ parentUid: ctx.server.organization, name: "g", description: "before", uid: missing }));
    const e = await failureOf(plugin.call("update", update.setNews(struct({ parentUid: ctx.server.organization, name: "g", description: "after" }))));
    expect(e.code).toBe(grpc.status.NOT_FOUND);
    const invoked = await failureOf(plugin.call("invoke", new provproto.InvokeRequest().setTok("irv:iam:getGroup").setArgs(struct({ uid: missing }))));
    expect(invoked.code).toBe(grpc.status.NOT_FOUND);
    expect(invoked.details).toMatch(new RegExp(`^irv:iam:getGroup\\(uid: "${missing}"\\): `));
  });
});

describe("the engine's Cancel", () => {
  const { plugin, answer } = useHostileApi();

  it("answers the calls in flight CANCELLED, aborts their requests to the API, and refuses every call after it", async () => {
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    let closed!: () => void;
    const aborted = new Promise<void>((resolve) => (closed = resolve));
    answer((req) => {
      req.socket.on("close", closed);
      arrived(); // and never answers
    });
    const inFlight = failureOf(plugin.call("update", updateGroup()));
    await reached;
    await plugin.call("cancel", new emptyproto.Empty());
    const e = await inFlight;
    expect(e.code).toBe(grpc.status.CANCELLED);
    expect(e.details).toBe("pulumi-resource-irv: the engine cancelled the operation");
    // The client hung up on the API: the request it sent is abandoned, not left to finish.
    await aborted;
    const after = await failureOf(plugin.call("check", new provproto.CheckRequest().setUrn(urn("irv:iam:Group", "g")).setOlds(struct({})).setNews(struct({}))));
    expect(after.code).toBe(grpc.status.CANCELLED);
  });
});
