/**
 * Who hears that a request waits to be tried again. An operation that can say what it waits on
 * (the resource plugin shows it as the resource's status line in `pulumi up`, where a long wait
 * otherwise shows only dots) passes a report in its calls' options (`CallOptions.report`); each
 * retry's wait is then reported in one sentence naming the request, why it waits and for how long.
 * It travels with the call, not in an AsyncLocalStorage: on Node 20 one of those, once used, makes
 * every promise of the process pay for context tracking, which slowed a refresh measurably.
 */

/** Hears one sentence per wait. */
export type WaitReport = (message: string) => void;
