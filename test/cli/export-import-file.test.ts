import { readFileSync, rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORTED_KINDS, KINDS, definitionOf, type ExportedKind, type Kind } from "../../api/kinds";
import { tokenOf } from "../../plugin/schema";
import { ENGINE_TIMEOUT } from "../support/engine";
import { runIrv } from "../support/cli";
import { makeEveryKind } from "../support/every-kind";
import { listAll, startTestServer, type TestServer } from "../support/server";
import { yamlProject, type YamlProject } from "../support/yaml-project";

// `irv export --import-file` of a live org (the server's sample data, plus a team of every kind
// with a subteam of every kind below it, so that names repeat), then `pulumi import --file` of
// that file into a new YAML stack through the real CLI and the resource plugin: every resource
// lands in state under the export's logical name with its uid, and the code `pulumi import`
// writes, as the program, previews no change. Every reference in that code stands for the
// resource its field refers to: the exported group's account association, whose uid is the
// group's, is left out of the file (else every `groupUid` of the group's children would be
// written as `${<association>.id}`) and imported by itself, as irv export says.

/** The plugin's type token of each kind `irv export` declares. */
const TYPE_OF = Object.fromEntries(EXPORTED_KINDS.map((c) => [c, tokenOf(definitionOf(c))])) as Record<ExportedKind, string>;

/** The field of each kind that holds another resource's uid, and that resource's type token. */
const REFERS_TO: Record<string, Record<string, string>> = Object.fromEntries(
  KINDS.map((k) => [
    tokenOf(k),
    Object.fromEntries(
      Object.entries(k.fields as Record<string, { refersTo?: string }>)
        .filter(([, f]) => f.refersTo)
        .map(([name, f]) => [name, tokenOf(KINDS.find((o) => o.kind === (f.refersTo as Kind))!)]),
    ),
  ]),
);

/** Every `${name.attr}` in the YAML `pulumi import --out` writes: the resource it is in, the top-level property, what it names. */
function referencesIn(code: string): { resource: string; field: string; target: string }[] {
  const refs: { resource: string; field: string; target: string }[] = [];
  let resource = "";
  for (const line of code.split("\n")) {
    const header = line.match(/^ {2}([^\s:]+):$/);
    if (header) resource = header[1];
    if (!line.includes("${")) continue;
    // Anything but `      <property>: ${<name>.<attr>}` (a top-level property) counts as a field of its own.
    const m = line.match(/^ {6}(\w+): \$\{([^.}]+)\.\w+\}$/);
    refs.push({ resource, field: m?.[1] ?? line.trim(), target: m?.[2] ?? "" });
  }
  return refs;
}

interface Entry {
  type: string;
  name: string;
  logicalName: string;
  id: string;
}

/** `irv export --import-file` of `group`: the document's entries, the program's text, irv's output. */
async function exportGroup(srv: TestServer, group: string, out: string): Promise<{ file: string; entries: Entry[]; program: string; stdout: string }> {
  const file = path.join(out, "import", "irv.json");
  const run = await runIrv(["export", "--group", group, "--out", path.join(out, "program"), "--import-file", file], {
    IRV_API_URL: srv.server.url,
    IRV_TOKEN: srv.server.token,
  });
  expect(run.stderr).not.toMatch(/error/i);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain(`Wrote their \`pulumi import --file\` document to ${file}`);
  const entries = (JSON.parse(readFileSync(file, "utf8")) as { resources: Entry[] }).resources;
  return { file, entries, program: readFileSync(path.join(out, "program", "program.ts"), "utf8"), stdout: run.stdout };
}

/**
 * Imports the document into `p`, then the exported group's association by the command irv printed;
 * checks that every reference in the code `pulumi import` wrote stands for the resource its field
 * refers to, that the association's own code holds its group's uid as a literal, and that both,
 * as the program, preview no change. Returns the references.
 */
async function importAndCheck(p: YamlProject, exported: Awaited<ReturnType<typeof exportGroup>>, group: string, out: string) {
  const { file, entries, program, stdout } = exported;
  // The association left out: irv says how to import it, by the program's logical name.
  const alone = program.match(/const \w+ = new iam\.AccountAssociation\(("[^"]+"), \{\n {4}adoptUid: ("[^"]+"),/);
  expect(JSON.parse(alone![2])).toBe(group);
  const logical = JSON.parse(alone![1]) as string;
  expect(stdout).toContain(`  pulumi import irv:iam:AccountAssociation ${logical} ${group}\n`);

  const code = path.join(out, "code.yaml");
  await p.pulumi("import", "--file", file, "--yes", "--protect=false", "--out", code);
  const state = await p.resources();
  for (const e of entries) expect(state.find((r) => r.urn.endsWith(`::${e.type}::${e.logicalName}`))?.id).toBe(e.id);
  const imported = readFileSync(code, "utf8").replace(/^resources:\n/, "");
  const typeOf = new Map(entries.map((e) => [e.name, e.type]));
  const refs = referencesIn(imported);
  for (const r of refs) expect(typeOf.get(r.target), `${r.resource}.${r.field}: \${${r.target}...}`).toBe(REFERS_TO[typeOf.get(r.resource)!]?.[r.field]);

  const aloneCode = path.join(out, "alone.yaml");
  await p.pulumi("import", "irv:iam:AccountAssociation", logical, group, "--yes", "--protect=false", "--out", aloneCode);
  const aloneText = readFileSync(aloneCode, "utf8").replace(/^resources:\n/, "");
  expect(referencesIn(aloneText)).toEqual([]);
  expect(aloneText).toContain(`groupUid: ${group}\n`);
  p.write(`${imported}${aloneText}`);
  expect((await p.previewJson("--expect-no-changes")).changeSummary).toEqual({ same: entries.length + 2 });
  return refs;
}

describe("irv export --import-file, then pulumi import --file", { timeout: ENGINE_TIMEOUT }, () => {
  let srv: TestServer;
  let out: string;
  let team: string;
  let single: string;
  const projects: YamlProject[] = [];
  beforeAll(async () => {
    srv = await startTestServer();
    const top = await makeEveryKind(srv.api, srv.server.organization, "exported");
    await makeEveryKind(srv.api, top.team, "platform");
    team = top.team;
    single = (await makeEveryKind(srv.api, srv.server.organization, "single")).team;
    out = mkdtempSync(path.join(tmpdir(), "irv-export-import-"));
  });
  afterAll(async () => {
    for (const p of projects) p.dispose();
    await srv?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it("writes every exported resource with its uid, the plugin's type and the program's names", async () => {
    const exported = await exportGroup(srv, team, path.join(out, "nested"));
    const { entries, program } = exported;
    // Exactly the live subtree, the exported group itself excepted (the program does not manage
    // it), and its account association, which shares its uid (imported by itself).
    const want: string[] = [];
    for (const c of EXPORTED_KINDS)
      for (const x of await listAll(srv.api, c, { "uidp.descendants_of": team }))
        if (x.uid !== team && !(c === "roles" && !x.uid.includes("/"))) want.push(`${TYPE_OF[c]} ${x.uid}`);
    expect(entries.map((e) => `${e.type} ${e.id}`).sort()).toEqual(want.sort());
    expect(entries.length).toBe(22);

    // The names are the program's: `const <name> = new <module>.<Class>("<logicalName>", ...)`.
    for (const e of entries)
      expect(program).toContain(
        `const ${e.name} = new ${e.type.split(":").slice(1).join(".")}(${JSON.stringify(e.logicalName)}, {\n    adoptUid: ${JSON.stringify(e.id)},`,
      );
    expect(program).toContain('import { iam, registry, events } from "pulumi-irv";');
    expect(new Set(entries.map((e) => e.logicalName)).size).toBe(entries.length);

    // Through the real CLI: every resource in state under its logical name with its uid, and the
    // code it writes, as the program, previews no change. (Here that code holds no references:
    // two resources of one name, such as the two \`ci\` identities, make Pulumi's guesses circular,
    // and it then writes every value as a literal.)
    const p = await yamlProject("exported", srv.server);
    projects.push(p);
    await importAndCheck(p, exported, team, path.join(out, "nested"));
  });

  it("gives no reference to the group's association: the subgroup, identity and role its code refers to are the right ones", async () => {
    const exported = await exportGroup(srv, single, path.join(out, "single"));
    expect(exported.entries.map((e) => e.id)).not.toContain(single);
    const p = await yamlProject("single", srv.server);
    projects.push(p);
    const refs = await importAndCheck(p, exported, single, path.join(out, "single"));
    // What Pulumi guesses here: the runner's group (the subgroup), the binding's identity and role.
    expect(refs.map((r) => r.field).sort()).toEqual(["groupUid", "identityUid", "roleUid"]);
  });
});
