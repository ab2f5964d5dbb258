import { describe, expect, it } from "vitest";
import { dynamicProviders } from "../../provider";
import { created, freshGroup, uniqueName, useProviderServer } from "../support/provider";
import { path } from "../support/server";
import { ok } from "../support/server-helpers";
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
    expect((await repos.diff(made.uid, read.props, { parentUid: group, name: "imported", description: "by hand", aliases: ["a", "b"] } as any)).changes).toBe(
      false,
    );
  });

  it("writes a README apart from the repo, reads it back, finds it changed by hand, and leaves an undeclared one alone", async () => {
    const parentUid = await freshGroup(ctx);
    const readmeOf = async (uid: string) => ok(await ctx.api.get(`${path("repos", uid)}/readme`)).content;
    const inputs = { parentUid, name: uniqueName("documented"), readme: "# Ours" };
    const { id, outs } = await repos.create(inputs as any);
    expect(outs.readme).toBe("# Ours");
    expect(await readmeOf(id)).toBe("# Ours");
    // Changed by hand: a refresh reads it, and the program's value diffs as a change to write back.
    ok(await ctx.api.patch(`${path("repos", id)}/readme`, { content: "# Theirs" }));
    const read = await repos.read(id, outs);
    expect(read.props.readme).toBe("# Theirs");
    const verdict = await repos.diff(id, read.props, inputs as any);
    expect(verdict).toMatchObject({ changes: true, replaces: [] });
    // Only the README changes: the repo itself is not updated.
    const before = ok(await ctx.api.get(path("repos", id))).updateTime;
    expect((await repos.update(id, read.props, inputs as any)).outs.readme).toBe("# Ours");
    expect(await readmeOf(id)).toBe("# Ours");
    expect(ok(await ctx.api.get(path("repos", id))).updateTime).toBe(before);
    // A README set to "" clears it; one left out is not read, nor a change.
    expect((await repos.update(id, outs, { ...inputs, readme: "" } as any)).outs.readme).toBe("");
    expect(await readmeOf(id)).toBe("");
    const undeclared = { parentUid, name: uniqueName("plain") };
    const plain = await repos.create(undeclared as any);
    ok(await ctx.api.patch(`${path("repos", plain.id)}/readme`, { content: "# Pushed by CI" }));
    const again = await repos.read(plain.id, plain.outs);
    expect(again.props.readme).toBeUndefined();
    expect((await repos.diff(plain.id, again.props, undeclared as any)).changes).toBe(false);
    // An import reads it.
    expect((await repos.read(plain.id, {} as any)).inputs).toMatchObject({ readme: "# Pushed by CI" });
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
    expect(await failures({ name: "x", readme: "x".repeat(1_000_001) })).toEqual(["readme"]);
  });
});
