import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runIrv } from "../support/cli";
import { ENGINE_TIMEOUT } from "../support/engine";
import { createFolderProject, type FolderProject } from "../support/folder";
import { path as apiPath, useServer } from "../support/server";

// `irv drift` prints what to run next. Each command is taken from its output and run exactly as
// printed, in the project folder, through the real engine: after it, `irv drift` finds no drift,
// and the live API holds what the command says (the declared values, or the hand edits accepted).
const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const irv = require("pulumi-irv");
const org = new pulumi.Config().require("organization");
const eng = new irv.iam.Group("eng", { parentUid: org, name: "engineering", description: "Everyone who builds" });
new irv.iam.Group("scratch", { parentUid: org, name: "scratch" });
exports.eng = eng.uid;
`;

// Ten engine operations in one test: bounded at twice the engine tests' usual bound.
describe("the commands irv drift prints", { timeout: 2 * ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  let p: FolderProject | undefined;
  afterAll(() => p?.dispose());

  const drift = async () => {
    const r = await runIrv(["drift", "--stack", "dev", "--cwd", p!.dir], p!.env as Record<string, string>);
    expect(r.stderr).toBe("");
    return r;
  };
  /** The command the report says does `what`, as printed. */
  const printed = (stdout: string, what: string) => {
    const m = new RegExp(`(pulumi [a-z -]+?) ${what}`).exec(stdout);
    expect(m, stdout).not.toBeNull();
    return m![1];
  };
  const uidOf = async (name: string) => {
    const state = JSON.parse(await p!.pulumi("stack", "export"));
    return (state.deployment.resources as any[]).find((r) => String(r.urn).endsWith(`::${name}`)).outputs.uid as string;
  };

  it("puts the declared values back with the command it prints for that, then accepts hand edits with the other", async () => {
    p = await createFolderProject({ main: "index.js", server: ctx.server, config: { organization: ctx.server.organization } });
    writeFileSync(path.join(p.dir, "index.js"), PROGRAM);
    await p.pulumi("up", "--yes", "--skip-preview");
    const eng = apiPath("groups", await uidOf("eng"));
    const scratch = await uidOf("scratch");

    // Edits by hand: a changed description and a deleted group.
    expect((await ctx.api.patch(eng, { description: "Changed in the console" }, { updateMask: "description" })).status).toBe(200);
    expect((await ctx.api.del(apiPath("groups", scratch))).status).toBe(200);
    const drifted = await drift();
    expect(drifted.code).toBe(2);
    const restore = printed(drifted.stdout, "puts the declared values back");
    expect(restore).toBe("pulumi up --refresh");
    await p.sh(restore);
    expect((await drift()).stdout).toContain("No drift");
    expect((await ctx.api.get(eng)).body.description).toBe("Everyone who builds");
    expect((await ctx.api.get(apiPath("groups", await uidOf("scratch")))).status).toBe(200);

    // Accepting the live values instead: the stack records the edit, the API keeps it.
    expect((await ctx.api.patch(eng, { description: "Kept from the console" }, { updateMask: "description" })).status).toBe(200);
    const again = await drift();
    expect(again.code).toBe(2);
    const accept = printed(again.stdout, "accepts the live values into the stack");
    expect(accept).toBe("pulumi refresh");
    await p.sh(accept);
    const clean = await drift();
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain("No drift");
    expect((await ctx.api.get(eng)).body.description).toBe("Kept from the console");
  });
});
