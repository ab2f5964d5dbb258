import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, pulumiEnv } from "../support/engine";
import { run, yamlHost } from "../support/toolchain";

// The YAML language host that scripts/ensure-pulumi builds beside the CLI runs a Pulumi YAML
// program in a folder, through the plain CLI, as a user's installation would: no provider yet,
// only config, variables and outputs. It proves the toolchain that YAML programs of the resource
// plugin will run on, and that project-level `config:` reaches the program with CLI v3.248.
const PROJECT = `name: toolchain-yaml
runtime: yaml
backend:
  url: file://BACKEND
config:
  greeting:
    type: string
    default: hello
  audience:
    type: string
  replicas:
    type: integer
    default: 2
  apiToken:
    type: string
    secret: true
variables:
  message: \${greeting}, \${audience}
outputs:
  message: \${message}
  replicas: \${replicas}
  token: \${apiToken}
`;

describe("a Pulumi YAML project through pulumi-language-yaml", { timeout: ENGINE_TIMEOUT }, () => {
  let base: string;
  let dir: string;
  let backend: string;
  let env: Record<string, string | undefined>;
  const pulumi = (...args: string[]) => run("pulumi", [...args, "--non-interactive", "--cwd", dir], { env });

  beforeAll(async () => {
    base = mkdtempSync(path.join(tmpdir(), "irv-yaml-"));
    dir = path.join(base, "project");
    backend = path.join(base, "backend");
    for (const d of [dir, backend]) mkdirSync(d);
    writeFileSync(path.join(dir, "Pulumi.yaml"), PROJECT.replace("BACKEND", backend));
    env = { ...process.env, ...pulumiEnv(path.join(base, "home")) };
    await pulumi("stack", "init", "dev");
    await pulumi("config", "set", "audience", "world");
    await pulumi("config", "set", "--secret", "apiToken", "tok-3f9a1c");
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("runs on the host built beside the CLI, at the version ensure-pulumi records", async () => {
    const host = yamlHost();
    const about = JSON.parse((await pulumi("about", "--json")).stdout);
    expect(about.plugins).toContainEqual({ name: "yaml", kind: "language", version: host.version.replace(/^v/, "") });
  });

  it("previews, applies, shows a config change as an output change, and destroys", async () => {
    const preview = await pulumi("preview", "--json");
    expect(JSON.parse(preview.stdout).changeSummary).toEqual({ create: 1 });
    // Found beside the CLI, not picked up from PATH (which the engine warns about).
    expect(preview.stderr).not.toContain("from $PATH");

    await pulumi("up", "--yes", "--skip-preview");
    const outputs = JSON.parse((await pulumi("stack", "output", "--json")).stdout);
    // The default of `greeting` and the stack's `audience`: project-level `config:` is read.
    expect(outputs).toEqual({ message: "hello, world", replicas: 2, token: "[secret]" });
    const shown = JSON.parse((await pulumi("stack", "output", "--json", "--show-secrets")).stdout);
    expect(shown.token).toBe("tok-3f9a1c");
    const state = readFileSync(path.join(backend, ".pulumi", "stacks", "toolchain-yaml", "dev.json"), "utf8");
    expect(state).toContain('"token"');
    expect(state).not.toContain("tok-3f9a1c");

    await pulumi("config", "set", "audience", "team");
    expect((await pulumi("preview", "--diff")).stdout).toMatch(/~ message\s*: "hello, world" => "hello, team"/);
    await pulumi("up", "--yes", "--skip-preview");
    expect(JSON.parse((await pulumi("stack", "output", "--json")).stdout).message).toBe("hello, team");
    expect(JSON.parse((await pulumi("preview", "--json", "--expect-no-changes")).stdout).changeSummary).toEqual({ same: 1 });

    await pulumi("destroy", "--yes", "--skip-preview");
    expect(JSON.parse((await pulumi("stack", "output", "--json")).stdout)).toEqual({});
  });

  it("refuses a config value of the wrong type, naming the key", async () => {
    await pulumi("config", "set", "replicas", "many");
    await expect(pulumi("preview")).rejects.toThrow(/configuration key 'replicas' must be of type 'integer'/);
    await pulumi("config", "rm", "replicas");
  });
});
