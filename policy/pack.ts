/**
 * The IAM guardrails policy pack: `pulumi preview --policy-pack node_modules/pulumi-irv/policy`.
 * The engine runs this module (policy/package.json's `main`) through the node language host.
 */
import { PolicyPack } from "@pulumi/policy";
import { PACK_NAME, policies } from "./policies";

new PolicyPack(PACK_NAME, { policies });
