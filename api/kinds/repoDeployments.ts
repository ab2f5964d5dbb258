import { z } from "zod";

/** The longest chart URL (a chart's `repo`, `source` or `chart`) irv-server accepts: its bound (the platform states none). */
export const CHART_URL_MAX = 2048;
/** The most charts one deployment holds: irv-server's bound (the platform states none). */
export const CHARTS_MAX = 100;

const url = z.string().max(CHART_URL_MAX, `must be at most ${CHART_URL_MAX} characters`);

/** One Helm chart (the registry v1 `HelmChart`): the chart repository, and optionally a link to its source and the chart in it. */
export const HelmChart = z
  .strictObject({
    repo: url
      .min(1, "must not be empty")
      .describe("The Helm chart repository: `oci://ghcr.io/stefanprodan/charts/podinfo`, `https://kyverno.github.io/kyverno/`."),
    source: url.optional().describe("A link to the chart's source code: `https://github.com/kyverno/kyverno`."),
    chart: url.optional().describe("The chart used from the repository, when it holds several: `kyverno`."),
  })
  .meta({ id: "HelmChart", description: "A Helm chart that deploys a repo's image: its repository, and optionally its source and the chart in it." });
export type HelmChart = z.infer<typeof HelmChart>;

/** A deployment's charts, as a request gives them. */
export const Charts = z.array(HelmChart).max(CHARTS_MAX, `must hold at most ${CHARTS_MAX} charts`);

/** The body of CreateDeployment and UpdateDeployment (`body: "*"`): the charts, the path naming the repo. */
export const DeploymentBody = z.object({ charts: Charts.optional() });
