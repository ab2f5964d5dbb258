/**
 * Regenerates the SDKs of the resource plugin from its schema, with Pulumi's own code generators
 * (scripts/gen-sdks), into the folders they are committed in, and the schema itself:
 *
 *   schema.json    the package schema they are generated from (what GetSchema answers)
 *   sdk/nodejs     TypeScript (`pulumi-irv/plugin`, built into this package)
 *   sdk/go         Go: the module github.com/pulumi-irv/pulumi-irv/sdk/go (packages sdk/go/irv/...)
 *   sdk/python     Python: the package pulumi_irv (setup.py)
 *   sdk/dotnet     .NET: the project PulumiIrv.Irv.csproj
 *
 *   npm run gen:plugin-sdk                       # rewrites all five
 *   node dist/scripts/gen-plugin-sdk.js <root>   # writes them under <root> instead
 *
 * Run it after any change to the schema (kinds, fields, functions, types) and commit the result;
 * test/plugin/plugin-sdk.test.ts fails while any of them differs from what this writes. They are
 * committed so that no user needs Go or this generator: the TypeScript one ships in the npm
 * package, the others are used from a clone (docs/installation-configuration.md). Generation
 * reads nothing from the network: the .NET SDK embeds plugin/logo.png.
 */
import { execFile } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { packageSchema } from "../plugin/schema";

/** The repository root: the folder above this file (or above dist/) that holds scripts/gen-sdks. */
export const ROOT: string = (() => {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir))
    if (existsSync(path.join(dir, "scripts", "gen-sdks")) && existsSync(path.join(dir, "package.json"))) return dir;
  throw new Error("gen-plugin-sdk: cannot find the repository root (scripts/gen-sdks)");
})();

/** Where each language's SDK lives, relative to the repository root. */
export const SDK_DIRS = {
  nodejs: path.join("sdk", "nodejs"),
  go: path.join("sdk", "go"),
  python: path.join("sdk", "python"),
  dotnet: path.join("sdk", "dotnet"),
} as const;

/** Where the package schema is committed, relative to the repository root. */
export const SCHEMA_FILE = "schema.json";

/** Where the TypeScript SDK lives in the repository. */
export const SDK_DIR = path.join(ROOT, SDK_DIRS.nodejs);

/** The package logo the .NET SDK embeds (its generator would otherwise download Pulumi's). */
export const LOGO = path.join(ROOT, "plugin", "logo.png");

/** The generator's package files that the TypeScript SDK does not ship: pulumi-irv's own package.json and tsconfig build it. */
const NOT_SHIPPED = new Set(["package.json", "tsconfig.json", "README.md"]);

/**
 * The generated TypeScript SDK reads its version from a package.json beside it, which does not
 * exist inside this package; pulumi-irv's own package.json holds the same version (the schema's,
 * see plugin/schema.ts VERSION), and a package can always require itself by name.
 */
const VERSION_FROM = "require('./package.json').version";
const VERSION_TO = 'require("pulumi-irv/package.json").version';

/**
 * The generated go.mod asks for Pulumi's Go SDK v3.30.0, far older than the code generated here
 * needs; it asks for the version of the generator (the CLI's, which is @pulumi/pulumi's) instead,
 * so that a program's `go mod tidy` picks one the SDK builds with.
 */
const GO_PULUMI_FROM = "require github.com/pulumi/pulumi/sdk/v3 v3.30.0";
const goPulumiTo = () => `require github.com/pulumi/pulumi/sdk/v3 v${(require("@pulumi/pulumi/package.json") as { version: string }).version}`;

const README = `# pulumi-irv/plugin (generated)

The TypeScript SDK of the \`irv\` resource plugin (\`pulumi-resource-irv\`), generated from the
plugin's schema by \`npm run gen:plugin-sdk\`. Do not edit these files: change the kinds or the
schema (plugin/schema.ts) and regenerate. See "Dynamic or plugin" in the package README.
`;

/**
 * Writes every SDK of the current schema (`nodejs`, `go`, `python`, `dotnet`) as the
 * generators write them into `work/out` through scripts/gen-sdks, with the schema beside them;
 * returns `work/out`. The schema as served, but for its logo, which the .NET generator embeds
 * from `logoUrl`: plugin/logo.png, copied beside the schema.
 */
export async function generateSdks(work: string): Promise<string> {
  const gen = async (schema: object, name: string, out: string) => {
    writeFileSync(path.join(work, name), JSON.stringify({ ...schema, logoUrl: "logo.png" }));
    await promisify(execFile)(path.join(ROOT, "scripts", "gen-sdks"), [path.join(work, name), out], { maxBuffer: 16 << 20 });
  };
  copyFileSync(LOGO, path.join(work, "logo.png"));
  const out = path.join(work, "out");
  await gen(packageSchema(), "schema.json", out);
  // TypeScript keeps the enums' unions (a wrong capability does not compile, naming the values);
  // the other languages take the open strings the schema serves.
  const typed = path.join(work, "typed");
  await gen(closedEnums(packageSchema()), "typed-schema.json", typed);
  rmSync(path.join(out, "nodejs"), { recursive: true, force: true });
  cpSync(path.join(typed, "nodejs"), path.join(out, "nodejs"), { recursive: true });
  return out;
}

/**
 * The schema with every open enum property (`{type: "string", oneOf: [string, enum]}`, see
 * plugin/types.ts) closed to its enum: what the TypeScript SDK is generated from.
 */
export function closedEnums<T>(schema: T): T {
  const close = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(close);
    if (!v || typeof v !== "object") return v;
    const o = v as Record<string, unknown>;
    const oneOf = o.oneOf as { $ref?: string }[] | undefined;
    const ref = oneOf?.find((t) => t.$ref)?.$ref;
    if (ref) {
      const { oneOf: _o, type: _t, ...rest } = o;
      return { ...(close(rest) as object), $ref: ref };
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, close(x)]));
  };
  return close(schema) as T;
}

/** Replaces `from` with `to` in `file`, failing when the generator no longer writes `from`. */
function patch(file: string, from: string, to: string): void {
  const text = readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`gen-plugin-sdk: ${file} no longer holds ${from}; update scripts/gen-plugin-sdk.ts`);
  writeFileSync(file, text.replace(from, to));
}

/** Writes the current schema, and its four SDKs into their folders, under `root` (each replaced). */
export async function generatePluginSdks(root: string = ROOT): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), "irv-gen-plugin-sdk-"));
  try {
    writeFileSync(path.join(root, SCHEMA_FILE), `${JSON.stringify(packageSchema(), null, 2)}\n`);
    const generated = await generateSdks(work);
    for (const [language, dir] of Object.entries(SDK_DIRS)) {
      const from = path.join(generated, language);
      const to = path.join(root, dir);
      rmSync(to, { recursive: true, force: true });
      mkdirSync(path.dirname(to), { recursive: true });
      cpSync(from, to, { recursive: true, filter: (src) => language !== "nodejs" || !NOT_SHIPPED.has(path.relative(from, src)) });
    }
    const ts = path.join(root, SDK_DIRS.nodejs);
    patch(path.join(ts, "utilities.ts"), VERSION_FROM, VERSION_TO);
    writeFileSync(path.join(ts, "README.md"), README);
    patch(path.join(root, SDK_DIRS.go, "go.mod"), GO_PULUMI_FROM, goPulumiTo());
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Every file under `dir`, as paths relative to it, sorted. */
export function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

if (require.main === module) {
  const root = process.argv[2] ? path.resolve(process.argv[2]) : ROOT;
  generatePluginSdks(root).then(
    () => {
      process.stdout.write(`gen-plugin-sdk: wrote ${path.relative(process.cwd(), path.join(root, SCHEMA_FILE))}\n`);
      for (const dir of Object.values(SDK_DIRS))
        process.stdout.write(
          `gen-plugin-sdk: wrote ${path.relative(process.cwd(), path.join(root, dir)) || "."} (${filesUnder(path.join(root, dir)).length} files)\n`,
        );
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
