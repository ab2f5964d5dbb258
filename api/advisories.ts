/**
 * Vulnerability advisories as the API returns them (the platform's
 * `chainguard.platform.vulnerabilities.v2beta1` `Advisory`, `Severity` and `AdvisoryEvent`), and
 * the enums their List filters take.
 */
import { z } from "zod";
import { once } from "./once";
import { enumName, orElse, str, strings, unset } from "./wire";

/** `Severity.Type`: how a severity is scored. */
export const SEVERITY_TYPES = ["TYPE_UNSPECIFIED", "TYPE_CVSS_V2", "TYPE_CVSS_V3", "TYPE_CVSS_V4"] as const;

/** `ReviewState` of an advisory event. */
export const REVIEW_STATES = [
  "REVIEW_STATE_UNSPECIFIED",
  "REVIEW_STATE_PENDING",
  "REVIEW_STATE_APPROVED",
  "REVIEW_STATE_REQUEST_CHANGES",
  "REVIEW_STATE_REJECTED",
] as const;

/** `AdvisoryEvent.FalsePositiveDetermination.Type`. */
export const FALSE_POSITIVE_TYPES = [
  "TYPE_UNSPECIFIED",
  "TYPE_VULNERABILITY_RECORD_ANALYSIS_CONTESTED",
  "TYPE_COMPONENT_VULNERABILITY_MISMATCH",
  "TYPE_VULNERABLE_CODE_VERSION_NOT_USED",
  "TYPE_VULNERABLE_CODE_NOT_INCLUDED_IN_PACKAGE",
  "TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH",
  "TYPE_VULNERABLE_CODE_CANNOT_BE_CONTROLLED_BY_ADVERSARY",
  "TYPE_INLINE_MITIGATIONS_EXIST",
] as const;

/** The members of an event's `type` oneof, in field order (10 to 17): exactly one is set. */
export const EVENT_TYPES = [
  "detection",
  "fixed",
  "falsePositiveDetermination",
  "analysisNotPlanned",
  "fixNotPlanned",
  "pendingUpstreamFix",
  "truePositiveDetermination",
  "patched",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** `EventTypeFilter` (event_types, latest_event_type): its values by enum number, 1 to 8 in EVENT_TYPES' order. */
export const EVENT_TYPE_FILTERS = [
  "EVENT_TYPE_FILTER_UNSPECIFIED",
  "EVENT_TYPE_FILTER_DETECTION",
  "EVENT_TYPE_FILTER_TRUE_POSITIVE_DETERMINATION",
  "EVENT_TYPE_FILTER_FIXED",
  "EVENT_TYPE_FILTER_FALSE_POSITIVE_DETERMINATION",
  "EVENT_TYPE_FILTER_ANALYSIS_NOT_PLANNED",
  "EVENT_TYPE_FILTER_FIX_NOT_PLANNED",
  "EVENT_TYPE_FILTER_PENDING_UPSTREAM_FIX",
  "EVENT_TYPE_FILTER_PATCHED",
] as const;

/** The event type an `EventTypeFilter` name selects (`EVENT_TYPE_FILTER_FIX_NOT_PLANNED` -> `fixNotPlanned`); undefined for UNSPECIFIED. */
export function eventTypeOfFilter(filter: string): EventType | undefined {
  const camel = filter
    .replace(/^EVENT_TYPE_FILTER_/, "")
    .toLowerCase()
    .replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return EVENT_TYPES.find((t) => t === camel);
}

/**
 * The advisories' read shapes (an advisory, its events, their severities), built on the first
 * call: the plugin's client loads this module at its start, and reads advisories only in a
 * function's call.
 */
export const advisoryShapes = once(() => {
  const Severity = z.looseObject({ type: enumName("TYPE_UNSPECIFIED"), score: str() });

  const note = z.looseObject({ note: str() });

  const Detection = z.looseObject({
    nvdapi: unset(z.looseObject({ cpeSearched: str(), cpeFound: str() })),
    manual: unset(z.looseObject({})),
    scanv1: unset(
      z.looseObject({
        scanner: str(),
        subpackage: str(),
        componentId: str(),
        component: str(),
        componentVersion: str(),
        componentType: str(),
        componentLocation: str(),
        artifactVersion: str(),
        scannerVersion: str(),
        grypeDbBuilt: str(),
        grypeDbChecksum: str(),
      }),
    ),
  });

  /** One step of an advisory's life: who recorded it, its review, and what it says (one member of its oneof). */
  const AdvisoryEvent = z.looseObject({
    uid: z.string(),
    createTime: unset(z.string()),
    /** Scanner findings: JSON, base64-encoded (a proto `bytes`). */
    findings: str(),
    author: str(),
    reviewer: str(),
    reviewState: enumName("REVIEW_STATE_UNSPECIFIED"),
    issue: unset(z.string()),
    detection: unset(Detection),
    fixed: unset(z.looseObject({ fixedVersion: str(), note: str(), scannerVersion: str(), grypeDbBuilt: str(), grypeDbChecksum: str() })),
    falsePositiveDetermination: unset(z.looseObject({ type: enumName("TYPE_UNSPECIFIED"), note: str() })),
    analysisNotPlanned: unset(note),
    fixNotPlanned: unset(note),
    pendingUpstreamFix: unset(note),
    truePositiveDetermination: unset(note),
    patched: unset(z.looseObject({ patchedVersions: strings(), note: str() })),
  });

  const Advisory = z.looseObject({
    uid: z.string(),
    advisoryId: z.string(),
    createTime: unset(z.string()),
    updateTime: unset(z.string()),
    deleteTime: unset(z.string()),
    author: str(),
    artifactName: str(),
    artifactType: str(),
    artifactArchitecture: str(),
    componentName: str(),
    componentLocation: str(),
    componentType: str(),
    aliases: strings(),
    events: orElse(z.array(AdvisoryEvent), []),
    legacyAdvisoryId: unset(z.string()),
    severities: orElse(z.array(Severity), []),
  });
  return { Severity, Detection, AdvisoryEvent, Advisory };
});
type Shapes = ReturnType<typeof advisoryShapes>;
export type AdvisoryEvent = z.infer<Shapes["AdvisoryEvent"]>;
export type Advisory = z.infer<Shapes["Advisory"]>;

/** The member of an event's oneof that is set, if any. */
export const eventTypeOf = (e: AdvisoryEvent): EventType | undefined => EVENT_TYPES.find((t) => e[t] !== undefined);
