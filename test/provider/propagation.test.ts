/**
 * A child create right after its group was created retries PERMISSION_DENIED for a bounded
 * while (the real platform takes time to propagate permissions); other creates do not.
 * Propagation is simulated by granting the caller its role a moment after the first refusal.
 */
import { describe, expect, it } from "vitest";
import { PermissionDeniedError } from "../../client";
import { configure, dynamicProviders } from "../../provider";
import { noteGroupCreated } from "../../provider/resources/recent-groups";
import { created, builtinRole, freshGroup, path, useProviderServer } from "../support/provider";

const ctx = useProviderServer();

async function asNewCaller(group: string) {
  const caller = (await created(ctx.api, "identities", ctx.server.organization, { name: "late-owner", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" })).uid;
  const token = await ctx.server.issueToken(caller);
  configure((k) => ({ "irv:apiUrl": ctx.server.url, "irv:token": token })[k]);
  return { caller, grant: async () => created(ctx.api, "roleBindings", group, { identityUid: caller, roleUid: await builtinRole(ctx, "owner") }) };
}

const restore = () => configure((k) => ({ "irv:apiUrl": ctx.server.url, "irv:token": ctx.server.token })[k]);

describe("permission propagation", () => {
  it("retries 403 on a create under a group this process just created", async () => {
    const group = await freshGroup(ctx);
    noteGroupCreated(group);
    const { grant } = await asNewCaller(group);
    try {
      const posts = () => ctx.server.requests.filter((r) => r.method === "POST" && r.path === path("roles", group));
      const first403 = new Promise<void>((resolve) => {
        const tick = setInterval(() => {
          if (posts().some((r) => r.status === 403)) {
            clearInterval(tick);
            resolve();
          }
        }, 20);
      });
      const creating = dynamicProviders.roles.create({ groupUid: group, name: "late", capabilities: ["groups.list"] });
      await first403;
      await grant();
      const { id } = await creating;
      expect(id.startsWith(`${group}/`)).toBe(true);
      expect(posts().map((r) => r.status)).toContain(403);
      expect(posts().at(-1)!.status).toBe(200);
    } finally {
      restore();
    }
  });

  it("does not retry 403 elsewhere", async () => {
    const group = await freshGroup(ctx);
    await asNewCaller(group);
    try {
      await expect(dynamicProviders.roles.create({ groupUid: group, name: "never", capabilities: ["groups.list"] })).rejects.toBeInstanceOf(
        PermissionDeniedError,
      );
      expect(ctx.server.requests.filter((r) => r.method === "POST" && r.path === path("roles", group))).toHaveLength(1);
    } finally {
      restore();
    }
  });
});
