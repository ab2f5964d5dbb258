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
    aliases: anyOf("CVE ids and other aliases"),
    artifactNames: anyOf("Artifact names"),
    componentNames: anyOf("Component names"),
    query: text("Case-insensitive substring search."),
  }),
  result: { list: "advisories", description: "The matching advisories.", of: Advisory },
});
