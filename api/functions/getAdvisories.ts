import { z } from "zod";
import { defineFunction, listArgs, text } from "./definition";
import { Advisory } from "./results";

const anyOf = (description: string) => z.array(z.string()).optional().describe(`${description} (any of them).`);

export const getAdvisories = defineFunction({
  module: "vulnerabilities",
  name: "getAdvisories",
  description: "The vulnerability advisories matching the filters (each list matches any of its values), every page followed.",
  args: z.strictObject({
    ...listArgs,
    advisoryIds: anyOf("Advisory ids"),
    legacyAdvisoryIds: anyOf("Ids in the GitHub advisory repositories, of migrated advisories"),
    aliases: anyOf("CVE ids and other aliases"),
    artifactNames: anyOf("Artifact names"),
    artifactTypes: anyOf("Artifact types (`apk`, `image`, ...)"),
    artifactArchitectures: anyOf("Artifact architectures (`x86_64`, `aarch64`)"),
    componentNames: anyOf("Component names"),
    componentTypes: anyOf("Component types (`go-module`, `python`, ...)"),
    componentLocations: anyOf("Component locations"),
    origin: text("An origin package: its advisories and its subpackages' (replaces `artifactNames`)."),
    eventReviewStates: anyOf("Advisories with an event in one of these review states (`REVIEW_STATE_PENDING`, ...)"),
    eventAuthors: anyOf("Advisories with an event by one of these authors"),
    excludeEventAuthors: anyOf("Advisories with no event by any of these authors: the complement"),
    eventReviewers: anyOf("Advisories with an event reviewed by one of these"),
    eventTypes: anyOf("Advisories with an event of one of these types (`EVENT_TYPE_FILTER_FIXED`, ...)"),
    latestEventType: text("Advisories whose most recent approved event is of this type (`EVENT_TYPE_FILTER_DETECTION`: still open)."),
    query: text("Case-insensitive substring of the artifact, the component or an alias."),
  }),
  result: { list: "advisories", description: "The matching advisories.", of: Advisory },
});
