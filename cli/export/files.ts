/** The project files around a generated program: Pulumi.yaml, package.json, tsconfig.json, README.md. */
import { code } from "../format/markdown";
import { shellComment, shellWord } from "../format/shell";
import { yamlString } from "../format/yaml";
import type { GenerateOptions, RequiredSecret } from "./options";
import type { OrgSnapshot } from "./snapshot";

/** `Pulumi.yaml`: a TypeScript Node.js project. */
export function pulumiYaml(name: string, snap: OrgSnapshot): string {
  return [
    `name: ${name}`,
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    typescript: true",
    `description: ${yamlString(`Group ${JSON.stringify(snap.root.name)} (${snap.root.uid}) on the IRV platform, exported by irv export`)}`,
    "",
  ].join("\n");
}

/** `package.json`: the SDK and pulumi-irv as dependencies, TypeScript for the program. */
export function packageJson(name: string, opts: GenerateOptions): string {
  return `${JSON.stringify(
    {
      name,
      private: true,
      main: "index.ts",
      dependencies: { "@pulumi/pulumi": opts.pulumiVersion, "pulumi-irv": opts.irvVersion },
      devDependencies: { "@types/node": "^20", typescript: "~5.9" },
      ...(opts.overrides ? { overrides: opts.overrides } : {}),
    },
    null,
    2,
  )}\n`;
}

/** `tsconfig.json`: strict CommonJS, as Pulumi programs need. */
export const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", esModuleInterop: true, skipLibCheck: true },
    files: ["index.ts", "program.ts"],
  },
  null,
  2,
)}\n`;

/** `README.md`: how to take the org over, which secrets to set, what is and is not managed. */
export function readme(name: string, snap: OrgSnapshot, secrets: RequiredSecret[], groupKey: string, count: number): string {
  const secretLines = secrets.length
    ? [
        "",
        "The API never returns client secrets, so set these before the first `pulumi up` (adopting an",
        "identity provider writes its secret):",
        "",
        ...secrets.map((s) => `    ${setSecretCommand(s)}`),
        "",
        "Then:",
        "",
      ]
    : [];
  return [
    `# ${name}`,
    "",
    `Group ${code(snap.root.name)} (${code(snap.root.uid)}) as code: ${count} resources, exported from ${code(snap.apiUrl)} by \`irv export\`.`,
    "",
    "## Take it over",
    "",
    "    npm install",
    "    pulumi stack init <stack>",
    `    pulumi config set irv:apiUrl ${shellWord(snap.apiUrl)}`,
    "    pulumi config set --secret irv:token <token>   # or irv:identity + irv:identityToken",
    ...secretLines,
    "    pulumi up        # adopts every resource: nothing is created, nothing is replaced",
    "    pulumi preview   # no changes",
    "",
    "Every resource carries `adoptUid`, its live uid: `pulumi up` checks that it exists and records",
    "it in the stack instead of creating it.",
    "",
    `The exported group itself is not managed: the program reads its uid from the ${code(groupKey)} config`,
    "value (defaulting to the exported uid), so `pulumi destroy` removes what is inside it and never the",
    "group. Group invites are not exported: they are short-lived and their codes are secret.",
    "",
  ].join("\n");
}

/** The command that sets a secret the program needs, with what it is as a comment (README and `irv export` print it). */
export function setSecretCommand(s: RequiredSecret): string {
  return `pulumi config set --secret ${shellWord(s.key)} <value>   # ${shellComment(s.about)}`;
}
