import { type Inputs, type Outputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of a Repo, as its definition (api/kinds) types them. */
export type RepoInputs = Inputs<"repos">;
/** Outputs of a Repo: the inputs as they are live, and the API's fields. */
export type RepoOutputs = Outputs<"repos">;

/** A repo is named uniquely in its group: a lost create is found by name, as most kinds are. */
const spec = (): KindSpec<"repos"> => factsOf("repos");

/** The kind's spec, made on each call (./index.ts `specs` makes it once, on first use). */
export const repoSpec = spec;
