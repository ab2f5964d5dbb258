/**
 * A dynamic resource that makes no API call: the engine's own cost per resource, the baseline the
 * irv resources are measured against (bench/engine.ts) and the harness's smoke test subject.
 */
import * as pulumi from "@pulumi/pulumi";

/** Inputs of a Trivial resource: any string, echoed into its outputs. */
export interface TrivialArgs {
  value: pulumi.Input<string>;
}

/**
 * The provider shim, shared by every Trivial resource (serialization is cached per object). Like
 * the irv shim it is tiny: the engine stores it in each resource's state.
 */
const trivialProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: require("node:crypto").randomUUID(), outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
  async diff(_id, olds, news) {
    return { changes: olds.value !== news.value };
  },
};

/** A resource whose create, read, update and delete only echo their inputs. */
export class Trivial extends pulumi.dynamic.Resource {
  /** The value given. */
  declare readonly value: pulumi.Output<string>;

  constructor(name: string, args: TrivialArgs, opts?: pulumi.CustomResourceOptions) {
    super(trivialProvider, name, { value: args.value }, opts, "irv-test", "Trivial");
  }
}
