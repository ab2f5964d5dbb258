/** `irv review`: a preview grouped the way a reviewer reads it. */
export { runReview, summaryLine, type ReviewOptions } from "./plan";
export { formatReview, REVIEW_FORMATS, type ReviewFormat } from "./format";
export type { ReviewAction, ReviewChange, ReviewReport } from "./report";
