/**
 * `irv drift` reads a stack on a local file backend with the passphrase provider from its files
 * (cli/stack-files.ts, cli/passphrase.ts): exactly what `pulumi stack export --show-secrets` and
 * `pulumi config --show-secrets --json` print, with one key derivation and no pulumi run; a
 * wrong passphrase is a clear error that shows neither it nor a secret; and anything irv does not
 * read exactly itself (another secrets provider, project config, structured config, a compressed
 * checkpoint) goes to the pulumi CLI as before. Real stacks, made by the real CLI.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readStackFiles } from "../../cli/stack-files";
import { runIrv, runNode } from "../support/cli";
import { ENGINE_TIMEOUT, PASSPHRASE, pulumiEnv, repoRoot } from "../support/engine";
import { run } from "../support/toolchain";

const TOKEN = 'tok-"quoted"-ünïcode';
const SECRET_OUTPUT = "out-secret-value";

/** A YAML project of no resources whose stack holds secrets in its config and its state (the stack's outputs). */
interface Project {
  dir: string;
  env: Record<string, string>;
  pulumi(...args: string[]): Promise<string>;
  /** What the CLI prints for the stack, secrets shown. */
  cli(stack: string): Promise<{ state: unknown; config: unknown }>;
}

let base: string;
let project: Project;

function makeProject(name: string, extra = ""): Project {
  const dir = path.join(base, name);
  const backend = path.join(base, `${name}-backend`);
  mkdirSync(dir);
  mkdirSync(backend);
  writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: ${name}\nruntime: yaml\nbackend:\n  url: file://${backend}\noutputs:\n  plain: visible\n  s:\n    fn::secret: ${SECRET_OUTPUT}\n  o:\n    fn::secret:\n      list: [1, "two"]\n${extra}`,
  );
  const env = pulumiEnv(path.join(base, "home"), { PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true" });
  const all = { ...process.env, ...env };
  const pulumi = async (...args: string[]) => (await run("pulumi", [...args, "--non-interactive"], { cwd: dir, env: all })).stdout;
  return {
    dir,
    env,
    pulumi,
    cli: async (stack) => ({
      state: JSON.parse(await pulumi("stack", "export", "--show-secrets", "--stack", stack)),
      config: JSON.parse(await pulumi("config", "--show-secrets", "--json", "--stack", stack)),
    }),
  };
}

async function stackWithSecrets(p: Project, stack: string, env: Record<string, string> = {}): Promise<void> {
  const e = { ...process.env, ...p.env, ...env };
  const pulumi = (...args: string[]) => run("pulumi", [...args, "--non-interactive", "--stack", stack], { cwd: p.dir, env: e });
  await run("pulumi", ["stack", "init", stack, "--non-interactive"], { cwd: p.dir, env: e });
  await pulumi("config", "set", "--secret", "irv:token", TOKEN);
  await pulumi("config", "set", "irv:apiUrl", "http://127.0.0.1:9/");
  await pulumi("up", "--yes", "--skip-preview");
}

beforeAll(async () => {
  base = mkdtempSync(path.join(tmpdir(), "irv-stack-files-"));
  project = makeProject("files");
  await stackWithSecrets(project, "dev");
}, ENGINE_TIMEOUT);

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("a passphrase stack on a file backend, read from its files", () => {
  it("is what the pulumi CLI prints with --show-secrets, state and config", async () => {
    const read = await readStackFiles(project.dir, "dev", project.env);
    expect(read).toBeDefined();
    expect(read).toEqual(await project.cli("dev"));
    expect(read!.config["irv:token"]).toEqual({ value: TOKEN, secret: true });
  });

  it("takes the passphrase from PULUMI_CONFIG_PASSPHRASE_FILE as the CLI does (trimmed)", async () => {
    const file = path.join(base, "phrase");
    writeFileSync(file, `${PASSPHRASE}\n`);
    const { PULUMI_CONFIG_PASSPHRASE: _, ...env } = project.env;
    const read = await readStackFiles(project.dir, "dev", { ...env, PULUMI_CONFIG_PASSPHRASE_FILE: file });
    expect(read?.config["irv:token"]?.value).toBe(TOKEN);
  });

  it("says a wrong passphrase is wrong, showing neither it nor a secret", async () => {
    const wrong = "not-the-passphrase";
    const err = (await readStackFiles(project.dir, "dev", { ...project.env, PULUMI_CONFIG_PASSPHRASE: wrong }).catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/incorrect passphrase for stack dev/);
    const drift = await runIrv(["drift", "--stack", "dev", "--cwd", project.dir], { ...project.env, PULUMI_CONFIG_PASSPHRASE: wrong });
    expect(drift.code).not.toBe(0);
    expect(drift.code).not.toBe(2);
    expect(drift.stderr).toMatch(/incorrect passphrase for stack dev/);
    for (const text of [err.message, drift.stdout, drift.stderr]) {
      for (const hidden of [wrong, PASSPHRASE, TOKEN, SECRET_OUTPUT]) expect(text).not.toContain(hidden);
    }
  });

  it("makes irv drift start no pulumi run for it", async () => {
    // No pulumi on PATH: a run would fail. The stack holds no irv resource, so the drift is done there.
    const drift = await runIrv(["drift", "--stack", "dev", "--cwd", project.dir, "--no-access"], {
      ...project.env,
      PATH: path.dirname(process.execPath),
    });
    expect(drift.stderr).toBe("");
    expect(drift.code).toBe(0);
    for (const hidden of [PASSPHRASE, TOKEN, SECRET_OUTPUT]) expect(drift.stdout).not.toContain(hidden);
  });
});

/** readStack (cli/stack.ts) in a child process with the project's environment: what irv drift reads. */
async function readStackIn(p: Project, stack: string): Promise<unknown> {
  const script = `require(${JSON.stringify(`${repoRoot}/dist/cli/stack.js`)}).readStack({ stack: ${JSON.stringify(stack)}, cwd: ${JSON.stringify(p.dir)} })
  .then((c) => console.log(JSON.stringify({ state: c.state, config: c.config })), (e) => { console.error(e.message); process.exit(1); });`;
  const r = await runNode(["-e", script], p.env);
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout);
}

describe("what irv leaves to the pulumi CLI", () => {
  it(
    "a compressed checkpoint: read by the CLI, the same contents",
    async () => {
      const p = makeProject("gzipped");
      await stackWithSecrets(p, "dev", { PULUMI_DIY_BACKEND_GZIP: "true" });
      expect(await readStackFiles(p.dir, "dev", p.env)).toBeUndefined();
      expect(await readStackIn(p, "dev")).toEqual(await p.cli("dev"));
    },
    ENGINE_TIMEOUT,
  );

  it(
    "project-level config and structured config values: read by the CLI",
    async () => {
      const p = makeProject("projcfg", "config:\n  projcfg:region:\n    default: north\n");
      await stackWithSecrets(p, "dev");
      expect(await readStackFiles(p.dir, "dev", p.env)).toBeUndefined();
      expect(await readStackIn(p, "dev")).toEqual(await p.cli("dev"));
      await p.pulumi("config", "set", "--path", "--secret", "irv:nested.inner", "deep", "--stack", "dev");
      writeFileSync(path.join(p.dir, "Pulumi.yaml"), readFileSync(path.join(p.dir, "Pulumi.yaml"), "utf8").replace(/config:[\s\S]*$/, ""));
      expect(await readStackFiles(p.dir, "dev", p.env)).toBeUndefined();
      expect(await readStackIn(p, "dev")).toEqual(await p.cli("dev"));
    },
    ENGINE_TIMEOUT,
  );

  it("another secrets provider: irv asks the CLI, whose error it shows", async () => {
    // A stack file naming HashiCorp Vault's provider (no Vault here: the CLI fails to reach it).
    const file = path.join(project.dir, "Pulumi.vault.yaml");
    writeFileSync(file, "secretsprovider: hashivault://irv-test\nencryptedkey: dmF1bHQ6djE6eA==\nconfig:\n  irv:token:\n    secure: djE6eA==\n");
    const stateDir = path.join(base, "files-backend", ".pulumi", "stacks", "files");
    writeFileSync(path.join(stateDir, "vault.json"), readFileSync(path.join(stateDir, "dev.json")));
    expect(await readStackFiles(project.dir, "vault", project.env)).toBeUndefined();
    const drift = await runIrv(["drift", "--stack", "vault", "--cwd", project.dir], { ...project.env, VAULT_ADDR: "http://127.0.0.1:9" });
    expect(drift.code).not.toBe(0);
    expect(drift.stderr).toMatch(/pulumi (stack export|config --show-secrets) failed[^]*127\.0\.0\.1:9\/v1\/transit\/decrypt/);
  });
});

describe("hostile stack files", () => {
  const dir = () => {
    const d = mkdtempSync(path.join(base, "hostile-"));
    mkdirSync(path.join(d, "backend", ".pulumi", "stacks"), { recursive: true });
    writeFileSync(path.join(d, "Pulumi.yaml"), `name: h\nruntime: yaml\nbackend:\n  url: file://${d}/backend\n`);
    writeFileSync(path.join(d, "backend", ".pulumi", "stacks", "s.json"), JSON.stringify({ version: 3, checkpoint: { latest: { resources: [] } } }));
    return d;
  };

  it("runs no code a YAML tag names, and leaves such a file to the CLI", async () => {
    const d = dir();
    writeFileSync(path.join(d, "Pulumi.s.yaml"), 'config:\n  h:x: !!js/function "function () { process.exit(7) }"\n');
    expect(await readStackFiles(d, "s", {})).toBeUndefined();
  });

  it("does not expand an alias bomb, nor overflow on a deeply nested state", async () => {
    const d = dir();
    const bomb = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 30; i++)
      bomb.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(", ")}]`,
      );
    writeFileSync(path.join(d, "Pulumi.s.yaml"), `config:\n  h:bomb:\n${bomb.map((l) => `    ${l}`).join("\n")}\n`);
    expect(await readStackFiles(d, "s", {})).toBeUndefined();
    rmSync(path.join(d, "Pulumi.s.yaml"));
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    writeFileSync(path.join(d, "backend", ".pulumi", "stacks", "s.json"), `{"version":3,"checkpoint":{"latest":{"resources":[],"x":${deep}}}}`);
    const read = await readStackFiles(d, "s", {});
    expect(read?.config).toEqual({});
  });

  it("says a secret that does not decrypt does not, without its text", async () => {
    const d = dir();
    const salt = readFileSync(path.join(project.dir, "Pulumi.dev.yaml"), "utf8").match(/encryptionsalt: (\S+)/)![1];
    writeFileSync(
      path.join(d, "Pulumi.s.yaml"),
      `encryptionsalt: ${salt}\nconfig:\n  h:x:\n    secure: v1:AAAAAAAAAAAAAAAA:bm90LWEtcmVhbC1jaXBoZXJ0ZXh0LWF0LWFsbA==\n`,
    );
    const err = (await readStackFiles(d, "s", { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE }).catch((e: Error) => e)) as Error;
    expect(err.message).toBe("stack s: a secret in its config does not decrypt with its passphrase");
  });
});
