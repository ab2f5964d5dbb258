/**
 * `npm run bench`: every benchmark, each measuring its subject and its baseline side by side in
 * one run (these machines are noisy, so only ratios within a run are compared).
 */
import { runServerBench } from "./server";
import { runEngineBench } from "./engine";
import { roundsOf, runPluginBench, sizesOf } from "./plugin";
import { runExchangeBench } from "./exchange";
import { runDurabilityBench } from "./durability";
import { runRegistryBench } from "./registry";
import { runAnonymousListBench } from "./anonymous-lists";
import { runAuthzBindingsBench } from "./authz-bindings";
import { runAccessBench } from "./access";
import { runWireBench } from "./wire";
import { runDeliveryBench } from "./delivery";
import { runSoak, seedLine, soakOptions, soakReport } from "./soak";
import { runTerraformBench } from "./terraform";
import { runFollowBench } from "./follow";
import { runMistakes } from "./mistakes";
import { runStartupBench } from "./startup";

async function main(): Promise<void> {
  const only = process.argv[2];
  if (!only || only === "server") console.log(await runServerBench());
  if (!only || only === "durability") console.log(await runDurabilityBench());
  if (!only || only === "registry") console.log(await runRegistryBench());
  if (!only || only === "anonymous") console.log(await runAnonymousListBench());
  if (!only || only === "bindings") console.log(await runAuthzBindingsBench());
  if (!only || only === "access") console.log(await runAccessBench());
  if (!only || only === "wire") console.log(await runWireBench());
  if (!only || only === "delivery") console.log(await runDeliveryBench());
  if (!only || only === "engine") console.log(await runEngineBench());
  if (!only || only === "plugin") console.log(await runPluginBench(roundsOf(process.argv), sizesOf(process.argv), process.argv.includes("--unmeasured-setup")));
  if (!only || only === "exchange") console.log(await runExchangeBench());
  // Only when named: it builds OpenTofu and the Terraform provider (once per machine).
  if (only === "terraform") console.log(await runTerraformBench(process.argv.slice(3)));
  if (!only || only === "startup") console.log(await runStartupBench(process.argv.slice(3)));
  if (!only || only === "follow") console.log(await runFollowBench(process.argv.slice(3)));
  // Only when named: it builds the Terraform bridge (once per machine).
  if (only === "mistakes") console.log(await runMistakes());
  if (!only || only === "soak") {
    const o = soakOptions(process.argv.slice(3));
    o.progress = (r) => process.stderr.write(seedLine(r));
    console.log(soakReport(await runSoak(o), o));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
