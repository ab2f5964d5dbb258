/**
 * examples/github-team through the real engine, against an irv-server holding the people of the
 * example's README (its fixtures block, as written): the members who signed in are bound, the one
 * who never did is skipped without failing the program, and nothing changes on the next preview.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, createStack, loadExample, repoRoot, type TestStack } from "../support/engine";
import { listAll, useServer } from "../support/server";
import { mkGroup, role } from "../support/server-helpers";

type GitHubTeamExample = typeof import("../../examples/github-team");

const README = readFileSync(path.join(repoRoot, "examples", "github-team", "README.md"), "utf8");
/** The README's fixtures: its one ```json block, verbatim. */
const FIXTURES = JSON.parse(/```json\n([\s\S]*?)```/.exec(README)![1]);
/** The ids the README sets: `githubUserIds` as its `pulumi config set` line gives them. */
const IDS: number[] = JSON.parse(/pulumi config set githubUserIds '([^']+)'/.exec(README)![1]);

describe("examples/github-team through the engine", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer({ fixtures: FIXTURES });
  let t: TestStack;
  let group: string;
  beforeAll(async () => {
    group = (await mkGroup(ctx.api, ctx.server.organization, "platform-team")).uid;
    const { program } = loadExample<GitHubTeamExample>("github-team");
    t = await createStack({
      stackName: "github-team",
      server: ctx.server,
      // Offline, people sign in through irv-server's own issuer: its authUrl.
      program: () => program({ groupUid: group, githubUserIds: IDS.map(String), issuer: ctx.server.authUrl }),
    });
  });
  afterAll(async () => t?.dispose());

  it("binds the members who signed in, skips the one who never did, then previews no change", async () => {
    expect(IDS).toEqual([1001, 1002, 1003]);
    const up = await t.stack.up();
    expect(up.outputs.bound.value).toEqual(["1001", "1002"]);
    expect(up.outputs.notSignedIn.value).toEqual(["1003"]);
    const lookup = async (id: number) =>
      (await ctx.api.get("/iam/v2beta1/identities:lookupIdentity", { issuer: ctx.server.authUrl, subject: `github|${id}` })).body.uid as string;
    const bindings = await listAll(ctx.api, "roleBindings", { "uidp.children_of": group });
    expect(bindings.map((b) => b.identity.uid).sort()).toEqual([await lookup(1001), await lookup(1002)].sort());
    for (const b of bindings) expect(b.role.uid).toBe(role.viewer);
    expect(bindings.map((b) => b.identity.email).sort()).toEqual(["ada@example.com", "grace@example.com"]);

    const again = await t.stack.preview({ expectNoChanges: true });
    expect(again.changeSummary).toEqual({ same: 3 });

    await t.stack.destroy();
    expect(await listAll(ctx.api, "roleBindings", { "uidp.children_of": group })).toEqual([]);
  });
});
