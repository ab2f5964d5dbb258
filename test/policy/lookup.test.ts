/**
 * The lookups the rules need, against a live irv-server: the roles a program names by uid (a
 * built-in one), and what a rule then says about them; a uid the API does not know is left out,
 * and a second ask is answered from the cache.
 */
import { describe, expect, it, vi } from "vitest";
import { lookUpRemote, type LookupCache } from "../../policy/lookup";
import { evaluate } from "../../policy/evaluate";
import type { World } from "../../policy/world";
import { listAll, useServer } from "../support/server";

describe("lookUpRemote", () => {
  const ctx = useServer();

  it("finds the built-in owner by uid, so a binding to it at the root is reported", async () => {
    const roles = await listAll<{ uid: string; name: string }>(ctx.api, "roles");
    const owner = roles.find((r) => r.name === "owner")!.uid;
    const org = ctx.server.organization;
    const missing = "f".repeat(40);
    const world: World = {
      subjects: [
        { urn: "urn:a", name: "ci-owner", kind: "roleBindings", inputs: { groupUid: org, identityUid: `${org}/${"1".repeat(16)}`, roleUid: owner } },
        { urn: "urn:b", name: "invite", kind: "groupInvites", inputs: { groupUid: org, roleUid: missing, ttl: "60s", singleUse: true } },
      ],
    };
    expect(evaluate(world).filter((f) => f.rule === "irv-workload-identity-admin-at-root")).toEqual([]);

    const cache: LookupCache = new Map();
    const settings: Record<string, string> = { "irv:apiUrl": ctx.server.url, "irv:token": ctx.server.token };
    world.remote = await lookUpRemote(world, { get: (k) => settings[k], cache });
    expect([...world.remote.keys()]).toEqual([owner]);
    expect(world.remote.get(owner)?.item).toMatchObject({ name: "owner" });
    expect(evaluate(world).filter((f) => f.rule === "irv-workload-identity-admin-at-root").map((f) => f.message)).toEqual([
      "binds a workload identity to the built-in role owner at the organization's root",
    ]);

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
