/** What the dynamic classes' functions (data sources) run on: the program's client, and each function as a plain call and as an Output. */
import * as pulumi from "@pulumi/pulumi";
import type { IrvClient } from "../client/client";
import { readSettings } from "../client/config";
import { cachedClient } from "../client/session";

/**
 * The program-side client data sources use, in the program's own process (dynamic providers have
 * no invokes). Settings come from the stack's `irv:*` config, then the environment, exactly as in
 * the provider, and the client comes from the same cache. `anonymous` (registry data sources):
 * with no credentials configured, read without a token, which the API allows for public repos.
 */
export function programClient(o: { anonymous?: boolean } = {}): IrvClient {
  // runtime.getConfig reads secrets without the plaintext warning Config.get would print.
  return cachedClient(
    readSettings((key) => pulumi.runtime.getConfig(key)),
    o,
  );
}

/** Scope, order and paging arguments every list data source takes (from api/functions). */
export type { ListArgs } from "../api/functions";

/**
 * A data source's arguments as a `getXOutput` takes them: every field an `Input` (lists of
 * Inputs too), as in every Pulumi provider, so `getTagsOutput({ repoUid: repo.uid })` compiles.
 */
export type OutputArgs<A> = {
  [K in keyof A]: A[K] extends (infer U)[] | undefined ? pulumi.Input<pulumi.Input<U>[]> | Extract<A[K], undefined> : pulumi.Input<A[K]>;
};

/** `getX` as an Output-returning `getXOutput`: waits for every argument, then calls `getX`. */
export function outputOf<A, R>(fn: (args: A) => Promise<R>): (args: OutputArgs<A>) => pulumi.Output<R> {
  return (args) => pulumi.output(args).apply<R>((a) => fn(a as A));
}

/**
 * `fn`, a data source, whose failures name it and its arguments, as the resource plugin's Invoke
 * does: `iam.getRole(name: "onwer"): no role named "onwer"`, so a lookup that finds nothing says
 * which lookup, in a program of many.
 */
export function named<P extends unknown[], R>(name: string, fn: (...args: P) => Promise<R>): (...args: P) => Promise<R> {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (e) {
      throw new Error(`${name}(${argsText(args[0])}): ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  };
}

/** Arguments as an error message shows them, naming each; long ones cut. */
function argsText(args: unknown): string {
  const text = Object.entries((args ?? {}) as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(", ");
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}
