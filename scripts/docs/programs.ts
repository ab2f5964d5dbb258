/**
 * The example programs of the reference pages, in TypeScript and Pulumi YAML, from the typed
 * examples (examples.ts). A string `${name}` is the stack config value `name`.
 */
import { CONFIG, type FunctionExample, type ResourceExample } from "./examples";
import { moduleOf, shortName } from "./schema";

const CONFIG_REF = /^\$\{([A-Za-z][A-Za-z0-9]*)\}$/;

/** The config value a string stands for, if it is `${name}`; throws on an undeclared name. */
export function configRef(value: unknown): string | undefined {
  const name = typeof value === "string" ? CONFIG_REF.exec(value)?.[1] : undefined;
  if (name !== undefined && !CONFIG[name]) throw new Error(`docs example: \${${name}} is not in CONFIG (scripts/docs/examples.ts)`);
  return name;
}

/** `value` with every `${name}` replaced by the config value's stand-in: what the example is checked as. */
export function withStandIns(value: unknown): unknown {
  const name = configRef(value);
  if (name) return CONFIG[name].standIn;
  if (Array.isArray(value)) return value.map(withStandIns);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withStandIns(v)]));
  return value;
}

/** The config names a value uses, in order. */
function configNames(value: unknown, into: string[] = []): string[] {
  const name = configRef(value);
  if (name && !into.includes(name)) into.push(name);
  if (Array.isArray(value)) for (const v of value) configNames(v, into);
  else if (value && typeof value === "object") for (const v of Object.values(value)) configNames(v, into);
  return into;
}

/** `release-ci` -> `releaseCi`. */
function variableOf(name: string): string {
  return name.replace(/[-_ ]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function tsValue(value: unknown, indent: string): string {
  const name = configRef(value);
  if (name) return `config.${CONFIG[name].secret ? "requireSecret" : "require"}(${JSON.stringify(name)})`;
  if (Array.isArray(value)) return `[${value.map((v) => tsValue(v, indent)).join(", ")}]`;
  if (value && typeof value === "object") {
    const inner = `${indent}  `;
    const entries = Object.entries(value).map(([k, v]) => `${inner}${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${tsValue(v, inner)},`);
    const oneLine = `{ ${Object.entries(value)
      .map(([k, v]) => `${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${tsValue(v, inner)}`)
      .join(", ")} }`;
    return oneLine.length + indent.length <= 90 ? oneLine : `{\n${entries.join("\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** A YAML scalar: plain where YAML reads it back as the same string, else double-quoted. */
function yamlScalar(value: unknown): string {
  if (typeof value !== "string") return JSON.stringify(value);
  if (configRef(value)) return value;
  const plain =
    /^[A-Za-z0-9/.][A-Za-z0-9 _./@+:-]*$/.test(value) &&
    !/: |:$| #/.test(value) &&
    !/^(true|false|null|yes|no|on|off|~|[-+]?[0-9.]+)$/i.test(value) &&
    !value.endsWith(" ");
  return plain ? value : JSON.stringify(value);
}

/** `key: value` lines of a YAML block mapping, at `indent`. */
function yamlEntries(obj: Record<string, unknown>, indent: string): string[] {
  return Object.entries(obj).flatMap(([k, v]) => {
    if (Array.isArray(v)) {
      if (v.every((x) => x === null || typeof x !== "object")) return [`${indent}${k}: [${v.map(yamlScalar).join(", ")}]`];
      return [
        `${indent}${k}:`,
        ...v.flatMap((x) => yamlEntries(x as Record<string, unknown>, `${indent}    `).map((l, i) => (i === 0 ? `${indent}  - ${l.trimStart()}` : l))),
      ];
    }
    if (v && typeof v === "object") return [`${indent}${k}:`, ...yamlEntries(v as Record<string, unknown>, `${indent}  `)];
    return [`${indent}${k}: ${yamlScalar(v)}`];
  });
}

function tsHeader(names: string[]): string[] {
  return [
    'import * as pulumi from "@pulumi/pulumi";',
    'import * as irv from "pulumi-irv";',
    "",
    ...(names.length ? ["const config = new pulumi.Config();"] : []),
  ];
}

function yamlConfig(names: string[]): string[] {
  return names.length ? ["config:", ...names.flatMap((n) => [`  ${n}:`, "    type: string", ...(CONFIG[n].secret ? ["    secret: true"] : [])])] : [];
}

/** The TypeScript and YAML programs declaring one resource and exporting its uid. */
export function resourcePrograms(token: string, example: ResourceExample): { ts: string; yaml: string } {
  const names = configNames(example.inputs);
  const v = variableOf(example.name);
  const ts = [
    ...tsHeader(names),
    `const ${v} = new irv.${moduleOf(token)}.${shortName(token)}(${JSON.stringify(example.name)}, ${tsValue(example.inputs, "")});`,
    "",
    `export const ${v}Uid = ${v}.uid;`,
  ];
  const yaml = [
    ...yamlConfig(names),
    "resources:",
    `  ${example.name}:`,
    `    type: ${token}`,
    "    properties:",
    ...yamlEntries(example.inputs as Record<string, unknown>, "      "),
    "outputs:",
    `  ${v}Uid: \${${example.name}.uid}`,
  ];
  return { ts: ts.join("\n"), yaml: yaml.join("\n") };
}

/** The TypeScript and YAML programs calling one function and exporting one result property. */
export function functionPrograms(token: string, example: FunctionExample): { ts: string; yaml: string } {
  const names = configNames(example.args);
  const fn = shortName(token);
  const v = "result";
  const ts = [
    ...tsHeader(names),
    `const ${v} = irv.${moduleOf(token)}.${fn}Output(${tsValue(example.args, "")});`,
    "",
    `export const ${example.show} = ${v}.${example.show};`,
  ];
  const yaml = [
    ...yamlConfig(names),
    "variables:",
    `  ${v}:`,
    "    fn::invoke:",
    `      function: ${token}`,
    "      arguments:",
    ...yamlEntries(example.args, "        "),
    "outputs:",
    `  ${example.show}: \${${v}.${example.show}}`,
  ];
  return { ts: ts.join("\n"), yaml: yaml.join("\n") };
}
