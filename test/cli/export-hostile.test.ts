import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNSAFE_CHARS } from "../../api/text";
import { runIrv } from "../support/cli";
import { json, startHostileServer, type HostileServer } from "../support/hostile-server";
import { listAll, path as apiPath, startTestServer, type TestServer } from "../support/server";

// `irv export` of an org whose names hold code: text that anyone with write access can put in
// through an honest irv-server (U+2028 ending a `//` comment, `*/` closing a block comment, bidi
// controls, a newline in an OIDC client id), and uids a hostile stand-in server sends. The
// written program is compiled and run with stub modules: nothing in it may run but declarations,
// and each hostile value must come back exactly as the API has it.

const PAYLOAD = "globalThis.pwned = 1";
const ROLE = `deployer\u2028${PAYLOAD}; //`;
const IDENTITY = `ci */ ${PAYLOAD}; /* \u202egnp.exe`;
const DESCRIPTION = `\u2066admin\u2069 only\r\n${PAYLOAD}`;
const CLIENT_ID = "irv\nrm -rf ~ #";
const ROLE2 = 'q"`${globalThis.pwned=3}`\\';

/** Runs the compiled program with stub `@pulumi/pulumi` and `pulumi-irv`, returning every declaration. */
function runProgram(source: string): { kind: string; name: string; args: any }[] {
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const declared: { kind: string; name: string; args: any }[] = [];
  const iam = new Proxy(
    {},
    {
      get: (_t, kind: string) =>
        class {
          uid = `uid-of-${kind}`;
          constructor(name: string, args: any) {
            declared.push({ kind, name, args });
          }
        },
    },
  );
  const stubs: Record<string, unknown> = {
    "@pulumi/pulumi": {
      Config: class {
        get() {
          return undefined;
        }
        requireSecret(k: string) {
          return `secret:${k}`;
        }
      },
    },
    "pulumi-irv": { iam },
  };
  const exports: Record<string, any> = {};
  new Function("require", "exports", js)((m: string) => stubs[m], exports);
  exports.program();
  return declared;
}

describe("irv export of hostile data", () => {
  let srv: TestServer;
  let out: string;
  let acme: string;
  let parentRole: string;
  let hostile: HostileServer | undefined;

  beforeAll(async () => {
    srv = await startTestServer();
    const post = async (c: Parameters<typeof apiPath>[0], parent: string, body: object) => {
      const r = await srv.api.post(apiPath(c, parent), body);
      if (r.status !== 200) throw new Error(`${c}: ${r.text}`);
      return r.body.uid as string;
    };
    const parent = await post("groups", srv.server.organization, { name: "parent" });
    acme = await post("groups", parent, { name: "acme" });
    // A custom role of the exported group's parent: outside the export, and not built in.
    parentRole = await post("roles", parent, { name: ROLE, capabilities: ["CAP_IAM_GROUPS_LIST"] });
    const ci = await post("identities", acme, {
      name: IDENTITY,
      description: DESCRIPTION,
      claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/x\u2028y", claims: { [`k\u2029${PAYLOAD}`]: "v" } },
    });
    await post("roleBindings", acme, { identityUid: ci, roleUid: parentRole });
    await post("roles", acme, { name: ROLE2, capabilities: ["CAP_IAM_GROUPS_LIST"] });
    const viewer = (await listAll(srv.api, "roles", { name: "viewer" }))[0].uid as string;
    await post("identityProviders", acme, {
      name: "sso",
      defaultRole: viewer,
      oidc: { issuer: "https://login.acme.example", clientId: CLIENT_ID, clientSecret: "s" },
    });
    out = mkdtempSync(path.join(tmpdir(), "irv-export-hostile-"));
  });
  afterAll(async () => {
    await hostile?.close();
    await srv?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it("writes server text only through encoders: the program runs nothing but declarations, and keeps every value", async () => {
    const dir = path.join(out, "program");
    const run = await runIrv(["export", "--group", acme, "--out", dir, "--api-url", srv.server.url], { IRV_TOKEN: srv.server.token });
    expect(run.code, run.stderr).toBe(0);
    const files = ["program.ts", "Pulumi.yaml", "README.md"].map((f) => readFileSync(path.join(dir, f), "utf8"));
    // No raw control, line-separator or bidi character in any file or in what the command printed.
    for (const text of [...files, run.stdout]) expect([...text.matchAll(UNSAFE_CHARS)].map((m) => m[0]).filter((c) => c !== "\n")).toEqual([]);

    const [program, pulumiYaml, readme] = files;
    const declared = runProgram(program);
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
    const identity = declared.find((d) => d.kind === "Identity")!;
    expect(identity.args.name).toBe(IDENTITY);
    expect(identity.args.description).toBe(DESCRIPTION);
    expect(identity.args.claimMatch.subject).toBe("repo:acme/x\u2028y");
    expect(Object.keys(identity.args.claimMatch.claims)).toEqual([`k\u2029${PAYLOAD}`]);
    expect(declared.find((d) => d.kind === "Role")!.args.name).toBe(ROLE2);
    expect(declared.find((d) => d.kind === "IdentityProvider")!.args.oidc.clientId).toBe(CLIENT_ID);
    // The parent's custom role is referred to by uid, and called what it is.
    expect(declared.find((d) => d.kind === "RoleBinding")!.args.roleUid).toBe(parentRole);
    const roleLine = program.split("\n").find((l) => l.includes(JSON.stringify(parentRole)))!;
    expect(roleLine).toContain("// role of a group outside the exported one");
    expect(roleLine).not.toContain("built-in");

    // Pulumi.yaml: its three keys and nothing else; the description one double-quoted line.
    expect(
      pulumiYaml
        .split("\n")
        .filter((l) => /^\S/.test(l))
        .map((l) => l.split(":")[0]),
    ).toEqual(["name", "runtime", "description"]);
    // The README's and the command's "set this secret" line is one line, the client id escaped.
    for (const text of [readme, run.stdout]) {
      const line = text.split("\n").find((l) => l.includes("pulumi config set --secret sso"))!;
      expect(line).toContain('(client id "irv\\nrm -rf ~ #")');
      expect(text.split("\n").some((l) => l.trim().startsWith("rm "))).toBe(false);
    }
  });

  it("refuses a uid that is no uid, or one outside the group asked for, and writes nothing", async () => {
    const group = (await srv.api.get(apiPath("groups", acme))).body;
    const listed = { ...(await srv.api.get(apiPath("groups"), { "uidp.descendants_of": acme })).body };
    let bad: object = { ...group, uid: `${acme}/0123456789abcdef\nimport "evil";` };
    hostile = await startHostileServer((req, res) => {
      if (req.url!.startsWith(`/iam/v2beta1/groups/${acme}`)) return json(res, group);
      if (req.url!.startsWith("/iam/v2beta1/groups?")) return json(res, { ...listed, groups: [bad], totalCount: "1" });
      const c = req.url!.split("?")[0].split("/").pop()!;
      json(res, { [c]: [], totalCount: "0" });
    });
    for (const [answer, error] of [
      [bad, /the API sent "[0-9a-f]{40}\/[0-9a-f]{16}\/[0-9a-f]{16}\/0123456789abcdef\\\\nimport \\"evil\\";" where a uid belongs/],
      [{ ...group, uid: `${srv.server.organization}/0123456789abcdef`, name: "elsewhere" }, /outside the group/],
    ] as const) {
      bad = answer;
      const dir = path.join(out, `refused-${Math.random().toString(36).slice(2)}`);
      const run = await runIrv(["export", "--group", acme, "--out", dir, "--api-url", hostile.url], { IRV_TOKEN: "t" });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(error);
      expect(existsSync(dir)).toBe(false);
    }
  });

  it("fails on a page token the server sent before, after a few requests", async () => {
    const group = (await srv.api.get(apiPath("groups", acme))).body;
    const cycling = await startHostileServer((req, res) => {
      if (req.url!.startsWith(`/iam/v2beta1/groups/${acme}`)) return json(res, group);
      const c = req.url!.split("?")[0].split("/").pop()!;
      const token = new URL(req.url!, "http://x").searchParams.get("page_token");
      json(res, { [c]: [], nextPageToken: token === "A" ? "B" : "A", totalCount: "0" });
    });
    try {
      const run = await runIrv(["export", "--group", acme, "--out", path.join(out, "cycling"), "--api-url", cycling.url], { IRV_TOKEN: "t" });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/a page token it sent before/);
      // Every collection stops at its third page: a handful of requests, not 137,000.
      expect(cycling.requests.length).toBeLessThan(30);
    } finally {
      await cycling.close();
    }
  });
});
