import type { repos as definition, InputsOf, OutputsOf } from "../../api/kinds";
import { providerFor } from "./provider";
import { type CommonInputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of a Repo, as its definition (api/kinds) types them. */
export type RepoInputs = CommonInputs & InputsOf<typeof definition>;
/** Outputs of a Repo: the inputs as they are live, and the API's fields. */
export type RepoOutputs = CommonInputs & OutputsOf<typeof definition>;

/** A repo is named uniquely in its group: a lost create is found by name, as most kinds are. */
const spec: KindSpec<"repos"> = factsOf("repos");

/** The provider of `registry.Repo`. */
export const repos = providerFor<"repos", RepoInputs, RepoOutputs>(spec);
/** The kind's spec. */
export const repoSpec = spec;
