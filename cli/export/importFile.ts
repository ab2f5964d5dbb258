/**
 * The `pulumi import --file` document of an export: every resource the generated program
 * declares, by the resource plugin's type token, with the program's own names (its variable as
 * the name of the generated code, its logical name as the resource's Pulumi name) and its live
 * uid as the id. The exported group itself is not in it, as it is not in the program.
 */
import { tokenOf } from "../../plugin/schema";

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
export function importSpec(className: string, name: { logical: string; variable: string }, uid: string): ImportSpec {
  return { type: tokenOf({ className }), name: name.variable, logicalName: name.logical, id: uid };
}

/** The file's text: pretty JSON with a final newline. */
export function importFileText(resources: ImportSpec[]): string {
  return `${JSON.stringify({ resources } satisfies ImportFile, null, 2)}\n`;
}
