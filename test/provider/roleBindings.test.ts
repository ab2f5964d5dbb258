import { describe, expect, it } from "vitest";
import type { Rec } from "../../provider/resources/spec";
import { dynamicProviders } from "../../provider";
import { created, builtinRole, freshGroup, uniqueName, useProviderServer } from "../support/provider";
import { runLifecycle } from "../support/provider-lifecycle";

const ctx = useProviderServer();
const roleBindings = dynamicProviders.roleBindings;
const claimMatch = { issuer: "https://issuer.example.com", subject: "svc" };

async function identityIn(group: string): Promise<string> {
  return (await created(ctx.api, "identities", group, { name: uniqueName("id"), claimMatch })).uid;
}

describe("iam.RoleBinding provider", () => {
  it("runs the whole lifecycle", async () => {
    const viewer = await builtinRole(ctx, "viewer");
    const editor = await builtinRole(ctx, "editor");
    const owner = await builtinRole(ctx, "owner");
    await runLifecycle(ctx, {
      kind: "roleBindings",
      inputs: async () => {
        const group = await freshGroup(ctx);
        return { groupUid: group, identityUid: await identityIn(group), roleUid: viewer };
      },
      update: { change: (i) => ({ ...i, roleUid: editor }), mask: ["role_uid"] },
      replace: { change: async (i) => ({ ...i, groupUid: await freshGroup(ctx) }), replaces: ["groupUid"] },
      drift: {
        body: { roleUid: owner },
        mask: "role_uid",
        expect: (props, inputs) => {
          expect(props.roleUid).toBe(owner);
          expect((props.role as Rec).name).toBe("owner");
          expect(inputs).toEqual({ groupUid: props.groupUid, identityUid: props.identityUid, roleUid: owner });
        },
      },
      created: (outs, inputs) => {
        expect((outs.identity as Rec).uid).toBe(inputs.identityUid);
        expect((outs.identity as Rec).issuer).toBe(claimMatch.issuer);
        expect((outs.group as Rec).uid).toBe(inputs.groupUid);
        expect(outs.role).toMatchObject({ uid: viewer, name: "viewer" });
        expect(outs.updateTime).toBeUndefined();
      },
    });
  });

  it("fails check on malformed uids", async () => {
    const r = await roleBindings.check({} as any, { groupUid: ctx.server.organization, identityUid: "nope", roleUid: "x" } as any);
    expect(r.failures?.map((f) => f.property).sort()).toEqual(["identityUid", "roleUid"]);
  });
});
