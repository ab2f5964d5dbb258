/**
 * The GA v2 API served beside v2beta1 from the same definitions: `/iam/v2/...` on REST and the
 * `chainguard.platform.*.v2` packages on gRPC answer over the same store as v2beta1, with the
 * services the SDK's v2 protos have (the registry's Overlays and OverlayBindings are v2beta1 only).
 */
import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRPC_PACKAGES } from "../../api/grpc";
import { grpcFor, type GrpcApi, type GrpcResult } from "../support/grpc";
import { path, useServer } from "../support/server";
import { expectError, mkGroup, ok } from "../support/server-helpers";

const ctx = useServer();
let g: GrpcApi;
beforeAll(() => {
  g = grpcFor(ctx.server.url, ctx.server.token);
});
afterAll(() => g?.close());

const ga = (p: string) => p.replace("/v2beta1/", "/v2/");
function answer(r: GrpcResult): any {
  if ("error" in r) throw new Error(`${r.error.code} ${r.error.details}`);
  return r.ok;
}

describe("the GA v2 API", () => {
  it("serves every v2beta1 collection at /<domain>/v2/, over the same items", async () => {
    const org = ctx.server.organization;
    for (const c of ["groups", "identities", "roles", "roleBindings", "groupInvites", "subscriptions", "repos", "tags", "advisories"] as const) {
      const beta = ok(await ctx.api.get(path(c), { page_size: 5, "uidp.descendants_of": org }));
      const v2 = ok(await ctx.api.get(ga(path(c)), { page_size: 5, "uidp.descendants_of": org }));
      // The same page (a page token is the server's own, so only its presence is compared).
      expect([c, { ...v2, nextPageToken: !!v2.nextPageToken }]).toEqual([c, { ...beta, nextPageToken: !!beta.nextPageToken }]);
    }
    // Written through v2, read through v2beta1, and back.
    const made = ok(await ctx.api.post(ga(path("groups", org)), { name: "made-at-v2" }));
    expect(ok(await ctx.api.get(path("groups", made.uid))).name).toBe("made-at-v2");
    ok(await ctx.api.patch(ga(path("groups", made.uid)), { description: "changed at v2" }));
    expect(ok(await ctx.api.get(path("groups", made.uid))).description).toBe("changed at v2");
    ok(await ctx.api.del(ga(path("groups", made.uid))));
    expectError(await ctx.api.get(path("groups", made.uid)), "NOT_FOUND");
    expect(ok(await ctx.api.get("/iam/v2/identities:lookupIdentity", { issuer: "https://auth.chainguard.dev/", subject: "github|1" })).uid).toMatch(
      /^[0-9a-f]{40}$/,
    );
  });

  it("answers the chainguard.platform.*.v2 gRPC services as their v2beta1 twins", async () => {
    const group = await mkGroup(ctx.api, ctx.server.organization, "ga-grpc");
    const beta = answer(await g.call("chainguard.platform.iam.v2beta1.GroupsService", "GetGroup", { uid: group.uid }));
    expect(answer(await g.call("chainguard.platform.iam.v2.GroupsService", "GetGroup", { uid: group.uid }))).toEqual(beta);
    const list = answer(await g.call("chainguard.platform.registry.v2.ReposService", "ListRepos", { pageSize: 2 }));
    expect(list.repos.length).toBeGreaterThan(0);
    const r = await g.call("chainguard.platform.iam.v2.RoleBindingsService", "BatchCreateRoleBindings", {});
    expect("error" in r && r.error.code).toBe(status.UNIMPLEMENTED);
  });

  it("has the services of the SDK's v2 packages: v2beta1's but for the registry's overlays", () => {
    const services = (pkg: string) => Object.keys(GRPC_PACKAGES.find((p) => p.package === pkg)?.services ?? {}).sort();
    for (const domain of ["iam", "events", "vulnerabilities"])
      expect(services(`chainguard.platform.${domain}.v2`)).toEqual(services(`chainguard.platform.${domain}.v2beta1`));
    const registry = services("chainguard.platform.registry.v2");
    expect(registry).toEqual(services("chainguard.platform.registry.v2beta1").filter((s) => !s.startsWith("Overlay")));
    expect(registry).toContain("ReposService");
  });
});
