/**
 * The lookups the rules need, against a live irv-server: a built-in role is known by its uid
 * without asking; a custom role the program names by uid is looked up, and what a rule then says
 * about it; a uid the API does not know is left out, and a second ask is answered from the cache.
 */
import { describe, expect, it, vi } from "vitest";
import { lookUpRemote, type LookupCache } from "../../policy/lookup";
import { evaluate, uidsToLookUp } from "../../policy/evaluate";
import type { World } from "../../policy/world";
import { listAll, path, useServer } from "../support/server";

describe("lookUpRemote", () => {
  const ctx = useServer();

  it("knows the built-in roles by uid with no API, and looks a custom role up", async () => {
    const roles = await listAll<{ uid: string; name: string }>(ctx.api, "roles");
    const owner = roles.find((r) => r.name === "owner")!.uid;
    const org = ctx.server.organization;
    const identityUid = `${org}/${"1".repeat(16)}`;
    const at = ctx.server.requests.length;
    // The built-in owner, by the uid getRole gives: judged without asking anything (issue 39).
    const builtin: World = { subjects: [{ urn: "urn:a", name: "ci-owner", kind: "roleBindings", inputs: { groupUid: org, identityUid, roleUid: owner } }] };
    expect(uidsToLookUp(builtin).map((w) => w.kind)).toEqual(["identities"]);
    expect(
      evaluate(builtin)
        .filter((f) => f.rule === "irv-workload-identity-admin-at-root")
        .map((f) => f.message),
    ).toEqual(["binds a workload identity to the built-in role owner at the organization's root"]);
    expect(ctx.server.requests.length).toBe(at);

    // A custom role made elsewhere: looked up through the API.
    const team = (await ctx.api.post(path("groups", org), { name: "granters" })).body.uid as string;
    const granter = (await ctx.api.post(path("roles", team), { name: "granter", capabilities: ["CAP_IAM_ROLE_BINDINGS_CREATE"] })).body.uid as string;
    const missing = "f".repeat(40);
    const world: World = {
      subjects: [
        { urn: "urn:a", name: "ci-granter", kind: "roleBindings", inputs: { groupUid: org, identityUid, roleUid: granter } },
        { urn: "urn:b", name: "invite", kind: "groupInvites", inputs: { groupUid: org, roleUid: missing, ttl: "60s", singleUse: true } },
      ],
    };
    expect(evaluate(world).filter((f) => f.rule === "irv-workload-identity-admin-at-root")).toEqual([]);
    const cache: LookupCache = new Map();
    const settings: Record<string, string> = { "irv:apiUrl": ctx.server.url, "irv:token": ctx.server.token };
    world.remote = await lookUpRemote(world, { get: (k) => settings[k], cache });
    expect([...world.remote.keys()]).toEqual([granter]);
    expect(
      evaluate(world)
        .filter((f) => f.rule === "irv-workload-identity-admin-at-root")
        .map((f) => f.message),
    ).toEqual(["binds a workload identity to role granter, which holds role_bindings.create at the organization's root"]);

    const asked = ctx.server.requests.length;
    await lookUpRemote(world, { get: (k) => settings[k], cache });
    expect(ctx.server.requests.length).toBe(asked);
  });

  it("looks nothing up without an API URL", async () => {
    vi.stubEnv("IRV_API_URL", "");
    const world: World = { subjects: [{ urn: "urn:a", name: "b-0", kind: "roleBindings", inputs: { groupUid: "a".repeat(40), roleUid: "b".repeat(40) } }] };
    expect(await lookUpRemote(world, { get: () => undefined })).toEqual(new Map());
    vi.unstubAllEnvs();
  });
});
