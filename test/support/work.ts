/** The server's work counters (`exchangeWork`, `listWork`, `authzWork`) read around one request. */

/** How much each of `counters` grew while `run` ran, and what `run` returned. */
export async function workDuring<W extends Record<string, number>, R>(counters: W, run: () => Promise<R>): Promise<{ work: W; result: R }> {
  const before = { ...counters };
  const result = await run();
  const work = { ...counters };
  for (const k of Object.keys(work) as (keyof W)[]) work[k] = (counters[k] - before[k]) as W[keyof W];
  return { work, result };
}
