/**
 * A Pulumi YAML project in a temp folder for engine tests through the plain CLI and the YAML
 * language host: it finds `pulumi-resource-irv` through `plugins.providers[].path` (this
 * checkout's bin/), keeps its stack in a file backend beside it, and takes the provider's
 * settings from the stack's `irv:*` config (no IRV_* variables).
 *
 *   const p = await yamlProject("imports", server);
 *   await p.pulumi("import", "--file", file, "--yes");
 *   p.write(resourcesYaml);
 *   expect((await p.previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 3 });
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pulumiEnv, repoRoot } from "./engine";
import { run } from "./toolchain";

import type { StateResource } from "../../policy/access";

/** One resource in a stack's state, as `pulumi stack export` gives it. */
export type { StateResource };

/** A YAML project with one stack. */
export interface YamlProject {
  /** The project folder. */
  dir: string;
  /** The temp folder holding the project, its backend and its PULUMI_HOME. */
  base: string;
  /** Runs `pulumi <args> --non-interactive --cwd <dir>` and returns stdout (throws with both streams on failure). */
  pulumi(...args: string[]): Promise<string>;
  /** `pulumi preview --json <args>`, parsed. */
  previewJson(...args: string[]): Promise<any>;
  /** Rewrites Pulumi.yaml: the header, then `config` and `resources` as given (YAML text, indented two spaces). */
  write(resources: string, config?: string): void;
  /** The stack's resources from `pulumi stack export`. */
  resources(): Promise<StateResource[]>;
  /** The stack's state file as text (to look for plaintext secrets). */
  stateText(): string;
  dispose(): void;
}

/** Makes the project `name` with stack `dev`, configured for `server`. */
export async function yamlProject(name: string, server: { url: string; token: string }): Promise<YamlProject> {
  const base = mkdtempSync(path.join(tmpdir(), `irv-${name}-`));
  const dir = path.join(base, "project");
  const backend = path.join(base, "backend");
  for (const d of [dir, backend]) mkdirSync(d);
  const env = { ...process.env, IRV_API_URL: "", IRV_TOKEN: "", ...pulumiEnv(path.join(base, "home")) };
  const header = [
    `name: ${name}`,
    "runtime: yaml",
    `backend:\n  url: file://${backend}`,
    `plugins:\n  providers:\n    - name: irv\n      path: ${path.join(repoRoot, "bin")}`,
  ].join("\n");
  const write = (resources: string, config?: string) =>
    writeFileSync(path.join(dir, "Pulumi.yaml"), `${header}\n${config ? `config:\n${config}` : ""}resources:${resources.trim() ? `\n${resources}` : " {}\n"}`);
  const pulumi = async (...args: string[]) => (await run("pulumi", [...args, "--non-interactive", "--cwd", dir], { env })).stdout;
  write("");
  await pulumi("stack", "init", "dev");
  await pulumi("config", "set", "irv:apiUrl", server.url);
  await pulumi("config", "set", "--secret", "irv:token", server.token);
  return {
    dir,
    base,
    pulumi,
    previewJson: async (...args) => JSON.parse(await pulumi("preview", "--json", ...args)),
    write,
    resources: async () => JSON.parse(await pulumi("stack", "export")).deployment.resources,
    stateText: () => readFileSync(path.join(backend, ".pulumi", "stacks", name, "dev.json"), "utf8"),
    dispose: () => rmSync(base, { recursive: true, force: true }),
  };
}
