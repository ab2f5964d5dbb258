/** The vulnerability advisory functions. */
import { OBJECTS, pick, type ArgsOf, type FieldsMatch, type getAdvisories as GetAdvisories, type getAdvisory as GetAdvisory } from "../../api/functions";
import * as results from "../../api/functions/results";
import type { Item } from "../../client/shapes";
import { exactlyOne, listQuery, ownFilters, type ClientSource } from "./query";

/** A severity score: `TYPE_CVSS_V3` and a CVSS vector, say. */
export interface AdvisorySeverity {
  type: string;
  score: string;
}
/** An event that carries only a comment. */
export interface AdvisoryNote {
  note: string;
}
/** How a vulnerability was detected: exactly one member is set. */
export interface AdvisoryDetection {
  nvdapi?: { cpeSearched: string; cpeFound: string };
  manual?: Record<never, never>;
  scanv1?: {
    scanner: string;
    subpackage: string;
    componentId: string;
    component: string;
    componentVersion: string;
    componentType: string;
    componentLocation: string;
    artifactVersion: string;
    scannerVersion: string;
    grypeDbBuilt: string;
    grypeDbChecksum: string;
  };
}
/** A step in an advisory's life: exactly one of `detection` ... `patched` is set. */
export interface AdvisoryEvent {
  uid: string;
  createTime?: string;
  /** JSON, base64-encoded. */
  findings: string;
  author: string;
  reviewer: string;
  /** `REVIEW_STATE_APPROVED`, ... */
  reviewState: string;
  issue?: string;
  detection?: AdvisoryDetection;
  fixed?: { fixedVersion: string; note: string; scannerVersion: string; grypeDbBuilt: string; grypeDbChecksum: string };
  falsePositiveDetermination?: { type: string; note: string };
  analysisNotPlanned?: AdvisoryNote;
  fixNotPlanned?: AdvisoryNote;
  pendingUpstreamFix?: AdvisoryNote;
  truePositiveDetermination?: AdvisoryNote;
  patched?: { patchedVersions: string[]; note: string };
}
/** A vulnerability advisory. */
export interface Advisory {
  uid: string;
  advisoryId: string;
  createTime?: string;
  updateTime?: string;
  deleteTime?: string;
  author: string;
  artifactName: string;
  artifactType: string;
  artifactArchitecture: string;
  componentName: string;
  componentLocation: string;
  componentType: string;
  /** CVE ids and other aliases. */
  aliases: string[];
  events: AdvisoryEvent[];
  legacyAdvisoryId?: string;
  severities: AdvisorySeverity[];
}

type Detection = Required<AdvisoryDetection>;
type Event = Required<AdvisoryEvent>;
// The interfaces above name exactly the fields of the definitions, nested ones too.
true satisfies FieldsMatch<Advisory, typeof results.Advisory> &
  FieldsMatch<AdvisorySeverity, typeof results.AdvisorySeverity> &
  FieldsMatch<AdvisoryEvent, typeof results.AdvisoryEvent> &
  FieldsMatch<AdvisoryNote, typeof results.AdvisoryNote> &
  FieldsMatch<AdvisoryDetection, typeof results.AdvisoryDetection> &
  FieldsMatch<Detection["nvdapi"], typeof results.AdvisoryNvdApiDetection> &
  FieldsMatch<Detection["manual"], typeof results.AdvisoryManualDetection> &
  FieldsMatch<Detection["scanv1"], typeof results.AdvisoryScanDetection> &
  FieldsMatch<Event["fixed"], typeof results.AdvisoryFixed> &
  FieldsMatch<Event["falsePositiveDetermination"], typeof results.AdvisoryFalsePositive> &
  FieldsMatch<Event["patched"], typeof results.AdvisoryPatched>;

/** Filters of `getAdvisories` (each list matches any of its values). */
export type GetAdvisoriesArgs = ArgsOf<typeof GetAdvisories>;
/** One advisory by uid or by its advisory id. */
export type GetAdvisoryArgs = ArgsOf<typeof GetAdvisory>;

const advisory = (a: Item<"advisories">) => pick<Advisory>(results.Advisory, a, OBJECTS);

/** Advisories matching the filters, every page followed. */
export async function getAdvisories(clients: ClientSource, args: GetAdvisoriesArgs = {}): Promise<{ advisories: Advisory[] }> {
  const q = listQuery(args, ownFilters(args));
  return { advisories: (await clients().collect("advisories", q)).map(advisory) };
}

/** One advisory. Errors on zero or several matches. */
export async function getAdvisory(clients: ClientSource, args: GetAdvisoryArgs): Promise<Advisory> {
  const client = clients();
  if (args.uid) return advisory(await client.get("advisories", args.uid));
  if (!args.advisoryId) throw new Error("getAdvisory: give uid or advisoryId");
  const found = (await client.collect("advisories", { advisory_ids: [args.advisoryId] })).filter((a) => a.advisoryId === args.advisoryId);
  return advisory(exactlyOne(found, `advisory ${args.advisoryId}`));
}
