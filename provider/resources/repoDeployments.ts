import { AlreadyExistsError, NotFoundError, PermissionDeniedError } from "../../client/errors";
import { type Inputs, type Outputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";
import { same } from "./values";

/** Inputs of a RepoDeployment, as its definition (api/kinds) types them. */
export type RepoDeploymentInputs = Inputs<"repoDeployments">;
/** Outputs of a RepoDeployment: the inputs as they are live, and the API's fields. */
export type RepoDeploymentOutputs = Outputs<"repoDeployments">;

/** What an organization can do instead of changing or clearing a deployment, which only the platform's staff may. */
const INSTEAD =
  "give the resource `retainOnDelete: true` and remove it from the program to stop managing it as it is, delete the repo (its deployment goes with it), or drop it from the stack with `pulumi state delete <urn>`";

/** The refusal of an update or clear, in plain words, or undefined for any other error. */
function staffOnly(e: unknown, id: string, what: string): Error | undefined {
  if (!(e instanceof PermissionDeniedError)) return undefined;
  return new Error(
    `repo deployment ${id}: ${what} takes registry.deployments.update, which on the platform only its staff hold (no role of an organization can): ${INSTEAD}. The API said: ${e.message}`,
  );
}

const spec = (): KindSpec<"repoDeployments"> => ({
  // Its id is its repo's: the repo is the item's own uid.
  ...factsOf("repoDeployments", (x) => x.uid),
  // A deployment is its repo's only one: what a lost create made is the repo's, with the charts sent.
  recover: async (ctx, i) => {
    const live = await ctx
      .client()
      .get("repoDeployments", i.repoUid, ctx.call)
      .catch((e: unknown) => {
        if (e instanceof NotFoundError) return undefined;
        throw e;
      });
    return live && same(live.charts, i.charts) ? live : undefined;
  },
  createError: (e, i) =>
    e instanceof AlreadyExistsError
      ? new Error(
          `repo ${i.repoUid} already has a deployment: a repo has one, so bring it under management with \`pulumi import irv:registry:RepoDeployment <name> ${String(i.repoUid)}\` (or the resource option \`import\`) instead of creating it. The API said: ${e.message}`,
        )
      : undefined,
  updateError: (e, id) => staffOnly(e, id, "changing its charts"),
  deleteError: (e, props) => staffOnly(e, props.uid, "deleting it (an update with no charts, as the platform's Terraform provider clears one)"),
  // As the platform's Terraform provider reads one: no charts is no deployment.
  gone: (item) => item.charts.length === 0,
});

/** The kind's spec, made on each call (./index.ts `specs` makes it once, on first use). */
export const repoDeploymentSpec = spec;
