import type { TourProgress } from './tour-steps.ts';

const STORAGE_KEY = 'mimamori.tour';
const KNOWN: readonly TourProgress[] = ['unseen', 'started', 'dismissed', 'done'];

/**
 * Kept in localStorage: a skipped or finished tour does not come back in this browser. (No user
 * setting holds it; a person on a second browser sees the tour again, until they skip it there.)
 */
export function readTourProgress(): TourProgress {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return KNOWN.find((progress) => progress === stored) ?? 'unseen';
  } catch {
    return 'unseen';
  }
}

export function saveTourProgress(progress: TourProgress): void {
  try {
    localStorage.setItem(STORAGE_KEY, progress);
  } catch {
    // Storage can be disabled; the tour then lasts for this page only.
  }
}
