/** The choices a caller makes for a generated program, and the secrets it reports back. */

/** What to call the generated project, and which package versions it depends on. */
export interface GenerateOptions {
  /** The Pulumi project name; default: the exported group's name. */
  projectName?: string;
  /** The config key holding the exported group's uid; default `groupUid`. */
  groupConfigKey?: string;
  /** The `pulumi-irv` version range for package.json. */
  irvVersion: string;
  /** The `@pulumi/pulumi` version for package.json. */
  pulumiVersion: string;
  /** npm `overrides` for package.json: pulumi-irv's own, which an installing project must repeat (npm reads only the root's). */
  overrides?: Record<string, unknown>;
}

/** A secret the program needs from stack config because the API never returns it. */
export interface RequiredSecret {
  /** Config key (in the project's namespace). */
  key: string;
  /** What it is, for the README. */
  about: string;
}
