import { describe, expect, it } from "vitest";
import { dynamicProviders } from "../../provider";
import { created, freshGroup, uniqueName, useProviderServer } from "../support/provider";
import { runLifecycle } from "../support/provider-lifecycle";

const ctx = useProviderServer();
const assoc = dynamicProviders.accountAssociations;

describe("iam.AccountAssociation provider", () => {
  it("runs the whole lifecycle", async () => {
    await runLifecycle(ctx, {
      kind: "accountAssociations",
      inputs: async () => ({ groupUid: await freshGroup(ctx), name: uniqueName("accounts"), amazon: { account: "123456789012" } }),
      update: {
        change: (i) => ({
          ...i,
          amazon: { account: "210987654321" },
          github: { appInstallations: { "1234": { installations: [{ installationId: "42", name: "acme" }] } } },
        }),
        mask: ["amazon", "github"],
      },
      replace: { change: async (i) => ({ ...i, groupUid: await freshGroup(ctx) }), replaces: ["groupUid"], deleteBeforeReplace: true },
      drift: {
        body: { description: "by hand", google: { projectId: "p", projectNumber: "123" } },
        mask: "description,google",
        expect: (props, inputs) => {
          expect(props.google).toEqual({ projectId: "p", projectNumber: "123" });
          expect(inputs).toMatchObject({ description: "by hand", google: { projectId: "p", projectNumber: "123" } });
        },
      },
      created: (outs, inputs) => expect(outs.uid).toBe(inputs.groupUid),
    });
  });

  it("removes a block with a whole-block mask", async () => {
    const group = await freshGroup(ctx);
    const { id, outs } = await assoc.create({
      groupUid: group,
      name: "a-0",
      amazon: { account: "123456789012" },
      google: { projectId: "p", projectNumber: "1" },
    });
    const { outs: after } = await assoc.update(id, outs as any, { groupUid: group, name: "a-0", amazon: { account: "123456789012" } });
    expect(ctx.server.requests.filter((r) => r.method === "PATCH").at(-1)!.query.updateMask).toBe("google");
    expect(after!.google).toBeUndefined();
  });

  it("fails check naming nested fields, and passes what the platform takes", async () => {
    const r = await assoc.check(
      {} as any,
      { groupUid: ctx.server.organization, name: "a-0", amazon: { account: "12" }, azure: { tenantId: "", clientIds: {} } } as any,
    );
    expect(r.failures?.map((f) => f.reason.split(":")[0]).sort()).toEqual(["amazon.account", "azure.tenantId"]);
    expect(r.failures?.find((f) => f.property === "amazon")?.reason).toBe('amazon.account: AWS account ID must match "^[0-9]{12}$"');
    const platform = {
      groupUid: ctx.server.organization,
      name: "a-0",
      google: { projectId: "p", projectNumber: "not-digits" },
      azure: { tenantId: "10000000-0000-0000-0000-000000000000", clientIds: { ci: "10000000-0000-0000-0000-000000000000" } },
    };
    expect((await assoc.check({} as any, platform as any)).failures ?? []).toEqual([]);
  });

  it("adopts the group's existing association", async () => {
    const group = await freshGroup(ctx);
    await created(ctx.api, "accountAssociations", group, { name: "old" });
    const { id, outs } = await assoc.create({ groupUid: group, name: "new", adoptUid: group });
    expect(id).toBe(group);
    expect(outs!.name).toBe("new");
  });
});
