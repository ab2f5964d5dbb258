import type * as pulumi from "@pulumi/pulumi";
import type { Kind } from "../api/kinds";

/**
 * The tiny provider object each resource's `__provider` holds: it captures only its kind.
 * The engine's host deserializes it and calls `configure` once before any other method; that
 * loads `pulumi-irv/provider` from the installed package and installs the kind's check, diff,
 * read, update and delete on the object. So state holds no client, no credential and no copy of
 * the implementation, refresh and destroy run the code installed now, and the serialized text
 * stays well under 2 KB (seven delegating closures would not). One shared object per kind:
 * serialization is cached per object.
 */
const shims = new Map<Kind, pulumi.dynamic.ResourceProvider>();

/** The shared shim of `kind`. */
export function shimFor(kind: Kind): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(kind);
  if (!shim) {
    // Everything below is serialized into state: it may use `kind` and `require`, nothing else.
    shim = {
      async configure(req) {
        Object.assign(this, require("pulumi-irv/provider").connect(kind, req.config));
      },
      create(inputs) {
        return require("pulumi-irv/provider").connect(kind).create(inputs);
      },
    };
    shims.set(kind, shim);
  }
  return shim;
}
