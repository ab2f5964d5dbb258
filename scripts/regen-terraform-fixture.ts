/**
 * Regenerates test/plugin/fixtures/terraform/terraform.tfstate: OpenTofu applies the fixture's
 * main.tf with the platform's Terraform provider (both built by scripts/ensure-terraform) against
 * a fresh in-process irv-server, plans again to show that what irv-server reads back is what the
 * provider wrote (no change planned), and the state it wrote is kept as written; then it updates
 * the image repo and tag (UPDATES) and plans again, which writes nothing. The provider is
 * pointed at the server by a providers.tf added beside a copy of main.tf (console_api, no login
 * flow: the admin token sits in the provider's token cache, as bench/terraform.ts does).
 *
 *   npm run build && node dist/scripts/regen-terraform-fixture.js
 *
 * Not part of `npm test`: the first run of scripts/ensure-terraform builds tofu and the provider.
 * The uids, times and the invite's code in the state are those of that throwaway server.
 */
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startServer } from "../server";
import { seedDeployer } from "../server/sample/deployer";
import { fillTokenCache } from "../bench/bridged";

/**
 * After the state is written, main.tf's image repo and tag are changed in the copy and applied
 * again, so the provider's UpdateRepo and UpdateTag (registry v1) run against irv-server too and
 * read back as written. Each replacement must match main.tf once.
 */
const UPDATES: [string, string][] = [
  [`description = "Our app's images"`, `description = "Our app's images, renamed tag"\n  readme      = "# App"`],
  [`tier        = "APPLICATION"`, `tier        = "BASE"`],
  [`name       = "latest"\n  bundles    = ["application"]\n  deprecated = false`, `name       = "stable"\n  bundles    = ["base"]\n  deprecated = true`],
];

/** `tf` with each of UPDATES made; throws naming a replacement that does not match once. */
function updated(tf: string): string {
  for (const [from, to] of UPDATES) {
    if (tf.split(from).length !== 2)
      throw new Error(`main.tf no longer holds ${JSON.stringify(from)} once: update UPDATES in scripts/regen-terraform-fixture.ts`);
    tf = tf.replace(from, to);
  }
  return tf;
}

/** The package root: dist/scripts/ is two levels below it. */
const root = path.resolve(__dirname, "..", "..");
const fixtures = path.join(root, "test", "plugin", "fixtures", "terraform");

async function main(): Promise<void> {
  const bin = execFileSync(path.join(root, "scripts", "ensure-terraform"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  // The admin creates the repo's deployment: a custom role grants it what no built-in role does.
  const server = await startServer({ seed: seedDeployer() });
  const dir = mkdtempSync(path.join(tmpdir(), "irv-tffixture-"));
  try {
    copyFileSync(path.join(fixtures, "main.tf"), path.join(dir, "main.tf"));
    writeFileSync(path.join(dir, "providers.tf"), `provider "chainguard" {\n  console_api = "${server.url}"\n  login_options {\n    disabled = true\n  }\n}\n`);
    // What main.tf reads and does not make: the deployer a `chainguard_identity` data source looks up.
    const res = await fetch(`${server.url}/iam/v2beta1/identities/${server.organization}`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "deployer",
        claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/deploy:ref:refs/heads/main" },
      }),
    });
    if (!res.ok) throw new Error(`creating the deployer identity: ${res.status} ${await res.text()}`);
    const cache = path.join(dir, "cache");
    fillTokenCache(cache, server.url, server.token);
    const env = { ...process.env, TF_CLI_CONFIG_FILE: path.join(bin, "tofu.rc"), XDG_CACHE_HOME: cache, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
    // Asynchronous: the server answering the provider runs in this process's event loop.
    const tofu = (args: string[]) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(path.join(bin, "tofu"), args, { cwd: dir, env, stdio: ["ignore", "inherit", "inherit"] });
        child.on("error", reject);
        child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`tofu ${args[0]} exited ${code}${code === 2 ? " (changes planned)" : ""}`))));
      });
    await tofu(["init", "-input=false", "-no-color"]);
    const vars = [`-var=organization=${server.organization}`, "-var=sso_client_secret=example-sso-client-secret"];
    await tofu(["apply", "-auto-approve", "-input=false", "-no-color", ...vars]);
    // Each resource read back through irv-server as the provider wrote it: nothing left to change.
    await tofu(["plan", "-detailed-exitcode", "-input=false", "-no-color", ...vars]);
    writeFileSync(path.join(fixtures, "terraform.tfstate"), readFileSync(path.join(dir, "terraform.tfstate")));
    console.log(`wrote ${path.relative(root, path.join(fixtures, "terraform.tfstate"))}`);
    writeFileSync(path.join(dir, "main.tf"), updated(readFileSync(path.join(dir, "main.tf"), "utf8")));
    await tofu(["apply", "-auto-approve", "-input=false", "-no-color", ...vars]);
    await tofu(["plan", "-detailed-exitcode", "-input=false", "-no-color", ...vars]);
    console.log("updated the image repo and tag, and read them back unchanged");
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
