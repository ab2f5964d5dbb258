import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, repoRoot } from "../support/engine";
import { createFolderProject, type FolderProject } from "../support/folder";
import { useServer } from "../support/server";

// `pulumi up` in a folder, as a user runs it: the plain CLI, the node language host that
// scripts/ensure-pulumi builds, and the compiled org example as the project's program (what the
// repository's own Pulumi.yaml runs). Every other engine test uses inline Automation API programs,
// which do not need the language host.
describe("a folder project through the pulumi CLI", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  let p: FolderProject | undefined;
  afterAll(() => p?.dispose());

  it("previews, applies, shows no change, and destroys the org example", async () => {
    p = await createFolderProject({
      main: path.join(repoRoot, "dist", "examples", "org", "main.js"),
      server: ctx.server,
      config: { organization: ctx.server.organization },
    });

    // The org example declares 10 resources; the stack itself is the 11th.
    expect(JSON.parse(await p.pulumi("preview", "--json")).changeSummary).toEqual({ create: 11 });
    await p.pulumi("up", "--yes", "--skip-preview");
    const outputs = JSON.parse(await p.pulumi("stack", "output", "--json"));
    expect(outputs.engineeringUid.startsWith(`${ctx.server.organization}/`)).toBe(true);
    expect(outputs.inviteCode).toBe("[secret]");
    expect((await ctx.api.get(`/iam/v2beta1/groups/${outputs.engineeringUid}`)).status).toBe(200);

    const again = JSON.parse(await p.pulumi("preview", "--json", "--expect-no-changes"));
    expect(again.changeSummary).toEqual({ same: 11 });

    await p.pulumi("destroy", "--yes", "--skip-preview");
    expect((await ctx.api.get(`/iam/v2beta1/groups/${outputs.engineeringUid}`)).status).toBe(404);
  });
});
