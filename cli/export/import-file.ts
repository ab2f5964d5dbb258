/**
 * The `pulumi import --file` document of an export: every resource the generated program
 * declares, by the resource plugin's type token, with the program's own names (its variable as
 * the name of the generated code, its logical name as the resource's Pulumi name) and its live
 * uid as the id. The exported group itself is not in it, as it is not in the program.
 *
 * Nor is anything whose uid is the exported group's (its account association): the code
 * `pulumi import` writes turns each value that equals the id of exactly one resource of the same
 * command into a reference to that resource, so with the association and without its group,
 * every `groupUid` of the group's children would become `${<association>.id}`: the same value, a
 * wrong dependency graph. `irv export` prints the command that imports it by itself instead,
 * where its own uid stays a literal (a resource never refers to itself).
 */
import { tokenOf, type KindDefinition } from "../../api/kinds";
import { shellWord } from "../format/shell";

/** One entry of `resources` in the file `pulumi import --file` reads. */
export interface ImportSpec {
  /** The plugin's type token: `irv:iam:Group`. */
  type: string;
  /** The name in the code `pulumi import` generates (the export's variable). */
  name: string;
  /** The resource's Pulumi name, the last part of its URN (the export's logical name). */
  logicalName: string;
  /** The live uid. */
  id: string;
}

/** The whole file. */
export interface ImportFile {
  resources: ImportSpec[];
}

/** The import entry of one declared resource. */
export function importSpec(kind: Pick<KindDefinition, "module" | "className">, name: { logical: string; variable: string }, uid: string): ImportSpec {
  return { type: tokenOf(kind), name: name.variable, logicalName: name.logical, id: uid };
}

/**
 * Splits the import entries of a program that refers to `outsideUids` without declaring them
 * (the exported group): `document`, what the file holds, and `alone`, each entry whose id is
 * one of those uids, to be imported by a command of its own.
 */
export function splitImports(specs: ImportSpec[], outsideUids: Iterable<string>): { document: ImportSpec[]; alone: ImportSpec[] } {
  const outside = new Set(outsideUids);
  return { document: specs.filter((s) => !outside.has(s.id)), alone: specs.filter((s) => outside.has(s.id)) };
}

/** The `pulumi import` command that imports `spec` by itself. */
export function importCommand(spec: ImportSpec): string {
  return `pulumi import ${[spec.type, spec.logicalName, spec.id].map(shellWord).join(" ")}`;
}

/** The file's text: pretty JSON with a final newline. */
export function importFileText(resources: ImportSpec[]): string {
  return `${JSON.stringify({ resources } satisfies ImportFile, null, 2)}\n`;
}
