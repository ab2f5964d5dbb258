import { describe, expect, it } from "vitest";
import { dynamicProviders } from "../../provider";
import { created, freshGroup, uniqueName, useProviderServer } from "../support/provider";
import { runLifecycle } from "../support/provider-lifecycle";

const ctx = useProviderServer();
const tags = dynamicProviders.tags;
const DIGEST = `sha256:${"ab".repeat(32)}`;
const OTHER = `sha256:${"cd".repeat(32)}`;

/** A new repo in a new group. */
const freshRepo = async () => (await created(ctx.api, "repos", await freshGroup(ctx), { name: uniqueName("repo") })).uid as string;

describe("registry.Tag provider", () => {
  it("runs the whole lifecycle (every change replaces, the old tag deleted first)", async () => {
    await runLifecycle(ctx, {
      kind: "tags",
      inputs: async () => ({ repoUid: await freshRepo(), name: "stable", digest: DIGEST }),
      replace: { change: (i) => ({ ...i, digest: OTHER }), replaces: ["digest"], deleteBeforeReplace: true },
      created: (outs, inputs) => expect(outs).toMatchObject({ repoUid: inputs.repoUid, name: "stable", digest: DIGEST, deprecated: false, bundles: [] }),
    });
  });

  it("imports: a read with no prior state gives the inputs the tag was made with", async () => {
    const repo = await freshRepo();
    const made = await created(ctx.api, "tags", repo, { name: "1.2.3-r1", digest: DIGEST, deprecated: true });
    const read = await tags.read(made.uid, {} as any);
    expect(read.inputs).toMatchObject({ repoUid: repo, name: "1.2.3-r1", digest: DIGEST, deprecated: true });
    expect((await tags.diff(made.uid, read.props, { repoUid: repo, name: "1.2.3-r1", digest: DIGEST, deprecated: true } as any)).changes).toBe(false);
  });

  it("checks at preview, naming the field", async () => {
    const repoUid = await freshRepo();
    const failures = async (i: object) => (await tags.check({} as any, { repoUid, ...i } as any)).failures?.map((f) => f.property);
    expect(await failures({ name: "stable", digest: DIGEST })).toEqual([]);
    expect(await failures({ name: "stable", digest: "sha256:abc" })).toEqual(["digest"]);
    expect(await failures({ name: "-bad", digest: DIGEST })).toEqual(["name"]);
  });
});
