import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStack, ENGINE_TIMEOUT, nodeRequire, recordSteps, repoRoot, type TestStack } from "../support/engine";
import { listAll, startTestServer, type Api, type TestServer } from "../support/server";
import { runIrv } from "../support/cli";
import { created } from "../support/server-helpers";

// `irv export` of a server-side org of a few hundred resources (made over the API), then `up` of
// the generated program through the real engine (adopting everything: no POST, no DELETE, uids
// unchanged), then a preview with no changes.

const GITHUB = "https://token.actions.githubusercontent.com";
const COLLECTIONS = ["groups", "identities", "roles", "roleBindings", "identityProviders", "accountAssociations"] as const;

/** Creates through the API and returns the created resource's uid. */
const create = async (api: Api, collection: (typeof COLLECTIONS)[number], parent: string, body: object): Promise<string> =>
  (await created(api, collection, parent, body)).uid;

/** Builds a group tree under `parent`: 4 teams of 3 subteams, each group with identities, a role and bindings. */
async function buildOrg(api: Api, parent: string): Promise<string> {
  const viewer = (await listAll(api, "roles", { name: "viewer" }))[0].uid as string;
  const acme = await create(api, "groups", parent, { name: "acme", description: "The exported org" });
  const groups: string[] = [acme];
  for (const team of ["platform", "security", "data", "web"]) {
    const t = await create(api, "groups", acme, { name: team, description: `The ${team} team` });
    groups.push(t);
    // Subteams share names across teams ("oncall" four times): exported names must stay unique.
    for (const sub of ["oncall", "tools", "release"]) groups.push(await create(api, "groups", t, { name: sub }));
    await create(api, "identityProviders", t, {
      name: `${team}-sso`,
      defaultRole: viewer,
      oidc: { issuer: "https://login.acme.example", clientId: `irv-${team}`, clientSecret: `secret-${team}`, additionalScopes: ["email"] },
    });
    await create(api, "accountAssociations", t, { name: `${team}-accounts`, amazon: { account: "123456789012" } });
  }
  for (const [n, g] of groups.entries()) {
    const role = await create(api, "roles", g, { name: "deployer", description: "Deploys", capabilities: ["CAP_REPO_LIST", "CAP_TAG_CREATE"] });
    for (let i = 0; i < 5; i++) {
      const identity =
        i === 4
          ? await create(api, "identities", g, {
              name: "aws-runner",
              awsIdentity: { awsAccount: "123456789012", arn: `arn:aws:iam::123456789012:role/runner-${n}` },
            })
          : await create(api, "identities", g, {
              name: i === 0 ? "ci-main" : `ci-${i}`,
              description: i === 1 ? "Pull requests" : undefined,
              claimMatch: { issuer: GITHUB, subject: `repo:acme/app-${n}:ref:refs/heads/${i}` },
            });
      await create(api, "roleBindings", g, { identityUid: identity, roleUid: role });
      if (i === 0) await create(api, "roleBindings", g, { identityUid: identity, roleUid: viewer });
    }
  }
  return acme;
}

// An engine test: `up` adopts a few hundred resources, about a minute on a loaded 2-core machine.
describe("irv export", { timeout: ENGINE_TIMEOUT }, () => {
  let srv: TestServer;
  let out: string;
  let acme: string;
  let live: Record<string, string[]>;
  let t: TestStack | undefined;

  beforeAll(async () => {
    srv = await startTestServer();
    acme = await buildOrg(srv.api, srv.server.organization);
    live = {};
    for (const c of COLLECTIONS)
      live[c] = (await listAll(srv.api, c, { "uidp.descendants_of": acme })).map((x: any) => x.uid).filter((u: string) => c !== "groups" || u !== acme);
    out = mkdtempSync(path.join(tmpdir(), "irv-export-"));
  });
  afterAll(async () => {
    await t?.dispose();
    await srv?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it(
    "exports a few hundred resources, and the program adopts them all: no create, no change after",
    async () => {
      const total = COLLECTIONS.reduce((n, c) => n + live[c].length, 0);
      expect(total).toBeGreaterThan(200);

      // Export through the compiled CLI, with the provider's env vars.
      const mark = srv.server.requests.length;
      const run = await runIrv(["export", "--group", acme, "--out", out, "--api-url", srv.server.url], { IRV_TOKEN: srv.server.token });
      expect(run.stderr).not.toContain("secret-");
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`identities: ${live.identities.length} of ${live.identities.length} (done)`);
      // Progress and the summary count the same things (issue 39: `groups: 61 of 61`, then `Read 60 groups`).
      const done = Object.fromEntries([...run.stderr.matchAll(/^ {2}(\w+): (\d+) of (\d+) \(done\)$/gm)].map((m) => [m[1], [Number(m[2]), Number(m[3])]]));
      const summary = Object.fromEntries([...(/^Read (.*) in /m.exec(run.stderr)?.[1] ?? "").matchAll(/(\d+) (\w+)/g)].map((m) => [m[2], Number(m[1])]));
      expect(Object.keys(done).sort()).toEqual(Object.keys(summary).sort());
      for (const [c, [read, of]] of Object.entries(done)) expect([c, read, of]).toEqual([c, summary[c], summary[c]]);
      expect(summary.groups).toBe(live.groups.length);
      expect(run.stdout).toContain(`Wrote a program declaring ${total} resources`);
      const reads = srv.server.requests.slice(mark);
      expect(reads.every((r) => r.method === "GET")).toBe(true);

      const program = readFileSync(path.join(out, "program.ts"), "utf8");
      // References are code; names are readable and unique; secrets come from config.
      expect(program).toContain(`const acme = config.get("groupUid") ?? "${acme}";`);
      expect(program).toMatch(/const platform = new iam\.Group\("platform", \{\n\s+adoptUid: "[0-9a-f/]+",\n\s+parentUid: acme,/);
      expect(program).toMatch(/identityUid: ciMain\.uid,/);
      expect(program).toContain('config.requireSecret("platformSsoClientSecret")');
      expect(program).toContain('// built-in role "viewer"');
      const names = [...program.matchAll(/new iam\.\w+\("([^"]+)"/g)].map((m) => m[1]);
      expect(names.length).toBe(total);
      expect(new Set(names).size).toBe(total);
      expect(program.match(/adoptUid: /g)?.length).toBe(total);

      // The generated TypeScript type-checks against the built SDK.
      symlinkSync(path.join(repoRoot, "node_modules"), path.join(out, "node_modules"), "dir");
      const tsconfig = JSON.parse(readFileSync(path.join(out, "tsconfig.json"), "utf8"));
      const options = ts.convertCompilerOptionsFromJson(tsconfig.compilerOptions, out).options;
      const checked = ts.createProgram([path.join(out, "index.ts")], { ...options, noEmit: true });
      const diagnostics = ts.getPreEmitDiagnostics(checked).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      expect(diagnostics).toEqual([]);

      // Load it as an inline program and take the org over.
      const js = ts.transpileModule(program, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
      writeFileSync(path.join(out, "program.js"), js.outputText);
      const generated = nodeRequire(path.join(out, "program.js")) as { program(): void };
      const secrets = Object.fromEntries(["platform", "security", "data", "web"].map((team) => [`acme:${team}SsoClientSecret`, `secret-${team}`]));
      t = await createStack({ stackName: "adopt", projectName: "acme", server: srv.server, secrets, program: async () => generated.program() });

      const before = srv.server.requests.length;
      const steps = recordSteps();
      await t.stack.up({ onEvent: steps.onEvent });
      const writes = srv.server.requests.slice(before).filter((r) => r.method !== "GET");
      expect(writes.filter((r) => r.method === "POST" || r.method === "DELETE")).toEqual([]);

      // Every resource in the stack is the live one it adopted, and the live org is unchanged.
      const state = await t.exportState();
      const adopted = (state.deployment.resources as any[]).filter((r) => r.inputs?.adoptUid);
      expect(adopted.length).toBe(total);
      for (const r of adopted) expect(r.outputs.uid).toBe(r.inputs.adoptUid);
      const stateUids = new Set(adopted.map((r) => r.outputs.uid));
      for (const c of COLLECTIONS) {
        const now = (await listAll(srv.api, c, { "uidp.descendants_of": acme })).map((x: any) => x.uid).filter((u: string) => c !== "groups" || u !== acme);
        expect(now.sort(), c).toEqual([...live[c]].sort());
        for (const uid of now) expect(stateUids.has(uid), `${c} ${uid}`).toBe(true);
      }

      const preview = await t.stack.preview({ expectNoChanges: true });
      expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    },
    ENGINE_TIMEOUT,
  );
});
