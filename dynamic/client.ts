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
  return cachedClient(readSettings((key) => pulumi.runtime.getConfig(key)), o);
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
  return (args) => pulumi.output(args).apply((a) => fn(a as A)) as pulumi.Output<R>;
}
