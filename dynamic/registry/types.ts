/**
 * The named types the generated resource classes use (dynamic/registry/<class>.ts, written by
 * `npm run gen:sdk-classes`), from the kinds' definitions in api/kinds.
 */
export type { CustomOverlay, SyncConfigValue as SyncConfig } from "../../api/kinds/repos";
export type { HelmChart } from "../../api/kinds/repoDeployments";
