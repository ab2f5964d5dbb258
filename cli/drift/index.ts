/** `irv drift`: what differs between a stack's state and the live API. */
export { runDrift, type DriftOptions } from "./detect";
export { formatDrift, driftSummary, DRIFT_FORMATS, type DriftFormat } from "./format";
export type { DriftReport, DriftedResource, FieldDrift } from "./report";
