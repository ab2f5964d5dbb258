/**
 * The server's change feed (server/model/changes.ts): every committed create, update and delete
 * of an item of every kind is announced once, with the event type its proto names and the group
 * the event names, through v2beta1 REST, v1 REST and gRPC alike; what fails announces nothing, and
 * no announcement carries a secret.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { KINDS, definitionOf, type Kind, type KindDefinition } from "../../api/kinds";
import { parentOf } from "../../api/uid";
import type { ItemChange } from "../../server";
import { grpcFor, type GrpcApi } from "../support/grpc";
import { makeEveryKind } from "../support/every-kind";
import { path, useServer } from "../support/server";
import { bind, expectError, mkGroup, mkIdentity, ok, role } from "../support/server-helpers";

const ctx = useServer();
let heard: ItemChange[] = [];
let stop: () => void;
let g: GrpcApi;
beforeAll(() => {
  stop = ctx.server.changes.subscribe((c) => heard.push(c));
  g = grpcFor(ctx.server.url, ctx.server.token);
});
afterAll(() => {
  stop();
  g.close();
});
afterEach(() => void (heard = []));

/** What was heard, as [type, uid, group]. */
const seen = () => heard.map((c) => [c.type, c.uid, c.group]);

describe("the change feed", () => {
  it("announces the create of an item of every kind, with its proto's event type, once each", async () => {
    const made = await makeEveryKind(ctx.api, ctx.server.organization, "feed");
    const kinds = new Set(heard.map((c) => c.kind));
    // Every kind the platform announces (a repo's deployment has no event, and makeEveryKind makes none).
    for (const d of KINDS) if ("events" in d) expect(kinds, d.kind).toContain(d.kind);
    for (const c of heard) {
      expect(c.action).toBe("created");
      expect(c.type).toBe((definitionOf(c.kind) as KindDefinition).events?.created);
      expect(c.item?.uid).toBe(c.uid);
      expect(Date.parse(c.time)).not.toBeNaN();
    }
    expect(heard.length).toBe(new Set(heard.map((c) => c.uid + c.kind)).size);
    // The group each event names, as the platform's messages name it.
    const at = (kind: Kind, uid: string) => heard.find((c) => c.kind === kind && c.uid === uid)!;
    expect(at("groups", made.subteam).group).toBe(made.subteam);
    expect(at("identities", made.ci).group).toBe(made.team);
    expect(at("accountAssociations", made.accounts).group).toBe(made.team);
    expect(at("groups", made.team).type).toBe("dev.chainguard.api.iam.group.created.v1");
    expect(at("roleBindings", made.binding).type).toBe("dev.chainguard.api.iam.rolebindings.created.v1");
  });

  it("never carries a secret: an invite's code stays in the create's answer", async () => {
    const team = await mkGroup(ctx.api, ctx.server.organization, "secrets");
    heard = [];
    const invite = ok(await ctx.api.post(path("groupInvites", team.uid), { roleUid: role.viewer, ttl: "3600s" }));
    expect(typeof invite.code).toBe("string");
    expect(heard).toHaveLength(1);
    expect(heard[0].item).not.toHaveProperty("code");
    expect(JSON.stringify(heard)).not.toContain(invite.code);
  });

  it("announces updates and deletes, through v2beta1, v1 and gRPC", async () => {
    const org = ctx.server.organization;
    const g1 = await mkGroup(ctx.api, org, "changes");
    ok(await ctx.api.patch(path("groups", g1.uid), { description: "v2" }, { updateMask: "description" }));
    ok(await ctx.api.request("PUT", `/iam/v1/groups/${g1.uid}`, { body: { name: "changes", description: "v1" } }));
    const viaGrpc = await g.call("chainguard.platform.iam.v2beta1.GroupsService", "CreateGroup", { parent: g1.uid, group: { name: "from-grpc" } });
    if (!("ok" in viaGrpc)) throw viaGrpc.error;
    const child = viaGrpc.ok.uid as string;
    ok(await ctx.api.del(`/iam/v1/groups/${child}`));
    ok(await ctx.api.del(path("groups", g1.uid)));
    expect(seen()).toEqual([
      ["dev.chainguard.api.iam.group.created.v1", g1.uid, g1.uid],
      ["dev.chainguard.api.iam.group.updated.v1", g1.uid, g1.uid],
      ["dev.chainguard.api.iam.group.updated.v1", g1.uid, g1.uid],
      ["dev.chainguard.api.iam.group.created.v1", child, child],
      // A deleted group's event names its parent.
      ["dev.chainguard.api.iam.group.deleted.v1", child, g1.uid],
      ["dev.chainguard.api.iam.group.deleted.v1", g1.uid, org],
    ]);
    expect(heard[1].item).toMatchObject({ uid: g1.uid, description: "v2" });
    expect(heard[2].item).toMatchObject({ uid: g1.uid, description: "v1" });
    expect(heard[4].item).toBeUndefined();
    expect(new Set(heard.map((c) => c.subject)).size).toBe(1);
    expect(parentOf(heard[0].subject)).toBeDefined();
  });

  it("announces nothing for what fails: refused, invalid, missing, not allowed", async () => {
    const org = ctx.server.organization;
    const team = await mkGroup(ctx.api, org, "refusals");
    const viewer = await mkIdentity(ctx.api, team.uid, "viewer-bot");
    await bind(ctx.api, team.uid, viewer.uid, role.viewer);
    heard = [];
    const asViewer = ctx.api.as(await ctx.server.issueToken(viewer.uid));
    expectError(await asViewer.post(path("groups", team.uid), { name: "nope" }), "PERMISSION_DENIED");
    expectError(await ctx.api.post(path("groups", team.uid), { name: "NOT A NAME" }), "INVALID_ARGUMENT");
    expectError(await ctx.api.del(path("roles", `${team.uid}/0000000000000001`)), "NOT_FOUND");
    expectError(await ctx.api.del(path("groups", team.uid)), "FAILED_PRECONDITION");
    expect(heard).toEqual([]);
  });

  it("a listener that throws fails no request, and the others still hear", async () => {
    const also: string[] = [];
    const stopBad = ctx.server.changes.subscribe(() => {
      throw new Error("listener down");
    });
    const stopGood = ctx.server.changes.subscribe((c) => also.push(c.uid));
    try {
      const made = await mkGroup(ctx.api, ctx.server.organization, "resilient");
      expect(also).toEqual([made.uid]);
      expect(ok(await ctx.api.get(path("groups", made.uid))).uid).toBe(made.uid);
    } finally {
      stopBad();
      stopGood();
    }
  });
});
