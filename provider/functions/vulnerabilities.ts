/** The vulnerability advisory functions. */
import { OBJECTS, pick, type ArgsOf, type FieldsMatch, type getAdvisories as GetAdvisories, type getAdvisory as GetAdvisory } from "../../api/functions";
import { Advisory as AdvisoryObject, AdvisoryEvent, AdvisorySeverity } from "../../api/functions/results";
import type { Item } from "../../client/shapes";
import { exactlyOne, listQuery, type ClientSource } from "./query";

/** A vulnerability advisory. */
export interface Advisory {
  uid: string;
  advisoryId: string;
  /** CVE ids and other aliases. */
  aliases: string[];
  artifactName: string;
  artifactType: string;
  artifactArchitecture: string;
  componentName: string;
  componentType: string;
  componentLocation: string;
  severities: { source: string; score?: number; level?: string }[];
  events: { type: string; time: string }[];
  createTime: string;
  updateTime: string;
}

// The interface above names exactly the fields of the definitions, nested ones too.
true satisfies FieldsMatch<Advisory, typeof AdvisoryObject> &
  FieldsMatch<Advisory["severities"][number], typeof AdvisorySeverity> &
  FieldsMatch<Advisory["events"][number], typeof AdvisoryEvent>;

/** Filters of `getAdvisories` (each list matches any of its values). */
export type GetAdvisoriesArgs = ArgsOf<typeof GetAdvisories>;
/** One advisory by uid or by its advisory id. */
export type GetAdvisoryArgs = ArgsOf<typeof GetAdvisory>;

const advisory = (a: Item<"advisories">) => pick(AdvisoryObject, a, OBJECTS) as unknown as Advisory;

/** Advisories matching the filters, every page followed. */
export async function getAdvisories(clients: ClientSource, args: GetAdvisoriesArgs = {}): Promise<{ advisories: Advisory[] }> {
  const q = listQuery(args, {
    advisoryIds: args.advisoryIds,
    aliases: args.aliases,
    artifactNames: args.artifactNames,
    componentNames: args.componentNames,
    query: args.query,
  });
  return { advisories: (await clients().collect("advisories", q)).map(advisory) };
}

/** One advisory. Errors on zero or several matches. */
export async function getAdvisory(clients: ClientSource, args: GetAdvisoryArgs): Promise<Advisory> {
  const client = clients();
  if (args.uid) return advisory(await client.get("advisories", args.uid));
  if (!args.advisoryId) throw new Error("getAdvisory: give uid or advisoryId");
  const found = (await client.collect("advisories", { advisoryIds: [args.advisoryId] })).filter((a) => a.advisoryId === args.advisoryId);
  return advisory(exactlyOne(found, `advisory ${args.advisoryId}`));
}
