import { readFileSync, rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT } from "../support/engine";
import { runIrv } from "../support/cli";
import { makeEveryKind } from "../support/every-kind";
import { listAll, startTestServer, type TestServer } from "../support/server";
import { yamlProject, type YamlProject } from "../support/yaml-project";

// `irv export --import-file` of a live org (the server's sample data, plus a team of every kind
// with a subteam of every kind below it, so that names repeat), then `pulumi import --file` of
// that file into a new YAML stack through the real CLI and the resource plugin: every resource
// lands in state under the export's logical name with its uid, and the code `pulumi import`
// writes, as the program, previews no change.

const EXPORTED = ["groups", "identities", "roles", "roleBindings", "identityProviders", "accountAssociations"] as const;
const TYPE_OF: Record<(typeof EXPORTED)[number], string> = {
  groups: "irv:iam:Group",
  identities: "irv:iam:Identity",
  roles: "irv:iam:Role",
  roleBindings: "irv:iam:RoleBinding",
  identityProviders: "irv:iam:IdentityProvider",
  accountAssociations: "irv:iam:AccountAssociation",
};

interface Entry {
  type: string;
  name: string;
  logicalName: string;
  id: string;
}

describe("irv export --import-file, then pulumi import --file", { timeout: ENGINE_TIMEOUT }, () => {
  let srv: TestServer;
  let out: string;
  let team: string;
  let p: YamlProject | undefined;
  beforeAll(async () => {
    srv = await startTestServer();
    const top = await makeEveryKind(srv.api, srv.server.organization, "exported");
    await makeEveryKind(srv.api, top.team, "platform");
    team = top.team;
    out = mkdtempSync(path.join(tmpdir(), "irv-export-import-"));
  });
  afterAll(async () => {
    p?.dispose();
    await srv?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it("writes every exported resource with its uid, the plugin's type and the program's names", async () => {
    const file = path.join(out, "import", "irv.json");
    const run = await runIrv(["export", "--group", team, "--out", path.join(out, "program"), "--import-file", file], { IRV_API_URL: srv.server.url, IRV_TOKEN: srv.server.token });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Wrote their \`pulumi import --file\` document to ${file}`);

    const entries = (JSON.parse(readFileSync(file, "utf8")) as { resources: Entry[] }).resources;
    // Exactly the live subtree, the exported group itself excepted (the program does not manage it).
    const want: string[] = [];
    for (const c of EXPORTED)
      for (const x of await listAll(srv.api, c, { "uidp.descendants_of": team }))
        if ((c !== "groups" || x.uid !== team) && !(c === "roles" && !x.uid.includes("/"))) want.push(`${TYPE_OF[c]} ${x.uid}`);
    expect(entries.map((e) => `${e.type} ${e.id}`).sort()).toEqual(want.sort());
    expect(entries.length).toBe(19);

    // The names are the program's: `const <name> = new iam.<Class>("<logicalName>", ...)`.
    const program = readFileSync(path.join(out, "program", "program.ts"), "utf8");
    for (const e of entries) expect(program).toContain(`const ${e.name} = new iam.${e.type.split(":")[2]}(${JSON.stringify(e.logicalName)}, {\n    adoptUid: ${JSON.stringify(e.id)},`);
    expect(new Set(entries.map((e) => e.logicalName)).size).toBe(entries.length);

    // Through the real CLI: every resource in state under its logical name with its uid, and the
    // code it writes, as the program, previews no change.
    p = await yamlProject("exported", srv.server);
    const code = path.join(out, "code.yaml");
    await p.pulumi("import", "--file", file, "--yes", "--protect=false", "--out", code);
    const state = await p.resources();
    for (const e of entries) expect(state.find((r) => r.urn.endsWith(`::${e.type}::${e.logicalName}`))?.id).toBe(e.id);
    p.write(readFileSync(code, "utf8").replace(/^resources:\n/, ""));
    expect((await p.previewJson("--expect-no-changes")).changeSummary).toEqual({ same: entries.length + 1 });
  });
});
