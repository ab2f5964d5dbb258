import * as pulumi from "@pulumi/pulumi";
import { definitionOf, secretNames, tokenOf, type Kind } from "../api/kinds";
import { shimFor } from "./shim";

/** Input<T> all the way down: nested members may be Outputs too. */
export type DeepInput<T> = T extends string | number | boolean | null | undefined
  ? pulumi.Input<T>
  : T extends Array<infer U>
    ? pulumi.Input<DeepInput<U>[]>
    : pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>;

/**
 * Exactly one member of `T`: giving another too is a type error (`never`). `Names` lists them:
 * giving none makes the compiler say "Property '"give exactly one of <Names>"' is missing" rather
 * than name whichever member it happened to try last (a property no object can have, so it admits
 * nothing more).
 */
export type ExactlyOne<T, Names extends string = string> =
  { [K in keyof T]: Pick<T, K> & { [O in Exclude<keyof T, K>]?: never } }[keyof T] | { [M in `give exactly one of ${Names}`]: never };

/** Every resource also takes these. */
export interface CommonArgs {
  /**
   * Adopt the existing resource with this uid instead of creating one: create checks that it
   * exists and belongs to the declared parent (and kind), then updates it to these inputs. Use
   * it where `pulumi import` would be used; the engine cannot import dynamic resources.
   */
  adoptUid?: pulumi.Input<string>;
}

/**
 * The base of every irv resource: a dynamic resource of type `pulumi-nodejs:dynamic/irv:<Class>`
 * over its kind's shared shim, marking the kind's secret fields (inputs and outputs).
 *
 * `customTimeouts` are honoured by the provider itself (the engine does not pass them to dynamic
 * providers): they are copied into the hidden `__timeouts` input, and `create`, `update` and
 * `delete` each bound the whole operation (every HTTP retry and backoff, the wait for a new
 * group's permissions, create recovery, each request, aborted when the time is up) to their
 * timeout; the default is 5 minutes. A timeout changed on its own does not update the resource:
 * it is stored at its next create or update (delete uses the stored one). Reads use 2 minutes.
 */
export abstract class IrvResource extends pulumi.dynamic.Resource {
  /**
   * The resource's uid. It is the resource's Pulumi id, and is exposed as exactly that: a preview
   * of an in-place update keeps the id known (the engine previews a dynamic resource's update
   * with its inputs as outputs, so a separate `uid` output would turn unknown and make every
   * child resource show as replaced).
   */
  declare public readonly uid: pulumi.Output<string>;

  protected constructor(kind: Kind, name: string, props: Record<string, unknown>, outputs: readonly string[], opts?: pulumi.CustomResourceOptions) {
    const info = definitionOf(kind);
    const secretOutputs = secretNames(info);
    const all: Record<string, unknown> = {};
    for (const o of outputs) all[o] = undefined;
    Object.assign(all, props);
    // A field kept secret (an invite's code, a block with a secret member such as `oidc`) is sent
    // secret as a whole, so state holds it only encrypted: a dynamic resource cannot mark a member.
    for (const name of secretOutputs) if (all[name] !== undefined) all[name] = pulumi.secret(all[name]);
    const t = opts?.customTimeouts;
    if (t && !opts?.id) {
      const timeouts = Object.fromEntries(Object.entries({ create: t.create, update: t.update, delete: t.delete }).filter(([, v]) => v));
      if (Object.keys(timeouts).length) all.__timeouts = timeouts;
    }
    const secrets = [...secretOutputs];
    // The plugin's type as an alias: a stack moves back from `pulumi-irv/plugin` without recreating anything.
    const aliases = [...(opts?.aliases ?? []), { type: tokenOf(info) }];
    const o: pulumi.CustomResourceOptions = secrets.length
      ? { ...opts, aliases, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets] }
      : { ...opts, aliases };
    super(shimFor(kind), name, all, o, "irv", info.className);
    (this as { uid: pulumi.Output<string> }).uid = this.id;
  }
}
