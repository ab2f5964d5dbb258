/**
 * `npm start`: the org example (examples/org) through the real Pulumi engine against an embedded
 * irv-server: start the server, preview, up, print the outputs, stop. State lives in a temp file
 * backend that is removed afterwards. Ends with how to point the same program at a real API.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { startServer } from "../server";
import { program } from "../examples/org";

/** The package root: dist/scripts/ is two levels below it. */
const root = path.resolve(__dirname, "..", "..");

async function main(): Promise<void> {
  const bin = execFileSync(path.join(root, "scripts", "ensure-pulumi"), {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  const server = await startServer();
  const base = mkdtempSync(path.join(tmpdir(), "irv-start-"));
  try {
    heading(`irv-server listening on ${server.url} (organization ${server.organization})`);
    const stack = await orgStack(bin, base, server);

    heading("pulumi preview");
    const preview = await stack.preview({ onOutput: print });
    heading("pulumi up");
    const up = await stack.up({ onOutput: print });
    heading("result");
    console.log(`planned: ${JSON.stringify(preview.changeSummary)}`);
    console.log(`applied: ${JSON.stringify(up.summary.resourceChanges)}`);
    console.log(`requests sent to the API: ${server.requests.length}`);
    console.log(`outputs: ${Object.keys(up.outputs).join(", ")} (values above)`);
  } finally {
    await server.close();
    rmSync(base, { recursive: true, force: true });
  }
  heading("next: the same program against a real API");
  console.log(NEXT_STEPS(bin));
}

/** A stack "dev" running the org example inline, on a file backend and PULUMI_HOME under `base`. */
async function orgStack(bin: string, base: string, server: { url: string; authUrl: string; organization: string; token: string }) {
  const workDir = path.join(base, "work");
  const backendDir = path.join(base, "backend");
  const pulumiHome = path.join(base, "home");
  for (const dir of [workDir, backendDir, pulumiHome]) mkdirSync(dir, { recursive: true });
  // The provider host runs in the work dir and resolves the provider shim's requires from there.
  symlinkSync(nodeModulesDir(), path.join(workDir, "node_modules"), "dir");

  const stack = await LocalWorkspace.createStack(
    { stackName: "dev", projectName: "pulumi-irv", program: () => program({ organization: server.organization }) },
    {
      workDir,
      pulumiHome,
      pulumiCommand: await PulumiCommand.get({ root: path.dirname(bin), skipVersionCheck: true }),
      envVars: {
        PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
        PULUMI_CONFIG_PASSPHRASE: "npm-start",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      },
      projectSettings: { name: "pulumi-irv", runtime: "nodejs", backend: { url: `file://${backendDir}` } },
    },
  );
  await stack.setAllConfig({
    "irv:apiUrl": { value: server.url },
    "irv:authUrl": { value: server.authUrl },
    "irv:token": { value: server.token, secret: true },
  });
  return stack;
}

/** The node_modules directory holding @pulumi/pulumi and (in a checkout, via link-self) pulumi-irv. */
function nodeModulesDir(): string {
  return path.resolve(path.dirname(require.resolve("@pulumi/pulumi/package.json")), "..", "..");
}

function heading(text: string): void {
  console.log(`\n== ${text}\n`);
}

function print(text: string): void {
  process.stdout.write(text);
}

const NEXT_STEPS = (bin: string) => `The program you just ran is examples/org; the repository root is a Pulumi project that runs it
(Pulumi.yaml -> dist/examples/org/main.js). To apply it to a real API:

  # the pulumi CLI npm start used:
  export PATH="${bin}:$PATH"
  export IRV_API_URL=https://<api host>           # the API base URL
  export IRV_ORGANIZATION=<root group uid>        # where the org is created
  # then one way to authenticate:
  export IRV_TOKEN=<API token>                    # a static token, or
  export IRV_AUTH_URL=https://<issuer host>       #   workload identity: exchange an OIDC token
  export IRV_IDENTITY=<identity uid>              #   for an identity (see examples/ci-identity)
  export IRV_IDENTITY_TOKEN=<OIDC token or a path to a file holding one>

  pulumi login --local                            # or your own backend
  pulumi stack init dev
  pulumi preview && pulumi up                     # in the repository root

Prefer stack config to the environment? The same settings are irv:apiUrl, irv:authUrl, irv:token,
irv:identity, irv:identityToken and organization; set tokens with --secret, e.g.
  pulumi config set --secret irv:token <API token>`;

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
