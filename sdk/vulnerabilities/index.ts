/** Vulnerability advisory data sources. */
import type { Item } from "../../client/shapes";
import { exactlyOne, listQuery, outputOf, programClient, type ListArgs } from "../client";

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

const advisory = (a: Item<"advisories">): Advisory => ({
  uid: a.uid,
  advisoryId: a.advisoryId,
  aliases: a.aliases,
  artifactName: a.artifactName,
  artifactType: a.artifactType,
  artifactArchitecture: a.artifactArchitecture,
  componentName: a.componentName,
  componentType: a.componentType,
  componentLocation: a.componentLocation,
  severities: a.severities.map((s) => ({ source: s.source, score: s.score, level: s.level })),
  events: a.events.map((e) => ({ type: e.type, time: e.time })),
  createTime: a.createTime,
  updateTime: a.updateTime,
});

/** Filters of `getAdvisories` (each list matches any of its values). */
export interface GetAdvisoriesArgs extends ListArgs {
  advisoryIds?: string[];
  /** CVE ids and other aliases. */
  aliases?: string[];
  artifactNames?: string[];
  componentNames?: string[];
  /** Case-insensitive substring search. */
  query?: string;
}

/** Advisories matching the filters, every page followed. */
export async function getAdvisories(args: GetAdvisoriesArgs = {}): Promise<{ advisories: Advisory[] }> {
  const q = listQuery(args, {
    advisoryIds: args.advisoryIds,
    aliases: args.aliases,
    artifactNames: args.artifactNames,
    componentNames: args.componentNames,
    query: args.query,
  });
  return { advisories: (await programClient().collect("advisories", q)).map(advisory) };
}
/** `getAdvisories` as an Output. */
export const getAdvisoriesOutput = outputOf(getAdvisories);

/** One advisory by uid or by its advisory id. */
export interface GetAdvisoryArgs {
  uid?: string;
  advisoryId?: string;
}

/** One advisory. Errors on zero or several matches. */
export async function getAdvisory(args: GetAdvisoryArgs): Promise<Advisory> {
  const client = programClient();
  if (args.uid) return advisory(await client.get("advisories", args.uid));
  if (!args.advisoryId) throw new Error("getAdvisory: give uid or advisoryId");
  const found = (await client.collect("advisories", { advisoryIds: [args.advisoryId] })).filter((a) => a.advisoryId === args.advisoryId);
  return advisory(exactlyOne(found, `advisory ${args.advisoryId}`));
}
/** `getAdvisory` as an Output. */
export const getAdvisoryOutput = outputOf(getAdvisory);
