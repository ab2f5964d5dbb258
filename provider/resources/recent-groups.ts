/**
 * Group-only state: the groups this process created moments ago, whose children's creates may
 * meet PERMISSION_DENIED until the platform's permissions spread.
 */
import { isSelfOrAncestor } from "../../api/uid";

/**
 * Groups created by this process and when: a child created under one of them soon after may be
 * refused (PERMISSION_DENIED) until the platform's permissions catch up, so such creates retry 403.
 */
const recentGroups = new Map<string, number>();
/** How long after a group's creation its children's creates retry PERMISSION_DENIED. */
export const PROPAGATION_WINDOW_MS = 60_000;

/** Records a group this process just created. */
export function noteGroupCreated(uid: string): void {
  recentGroups.set(uid, Date.now());
}

/** True when `parentUid` is, or lies under, a group this process created moments ago. */
export function propagating(parentUid: string): boolean {
  const now = Date.now();
  for (const [uid, t] of recentGroups) {
    if (now - t > PROPAGATION_WINDOW_MS) recentGroups.delete(uid);
    else if (isSelfOrAncestor(uid, parentUid)) return true;
  }
  return false;
}
