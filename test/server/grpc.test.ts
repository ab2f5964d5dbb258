/**
 * gRPC on the same address as REST, through `@grpc/grpc-js` with the project's descriptors: every
 * service answers, REST and gRPC agree item for item, and authentication, authorization, bounds
 * and the error model are REST's own (the Status in grpc-status-details-bin equals REST's body).
 */
import { connect as h2connect, constants as h2, type ClientHttp2Stream } from "node:http2";
import { connect } from "node:net";
import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromJson, GRPC_PACKAGES, grpcRoot, toJson } from "../../api/grpc";
import { grpcFor, type GrpcApi, type GrpcResult } from "../support/grpc";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";
import { defaultAudience } from "../support/sts";
import { path, startTestServer, useServer, type TestServer } from "../support/server";
import { mkGroup, mkIdentity, ok, role } from "../support/server-helpers";

const IAM = "chainguard.platform.iam.v2beta1";
const GROUPS = `${IAM}.GroupsService`;
const REPOS = "chainguard.platform.registry.v2beta1.ReposService";
const TAGS = "chainguard.platform.registry.v2beta1.TagsService";
const ADVISORIES = "chainguard.platform.vulnerabilities.v2beta1.AdvisoriesService";

/** The answer of a call that must succeed. */
function answer(r: GrpcResult): any {
  if ("error" in r) throw new Error(`gRPC ${status[r.error.code]}: ${r.error.details}`);
  return r.ok;
}

/** The error of a call that must fail, with its decoded Status. */
function failure(r: GrpcResult): { code: string; details: string; status: any } {
  if (!("error" in r)) throw new Error(`expected an error, got ${JSON.stringify(r.ok)}`);
  return { code: status[r.error.code], details: r.error.details, status: r.status };
}

/** The status headers of a raw HTTP/2 gRPC call: its trailers, or its headers when the answer is trailers only. */
function grpcStatusOf(stream: ClientHttp2Stream): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    stream.once("response", (h) => {
      if (h["grpc-status"] !== undefined) resolve(h);
    });
    stream.once("trailers", resolve);
    stream.resume();
  });
}

/** A REST item as the response message reads it (what gRPC must carry of it). */
const asMessage = (typeName: string, item: unknown) => {
  const t = grpcRoot().lookupType(typeName);
  return toJson(t, fromJson(t, item));
};

describe("gRPC beside REST on one address", () => {
  const ctx = useServer();
  let g: GrpcApi;
  beforeAll(() => {
    g = grpcFor(ctx.server.url, ctx.server.token);
  });
  afterAll(() => g.close());

  it("every served List answers, and agrees item for item with REST on the same page", async () => {
    const lists = [
      [GROUPS, "ListGroups", "groups", `${IAM}.Group`],
      [`${IAM}.IdentitiesService`, "ListIdentities", "identities", `${IAM}.Identity`],
      [`${IAM}.RolesService`, "ListRoles", "roles", `${IAM}.Role`],
      [`${IAM}.RoleBindingsService`, "ListRoleBindings", "roleBindings", `${IAM}.RoleBinding`],
      [`${IAM}.IdentityProvidersService`, "ListIdentityProviders", "identityProviders", `${IAM}.IdentityProvider`],
      [`${IAM}.AccountAssociationsService`, "ListAccountAssociations", "accountAssociations", `${IAM}.AccountAssociation`],
      [`${IAM}.GroupInvitesService`, "ListGroupInvites", "groupInvites", `${IAM}.GroupInvite`],
      [REPOS, "ListRepos", "repos", "chainguard.platform.registry.v2beta1.Repo"],
      [TAGS, "ListTags", "tags", "chainguard.platform.registry.v2beta1.Tag"],
      [ADVISORIES, "ListAdvisories", "advisories", "chainguard.platform.vulnerabilities.v2beta1.Advisory"],
    ] as const;
    for (const [service, method, collection, type] of lists) {
      const viaGrpc = answer(await g.call(service, method, { pageSize: 7, uidp: { descendantsOf: ctx.server.organization } }));
      const rest = ok(await ctx.api.get(path(collection), { page_size: 7, "uidp.descendants_of": ctx.server.organization }));
      expect([method, viaGrpc[collection] ?? []]).toEqual([method, rest[collection].map((i: unknown) => asMessage(type, i))]);
      expect([method, viaGrpc.totalCount]).toEqual([method, String(rest.totalCount)]);
      // The next page follows the same token.
      if (rest.nextPageToken) {
        const next = answer(await g.call(service, method, { pageSize: 7, pageToken: viaGrpc.nextPageToken, uidp: { descendantsOf: ctx.server.organization } }));
        const restNext = ok(
          await ctx.api.get(path(collection), { page_size: 7, page_token: rest.nextPageToken, "uidp.descendants_of": ctx.server.organization }),
        );
        expect(next[collection].map((i: { uid: string }) => i.uid)).toEqual(restNext[collection].map((i: { uid: string }) => i.uid));
      }
    }
  });

  it("Get answers the item REST answers", async () => {
    const repo = ok(await ctx.api.get(path("repos"), { page_size: 1 })).repos[0];
    expect(answer(await g.call(REPOS, "GetRepo", { uid: repo.uid }))).toEqual(asMessage("chainguard.platform.registry.v2beta1.Repo", repo));
    // A role's capabilities travel as the Capability enum.
    const viewer = ok(await ctx.api.get(path("roles"), { name: "viewer" })).roles[0];
    const role = answer(await g.call(`${IAM}.RolesService`, "GetRole", { uid: viewer.uid }));
    expect(role.capabilities).toEqual(viewer.capabilities);
    expect(role.capabilities).toContain("CAP_IAM_GROUPS_LIST");
    const adv = ok(await ctx.api.get(path("advisories"), { page_size: 1 })).advisories[0];
    expect(answer(await g.call(ADVISORIES, "GetAdvisory", { uid: adv.uid }))).toEqual(asMessage("chainguard.platform.vulnerabilities.v2beta1.Advisory", adv));
  });

  it("creates, updates with a mask, and deletes a group; REST sees each write", async () => {
    const org = ctx.server.organization;
    const created = answer(await g.call(GROUPS, "CreateGroup", { parent: org, group: { name: "grpc-made", description: "from gRPC" } }));
    expect(created.uid.startsWith(`${org}/`)).toBe(true);
    expect(ok(await ctx.api.get(path("groups", created.uid)))).toMatchObject({ name: "grpc-made", description: "from gRPC" });
    // Only the masked field changes: the name in the body is ignored.
    const updated = answer(
      await g.call(GROUPS, "UpdateGroup", { group: { uid: created.uid, name: "ignored", description: "changed" }, updateMask: "description" }),
    );
    expect(updated).toMatchObject({ name: "grpc-made", description: "changed" });
    expect(ok(await ctx.api.get(path("groups", created.uid)))).toMatchObject({ name: "grpc-made", description: "changed" });
    expect(answer(await g.call(GROUPS, "DeleteGroup", { uid: created.uid }))).toEqual({});
    expect((await ctx.api.get(path("groups", created.uid))).status).toBe(404);
    expect(failure(await g.call(GROUPS, "GetGroup", { uid: created.uid })).code).toBe("NOT_FOUND");
  });

  it("errors carry REST's code, message and typed details in grpc-status-details-bin", async () => {
    const rest = await ctx.api.get(path("groups", "not-a-uid"));
    const f = failure(await g.call(GROUPS, "GetGroup", { uid: "not-a-uid" }));
    expect(f.code).toBe("INVALID_ARGUMENT");
    expect(f.details).toBe(rest.body.message);
    expect(f.status).toEqual(rest.body);
    expect(f.status.details.map((d: { "@type": string }) => d["@type"])).toEqual([
      "type.googleapis.com/google.rpc.ErrorInfo",
      "type.googleapis.com/google.rpc.BadRequest",
    ]);
    // The ErrorInfo's domain is the platform's, not irv's own.
    expect(f.status.details[0]).toMatchObject({ reason: "INVALID_ARGUMENT", domain: "iam.chainguard.dev" });
    // A precondition: a group that still holds another cannot be deleted.
    const parent = await mkGroup(ctx.api, ctx.server.organization, "holds-one");
    await mkGroup(ctx.api, parent.uid, "held");
    const pre = failure(await g.call(GROUPS, "DeleteGroup", { uid: parent.uid }));
    const preRest = await ctx.api.del(path("groups", parent.uid));
    expect([pre.code, pre.status]).toEqual([expect.any(String), preRest.body]);
    expect(pre.status.details.some((d: { "@type": string }) => d["@type"].endsWith("PreconditionFailure"))).toBe(true);
  });

  it("authenticates as REST does: no token, a bad token", async () => {
    for (const token of [null, "not-a-jwt"]) {
      const f = failure(await g.as(token).call(GROUPS, "CreateGroup", { parent: ctx.server.organization, group: { name: "nope" } }));
      expect(f.code).toBe("UNAUTHENTICATED");
      expect(f.status).toEqual((await ctx.api.as(token).post(path("groups", ctx.server.organization), { name: "nope" })).body);
    }
  });

  it("authorizes as REST does: PERMISSION_DENIED, and lists silently scoped", async () => {
    const team = await mkGroup(ctx.api, ctx.server.organization, "grpc-authz");
    const id = await mkIdentity(ctx.api, team.uid, "nobody");
    const nobody = g.as(await ctx.server.issueToken(id.uid));
    expect(failure(await nobody.call(GROUPS, "CreateGroup", { parent: team.uid, group: { name: "nope" } })).code).toBe("PERMISSION_DENIED");
    expect(failure(await nobody.call(GROUPS, "GetGroup", { uid: team.uid })).code).toBe("PERMISSION_DENIED");
    const listed = answer(await nobody.call(GROUPS, "ListGroups", {}));
    expect(listed.groups ?? []).toEqual([]);
  });

  it("answers UNIMPLEMENTED, naming the method and its REST mapping, for what irv-server does not serve", async () => {
    const f = failure(await g.call(GROUPS, "LookupGroup", {}));
    expect(f.code).toBe("UNIMPLEMENTED");
    expect(f.details).toContain(`${GROUPS}/LookupGroup (GET /iam/v2beta1/groups:lookupGroup)`);
    // Every method the facts list is registered: served ones never answer UNIMPLEMENTED from grpc-js itself.
    const unserved = GRPC_PACKAGES.flatMap((p) =>
      Object.entries(p.services ?? {}).flatMap(([s, svc]) =>
        Object.entries(svc.methods)
          .filter(([, m]) => !("request" in m))
          .map(([n]) => `${p.package}.${s}/${n}`),
      ),
    );
    expect(unserved.length).toBeGreaterThan(10);
  });

  it("refuses a message that is not the request, and one past the body limit, and serves on", async () => {
    const garbage = failure(await g.call(GROUPS, "GetGroup", {}, { raw: Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]) }));
    expect(garbage.code).toBe("INVALID_ARGUMENT");
    const huge = failure(
      await g.call(GROUPS, "CreateGroup", { parent: ctx.server.organization, group: { name: "big", description: "x".repeat(2 * 1024 * 1024) } }),
    );
    expect(huge.code).toBe("RESOURCE_EXHAUSTED");
    // What travels as REST query parameters is bounded as HTTP/1.1 bounds a request line.
    const long = failure(await g.call(GROUPS, "ListGroups", { uidp: { ids: Array.from({ length: 2000 }, () => ctx.server.organization) } }));
    expect([long.code, long.status.details[1].fieldViolations[0].field]).toEqual(["INVALID_ARGUMENT", "request"]);
    expect(answer(await g.call(GROUPS, "ListGroups", { pageSize: 1 })).groups).toHaveLength(1);
  });

  it("serves the v1 services over v1 REST: List agrees with it, Create, Update (PUT) and Delete write through it", async () => {
    const V1 = "chainguard.platform.iam.Groups";
    const org = ctx.server.organization;
    const listed = answer(await g.call(V1, "List", { uidp: { childrenOf: org } }));
    const rest = ok(await ctx.api.get("/iam/v1/groups", { "uidp.children_of": org }));
    expect(listed.items).toEqual(rest.items.map((i: unknown) => asMessage("chainguard.platform.iam.Group", i)));
    const made = answer(await g.call(V1, "Create", { parent: org, group: { name: "v1-made", description: "one" } }));
    expect(ok(await ctx.api.get(path("groups", made.id)))).toMatchObject({ name: "v1-made", description: "one" });
    // v1's Update replaces the whole item: the omitted description is reset.
    expect(answer(await g.call(V1, "Update", { id: made.id, name: "v1-renamed" }))).toMatchObject({ id: made.id, name: "v1-renamed", description: "" });
    expect(ok(await ctx.api.get(path("groups", made.id)))).toMatchObject({ name: "v1-renamed", description: "" });
    answer(await g.call(V1, "Delete", { id: made.id }));
    expect((await ctx.api.get(path("groups", made.id))).status).toBe(404);
    const ids = answer(await g.call("chainguard.platform.iam.Identities", "List", { uidp: { descendantsOf: org } }));
    expect(ids.items.map((i: { id: string }) => i.id)).toEqual(
      ok(await ctx.api.get("/iam/v1/identities", { "uidp.descendants_of": org })).items.map((i: { id: string }) => i.id),
    );
    // Lookup is served (test/server/people.test.ts); so are v1 role bindings, account associations
    // and invites at their v1 paths, a listed binding with its group and role as v1 messages.
    expect(failure(await g.call("chainguard.platform.iam.Identities", "Lookup", {})).code).toBe("INVALID_ARGUMENT");
    const bindings = answer(await g.call("chainguard.platform.iam.RoleBindings", "List", { uidp: { descendantsOf: org } }));
    expect(bindings.items).toEqual(
      ok(await ctx.api.get("/iam/v1/rolebindings", { "uidp.descendants_of": org })).items.map((i: unknown) =>
        asMessage("chainguard.platform.iam.RoleBindingList.Binding", i),
      ),
    );
    expect(bindings.items[0].group.id).toBe(org);
    const team = await mkGroup(ctx.api, org, "v1-grpc");
    const assoc = answer(
      await g.call("chainguard.platform.iam.GroupAccountAssociations", "Create", { group: team.uid, name: "accts", amazon: { account: "123456789012" } }),
    );
    expect(assoc).toMatchObject({ group: team.uid, amazon: { account: "123456789012" } });
    const invite = answer(await g.call("chainguard.platform.iam.GroupInvites", "Create", { group: team.uid, ttl: "3600s", role: role.owner }));
    expect(invite).toMatchObject({ id: expect.any(String), code: expect.any(String), role: { name: "owner" } });
    expect(failure(await g.call("chainguard.platform.iam.GroupInvites", "CreateWithGroup", {})).code).toBe("UNIMPLEMENTED");
  });

  it("keeps serving HTTP/1.1 on the same port while gRPC streams are open", async () => {
    const session = h2connect(ctx.server.url);
    session.on("error", () => {});
    // A call whose request never ends: its stream stays open.
    const stream = session.request({
      [h2.HTTP2_HEADER_METHOD]: "POST",
      [h2.HTTP2_HEADER_PATH]: `/${GROUPS}/ListGroups`,
      "content-type": "application/grpc",
      te: "trailers",
    });
    stream.on("error", () => {});
    stream.write(Buffer.from([0, 0, 0, 0, 10]));
    // A whole call on the same connection, answered after the open one arrived.
    const whole = session.request({
      [h2.HTTP2_HEADER_METHOD]: "POST",
      [h2.HTTP2_HEADER_PATH]: `/${GROUPS}/LookupGroup`,
      "content-type": "application/grpc",
      te: "trailers",
    });
    whole.end(Buffer.from([0, 0, 0, 0, 0]));
    expect((await grpcStatusOf(whole))["grpc-status"]).toBe(String(status.UNIMPLEMENTED));
    const res = await fetch(`${ctx.server.url}/auth/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    expect(answer(await g.call(GROUPS, "ListGroups", { pageSize: 1 })).groups).toHaveLength(1);
    stream.close();
    session.close();
  });
});

describe("the token exchange over gRPC", () => {
  let issuer: OidcIssuer;
  let srv: TestServer;
  beforeAll(async () => {
    issuer = await startOidcIssuer();
    srv = await startTestServer({ fixtures: {}, allowPrivateIssuers: true });
  });
  afterAll(async () => {
    await srv.close();
    await issuer.close();
  });

  it("exchanges a matching token as /auth/sts/exchange does, and refuses as it does", async () => {
    const team = await mkGroup(srv.api, srv.server.organization, "wl-team");
    const uid = ok(await srv.api.post(path("identities", team.uid), { name: "workload", claimMatch: { issuer: issuer.url, subject: "good" } })).uid;
    const g = grpcFor(srv.server.url, null);
    try {
      const external = await issuer.sign({ sub: "good", aud: defaultAudience(srv.server) });
      const got = answer(
        await g.call("chainguard.platform.oidc.SecurityTokenService", "Exchange", { aud: [srv.server.url], identity: uid }, { token: external }),
      );
      expect(got.token).toMatch(/^ey/);
      // The exchanged token works on both doors.
      expect(answer(await g.as(got.token).call(GROUPS, "ListGroups", {}))).toBeDefined();
      const bad = failure(
        await g.call(
          "chainguard.platform.oidc.SecurityTokenService",
          "Exchange",
          { aud: [srv.server.url], identity: uid },
          { token: await issuer.sign({ sub: "bad", aud: defaultAudience(srv.server) }) },
        ),
      );
      const rest = await srv.api
        .as(await issuer.sign({ sub: "bad", aud: defaultAudience(srv.server) }))
        .request("POST", `/auth/sts/exchange`, { query: { aud: srv.server.url, identity: uid } });
      expect([bad.code, bad.status]).toEqual(["PERMISSION_DENIED", rest.body]);
    } finally {
      g.close();
    }
  });
});

describe("gRPC connection bounds", () => {
  let srv: TestServer;
  let port: number;
  beforeAll(async () => {
    srv = await startTestServer({ connections: { requestTimeoutMs: 300, keepAliveTimeoutMs: 200, maxConnections: 3 } });
    port = Number(new URL(srv.server.url).port);
  });
  afterAll(() => srv.close());

  /** Until the server counts `n` open connections. */
  const counted = async (n: number) => {
    while ((await srv.server.openConnections()) !== n) await new Promise((r) => setImmediate(r));
  };

  it("closes a connection that stalls within the HTTP/2 preface", async () => {
    const s = connect(port, "127.0.0.1");
    s.on("error", () => {});
    s.write("PRI * HTTP/2.0\r\n");
    await new Promise((r) => s.once("close", r));
    await counted(0);
  });

  it("closes an HTTP/2 connection that makes no request", async () => {
    const session = h2connect(srv.server.url);
    session.on("error", () => {});
    await new Promise((r) => session.once("connect", r));
    await new Promise((r) => session.once("close", r));
    await counted(0);
  });
});

describe("a call's time limit and the connection limit", () => {
  it("ends a call whose request never arrives, with the status HTTP/1.1 gives such a request", async () => {
    // Idle connections are kept here, so only the call's own time limit can end it.
    const own = await startTestServer({ connections: { requestTimeoutMs: 300, keepAliveTimeoutMs: 600_000 } });
    const session = h2connect(own.server.url);
    try {
      session.on("error", () => {});
      const stream = session.request({
        [h2.HTTP2_HEADER_METHOD]: "POST",
        [h2.HTTP2_HEADER_PATH]: `/${GROUPS}/ListGroups`,
        "content-type": "application/grpc",
        te: "trailers",
      });
      stream.on("error", () => {});
      const trailers = await grpcStatusOf(stream);
      expect([trailers["grpc-status"], decodeURIComponent(String(trailers["grpc-message"]))]).toEqual([
        String(status.INVALID_ARGUMENT),
        "Invalid argument: request: was not received in time",
      ]);
      // The client keeps its side of the answered call open, so the connection is never idle:
      // the connection's age limit still closes it.
      while ((await own.server.openConnections()) !== 0) await new Promise((r) => setImmediate(r));
    } finally {
      session.destroy();
      await own.close();
    }
  });

  it("counts HTTP/2 connections", async () => {
    // A server of its own, whose time limits are far off: the held connections stay open until
    // the test closes them, however slow the machine.
    const own = await startTestServer({ connections: { requestTimeoutMs: 600_000, keepAliveTimeoutMs: 600_000, maxConnections: 3 } });
    const counted = async (n: number) => {
      while ((await own.server.openConnections()) !== n) await new Promise((r) => setImmediate(r));
    };
    try {
      const sessions = Array.from({ length: 3 }, () => {
        const s = h2connect(own.server.url);
        s.on("error", () => {});
        // Each in the middle of a call, whose request never ends.
        s.request({ [h2.HTTP2_HEADER_METHOD]: "POST", [h2.HTTP2_HEADER_PATH]: `/${GROUPS}/ListGroups`, "content-type": "application/grpc", te: "trailers" }).on(
          "error",
          () => {},
        );
        return s;
      });
      await Promise.all(sessions.map((s) => new Promise((r) => s.once("connect", r))));
      await counted(3);
      const extra = connect(Number(new URL(own.server.url).port), "127.0.0.1");
      extra.on("error", () => {});
      extra.write("GET /auth/.well-known/jwks.json HTTP/1.1\r\nHost: x\r\n\r\n");
      const got: Buffer[] = [];
      extra.on("data", (d) => got.push(d));
      await new Promise((r) => extra.once("close", r));
      expect(Buffer.concat(got).toString()).toBe("");
      // Clients that go away mid-call: their connections close at once (the HTTP server's sockets
      // are half-open ones, which an HTTP/2 session would otherwise keep).
      for (const s of sessions) s.destroy();
      await counted(0);
      expect((await fetch(`${own.server.url}/auth/.well-known/jwks.json`)).status).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe("graceful close", () => {
  it("closes HTTP/2 connections with HTTP/1.1 ones", async () => {
    const srv = await startTestServer();
    const g = grpcFor(srv.server.url, srv.server.token);
    answer(await g.call(GROUPS, "ListGroups", { pageSize: 1 }));
    const keepAlive = await fetch(`${srv.server.url}/auth/.well-known/jwks.json`);
    expect(keepAlive.status).toBe(200);
    await srv.close();
    expect(await srv.server.openConnections()).toBe(0);
    g.close();
  });
});
