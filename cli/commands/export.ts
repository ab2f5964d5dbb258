import * as path from "node:path";
import { readSettings } from "../../client/config";
import { clientFor } from "../../client/session";
import { parseArgs } from "node:util";
import { EXIT, HELP_OPTION, parsing, UsageError, type Command } from "../command";
import { summaryOf } from "./list";
import { importCommand, packageSpec, runExport, setSecretCommand } from "../export";
import { openStack } from "../stack";

/** `irv export`: turn a live group subtree into a Pulumi program that adopts it. */
export const exportCommand: Command = {
  name: "export",
  summary: summaryOf("export"),
  help: `Usage: irv export --group UID [--out DIR] [--import-file FILE] [--api-url URL] [--name NAME] [--stack S --cwd DIR]

Reads the group's subtree through the API (groups, identities, custom roles, role bindings,
identity providers, account associations) and writes a TypeScript Pulumi program declaring all
of it, every resource with adoptUid set, so that \`pulumi up\` takes the org over without
creating or replacing anything and the next preview shows no changes. References become code
(a binding's identity is \`ci.uid\`). The exported group itself is referenced through the
config value \`groupUid\` (default: its uid), never managed. Client secrets, which the API never
returns, become \`config.requireSecret(...)\` (listed in the generated README). Progress goes to
stderr.

Files written: program.ts (exports program()), index.ts, Pulumi.yaml, package.json,
tsconfig.json, README.md.

With --import-file, the same resources also go to FILE as the document \`pulumi import --file\`
reads: the resource plugin's types (irv:iam:Group, ...), each resource's uid as its id, and the
program's names (its logical name as the Pulumi name, its variable as the name in the generated
code). \`pulumi import --file FILE --out <code>\` then takes the org over in any language through
the plugin, with no adoptUid. The exported group's account association, whose uid is the
group's, is left out of FILE (\`pulumi import\` would take the group's uid everywhere for a
reference to it): irv prints the command that imports it by itself.

Options:
  -g, --group UID    the group to export (required)
  -o, --out DIR      output folder (default: ./<NAME> with --name, else ./irv-export)
      --import-file FILE
                     also write a \`pulumi import --file\` document of the same resources
      --name NAME    Pulumi project name (default: the group's name)
      --api-url URL  the API base URL (default: irv:apiUrl, then IRV_API_URL)
      --package-spec SPEC
                     the pulumi-irv dependency of the generated package.json: a version or
                     range (0.1.0), a tarball or folder path (file:<absolute path> is written),
                     or any npm spec. Default: exactly what irv runs from: file:<this
                     checkout>, or for an installed copy what its project's lockfile says it was
                     installed from (that tarball or folder, or the exact registry version);
                     with no such record, irv asks for this option
  -s, --stack S      read irv:* config (apiUrl, token, identity, ...) from this stack
      --cwd DIR      the Pulumi project folder of --stack (default: the current directory)
  -h, --help         show this help

Credentials, as for the provider: irv:token / IRV_TOKEN, or irv:identity + irv:identityToken /
IRV_IDENTITY + IRV_IDENTITY_TOKEN (STS exchange at irv:authUrl / IRV_AUTH_URL), else the
\`irv auth login\` (whose API URL is used when none is set).

Exit codes: 0 written, 1 error.`,
  async run(argv, io) {
    const { values } = parsing("export", () =>
      parseArgs({
        args: argv,
        strict: true,
        options: {
          ...HELP_OPTION,
          group: { type: "string", short: "g" },
          out: { type: "string", short: "o" },
          "import-file": { type: "string" },
          name: { type: "string" },
          "api-url": { type: "string" },
          "package-spec": { type: "string" },
          stack: { type: "string", short: "s" },
          cwd: { type: "string" },
        },
      }),
    );
    if (values.help) return (io.out(this.help), EXIT.ok);
    if (!values.group) throw new UsageError("--group <uid> is required\nRun `irv export --help` for usage.");
    const config: Record<string, string> = {};
    if (values.stack) {
      const stack = await openStack({ stack: values.stack, cwd: values.cwd });
      for (const [key, v] of Object.entries(await stack.getAllConfig())) config[key] = v.value;
    }
    if (values["api-url"]) config["irv:apiUrl"] = values["api-url"];
    const client = clientFor(readSettings((key) => config[key]));
    const outDir = path.resolve(values.out ?? values.name ?? "irv-export");
    const result = await runExport({
      client,
      groupUid: values.group,
      outDir,
      projectName: values.name,
      irvVersion: packageSpec(values["package-spec"]),
      importFile: values["import-file"] && path.resolve(values["import-file"]),
      progress: (c, read, total, done) => io.err(`  ${c}: ${read} of ${total}${done ? " (done)" : ""}`),
    });
    const counts = Object.entries(result.counts)
      .map(([c, n]) => `${n} ${c}`)
      .join(", ");
    io.err(`Read ${counts} in ${(result.durationMs / 1000).toFixed(1)}s.`);
    io.out(`Wrote a program declaring ${result.resources} resources to ${outDir}`);
    if (values["import-file"]) {
      io.out(`Wrote their \`pulumi import --file\` document to ${path.resolve(values["import-file"])}`);
      if (result.importsAlone.length) {
        io.out("Import the exported group's account association by itself (its uid is the group's, which the document does");
        io.out("not import: with the others, `pulumi import` would write every use of that uid as a reference to it):");
        for (const s of result.importsAlone) io.out(`  ${importCommand(s)}`);
      }
    }
    if (result.secrets.length) {
      io.out("Set these secrets before `pulumi up` (the API never returns them):");
      for (const s of result.secrets) io.out(`  ${setSecretCommand(s)}`);
    }
    return EXIT.ok;
  },
};
