import { z } from "zod";
import { common, named } from "./common";
import { once } from "../once";
import { defineKind, REGISTRY_V1_PACKAGE } from "./definition";

/** The longest chart URL (a chart's `repo`, `source` or `chart`) irv-server accepts: its bound (the platform states none). */
export const CHART_URL_MAX = 2048;
/** The most charts one deployment holds: irv-server's bound (the platform states none). */
export const CHARTS_MAX = 100;

const url = once(() => z.string().max(CHART_URL_MAX, `must be at most ${CHART_URL_MAX} characters`));

/** One Helm chart (the registry v1 `HelmChart`): the chart repository, and optionally a link to its source and the chart in it. */
export const helmChart = once(() =>
  z
    .strictObject({
      repo: url()
        .min(1, "must not be empty")
        .describe("The Helm chart repository: `oci://ghcr.io/stefanprodan/charts/podinfo`, `https://kyverno.github.io/kyverno/`."),
      source: url().optional().describe("A link to the chart's source code: `https://github.com/kyverno/kyverno`."),
      chart: url().optional().describe("The chart used from the repository, when it holds several: `kyverno`."),
    })
    .meta({ id: "HelmChart", description: "A Helm chart that deploys a repo's image: its repository, and optionally its source and the chart in it." }),
);
export type HelmChart = z.infer<ReturnType<typeof helmChart>>;

/** A deployment's charts, as a request gives them. */
export const charts = once(() => z.array(helmChart()).max(CHARTS_MAX, `must hold at most ${CHARTS_MAX} charts`));

/** The body of CreateDeployment and UpdateDeployment (`body: "*"`): the charts, the path naming the repo. */
export const deploymentBody = once(() => z.object({ charts: charts().optional() }));

/** A chart as the API returns it: loose, its optional members absent when unset. */
const readChart = once(() => z.looseObject({ repo: z.string().default(""), source: z.string().optional(), chart: z.string().optional() }));

const optionalText = (number: number) => ({ number, type: "string", optional: true, behavior: ["OPTIONAL"] }) as const;

/**
 * A repo's deployment (the registry v1 `Deployment`, and `chainguard_image_repo_deployment` in the
 * platform's Terraform provider): the Helm charts that deploy the repo's image. Only registry v1
 * has it, at `/registry/v1/repos/{id}/deployment`: Create, Update and Get, no List, no Delete. Its
 * id is its repo's. Update takes `registry.deployments.update`, which is internal to the platform:
 * only the platform's staff can change or clear a deployment, so the provider's update and delete
 * (an Update with no charts, as the Terraform provider destroys one) are refused to an
 * organization's callers, with what to do instead. The platform announces no event about it.
 */
export const repoDeployments = defineKind({
  kind: "repoDeployments",
  module: "registry",
  className: "RepoDeployment",
  label: "repo deployment",
  description: "The Helm charts that deploy an image repo's image: one per repo, its id the repo's.",
  parentField: "repoUid",
  proto: {
    package: REGISTRY_V1_PACKAGE,
    service: "Registry",
    message: "Deployment",
    uid: 1,
    uidName: "id",
    messages: [{ name: "HelmChart", fields: { source: optionalText(1), repo: { number: 2, type: "string", behavior: ["REQUIRED"] }, chart: optionalText(3) } }],
  },
  capability: "registry.deployments",
  singleton: { path: "/registry/v1/repos", suffix: "deployment", cleared: { charts: [] } },
  // `irv export` declares none: the API has no List of them (one Get per repo), and a declared one
  // could be created by no built-in role nor changed by anyone but the platform's staff; import one
  // by its repo's uid instead.
  exported: false,
  example: {
    name: "podinfo",
    inputs: {
      repoUid: "${repo}",
      charts: [
        { repo: "oci://ghcr.io/stefanprodan/charts/podinfo", source: "https://github.com/stefanprodan/podinfo" },
        { repo: "https://kyverno.github.io/kyverno/", chart: "kyverno" },
      ],
    },
    notes: [
      "A repo has at most one deployment, whose id is the repo's uid: creating one for a repo that has one fails with ALREADY_EXISTS, and the error says to `pulumi import` it instead.",
      "Creating one takes `registry.deployments.create` on the repo, which no built-in role holds (a custom role may); reading it, `registry.deployments.list`, which viewers hold.",
      "Changing its charts, and deleting it (an update with no charts, as the platform's Terraform provider destroys one), take `registry.deployments.update`, which is internal to the platform: only the platform's staff can change or clear a deployment. An organization's update or destroy is refused, saying so: give the resource `retainOnDelete: true` to leave the deployment when it leaves the program, delete the repo (its deployment goes with it), or drop it from the stack with `pulumi state delete <urn>`.",
      "There is no List: a refresh or `irv drift` reads each deployment with one Get. A deployment with no charts reads as none (deleted), as the Terraform provider reads it.",
    ],
    importNotes: ["Import it by its repo's uid: `pulumi import irv:registry:RepoDeployment podinfo <repo uid>`."],
  },
  fields: () => ({
    repoUid: common.repoUid("The repo whose image the charts deploy: its uid is the deployment's."),
    charts: named({
      description: "The Helm charts that deploy the image (at least one: a deployment with none is none); their order is no change.",
      input: true,
      proto: { number: 2, type: "HelmChart", repeated: true },
      schema: charts().min(1, "must hold at least one chart: a deployment with none is cleared, which only the platform's staff can do"),
      read: z.array(readChart()).default([]),
    }),
  }),
});
