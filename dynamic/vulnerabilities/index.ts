/** Vulnerability advisory data sources: the functions of provider/functions with the program's client. */
import * as functions from "../../provider/functions/vulnerabilities";
import { named, outputOf, programClient } from "../functions";
import type { GetAdvisoriesArgs, GetAdvisoryArgs } from "../../provider/functions/vulnerabilities";

export type { Advisory, GetAdvisoriesArgs, GetAdvisoryArgs } from "../../provider/functions/vulnerabilities";

/** Advisories matching the filters, every page followed. */
export const getAdvisories = named("vulnerabilities.getAdvisories", (args: GetAdvisoriesArgs = {}) => functions.getAdvisories(programClient, args));
/** `getAdvisories` as an Output. */
export const getAdvisoriesOutput = outputOf(getAdvisories);

/** One advisory. Errors on zero or several matches. */
export const getAdvisory = named("vulnerabilities.getAdvisory", (args: GetAdvisoryArgs) => functions.getAdvisory(programClient, args));
/** `getAdvisory` as an Output. */
export const getAdvisoryOutput = outputOf(getAdvisory);
