import { describe, expect, it } from "vitest";
import { dynamicProviders } from "../../provider";
import { created, freshGroup, uniqueName, useProviderServer } from "../support/provider";
import { runLifecycle } from "../support/provider-lifecycle";

const ctx = useProviderServer();
const repos = dynamicProviders.repos;

describe("registry.Repo provider", () => {
  it("runs the whole lifecycle", async () => {
    await runLifecycle(ctx, {
      kind: "repos",
      inputs: async () => ({ parentUid: await freshGroup(ctx), name: uniqueName("repo"), bundles: ["application"] }),
      update: {
        change: (i) => ({ ...i, name: `${i.name}-renamed`, description: "ours", activeTags: ["latest"], catalogTier: "CATALOG_TIER_BASE" }),
        mask: ["active_tags", "catalog_tier", "description", "name"],
      },
      replace: { change: async (i) => ({ ...i, parentUid: await freshGroup(ctx) }), replaces: ["parentUid"] },
      drift: {
        body: { description: "changed by hand" },
        mask: "description",
        expect: (props, inputs) => {
          expect(props.description).toBe("changed by hand");
          expect(inputs.description).toBe("changed by hand");
        },
      },
      created: (outs, inputs) =>
        expect(outs).toMatchObject({
          parentUid: inputs.parentUid,
          name: inputs.name,
          bundles: ["application"],
          aliases: [],
          activeTags: [],
          catalogTier: "CATALOG_TIER_UNSPECIFIED",
        }),
    });
  });

  it("imports: a read with no prior state gives the inputs the repo was made with, and they diff as no change", async () => {
    const group = await freshGroup(ctx);
    const made = await created(ctx.api, "repos", group, { name: "imported", description: "by hand", aliases: ["b", "a"] });
    const read = await repos.read(made.uid, {} as any);
    expect(read.inputs).toMatchObject({ parentUid: group, name: "imported", description: "by hand", aliases: ["b", "a"] });
    // The aliases are a set: the program's order is no change.
    expect(
      (await repos.diff(made.uid, read.props as any, { parentUid: group, name: "imported", description: "by hand", aliases: ["a", "b"] } as any)).changes,
    ).toBe(false);
  });

  it("checks at preview, naming the field", async () => {
    const parentUid = ctx.server.organization;
    const failures = async (i: object) => (await repos.check({} as any, { parentUid, ...i } as any)).failures?.map((f) => f.property);
    expect(await failures({ name: "ok" })).toEqual([]);
    expect(await failures({})).toEqual(["name"]);
    expect(await failures({ name: "x", catalogTier: "GOLD" })).toEqual(["catalogTier"]);
    // The Terraform provider's spelling is taken, and sent as the enum name.
    expect(await failures({ name: "x", catalogTier: "APPLICATION" })).toEqual([]);
    expect(await failures({ name: "x", syncConfig: { amazon: "x" } })).toEqual(["syncConfig"]);
  });
});
