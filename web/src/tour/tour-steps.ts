import { routePaths } from '../route-paths.ts';

/** The screens the tour speaks on. */
export type TourScreen = 'dashboard' | 'wizard' | 'detail';

export type TourStepId = 'register' | 'url' | 'beforeAreas' | 'area' | 'notify' | 'registered';

export type TourStep = {
  id: TourStepId;
  screen: TourScreen;
  /** What the step points at: the part its screen marks with `data-tour`. */
  target: string;
};

/** The walk through registering the demo shop, in order. */
export const tourSteps: readonly TourStep[] = [
  { id: 'register', screen: 'dashboard', target: '[data-tour="register-site"]' },
  { id: 'url', screen: 'wizard', target: '[data-tour="site-url"]' },
  // The page display and the optional login and actions steps: passed with Next.
  { id: 'beforeAreas', screen: 'wizard', target: '[data-tour="before-areas"]' },
  // Marked only while areas are being picked: the picture stays on the later steps.
  { id: 'area', screen: 'wizard', target: '[data-tour="area-picker"]' },
  { id: 'notify', screen: 'wizard', target: '[data-tour="notification-settings"]' },
  { id: 'registered', screen: 'detail', target: 'main h1' },
];

export function tourScreenOf(pathname: string): TourScreen | undefined {
  if (pathname === routePaths.dashboard) return 'dashboard';
  if (pathname === routePaths.targetRegistrationColumns || pathname === routePaths.targetRegistrationMobile) {
    return 'wizard';
  }
  if (pathname === routePaths.targetDetail) return 'detail';
  return undefined;
}

/** Where a person stands in the tour, kept in this browser. */
export type TourProgress = 'unseen' | 'started' | 'dismissed' | 'done';

export type TourSituation = {
  progress: TourProgress;
  screen: TourScreen | undefined;
  /** Sites the user has; undefined while the list loads. */
  siteCount: number | undefined;
  /** Steps of this screen whose target is on the page now. */
  present: ReadonlySet<TourStepId>;
  /**
   * The account's monitoring has stopped (on hold, a trial ended without a card, the end): a new
   * site would not be checked, so the tour does not urge registering one.
   */
  monitoringStopped: boolean;
};

/**
 * The step to show, if any: none while the account's monitoring is stopped. The tour offers itself
 * on the dashboard of a user with no site; once
 * begun it follows the wizard, showing the furthest step whose part is on the page (the wizard
 * moves on by itself), and ends on the new site's detail page.
 */
export function stepToShow(situation: TourSituation): TourStep | undefined {
  const { progress, screen, siteCount, present, monitoringStopped } = situation;
  if (progress === 'dismissed' || progress === 'done' || !screen || monitoringStopped) return undefined;
  const onScreen = tourSteps.filter((step) => step.screen === screen);
  if (screen === 'dashboard') return siteCount === 0 ? onScreen[0] : undefined;
  if (progress !== 'started') return undefined;
  return onScreen.filter((step) => present.has(step.id)).at(-1);
}

/** 1-based position of a step, for "step 2 of 5". */
export function stepNumber(step: TourStep): number {
  return tourSteps.indexOf(step) + 1;
}

/** What the last step says of the site just registered, by its state (docs/product.md#screens). */
export type RegisteredState = 'monitoring' | 'pausedNoSlot' | 'pausedResumable' | 'pausedHeld';

/**
 * The state of the site the tour registered: monitoring, or paused with why. A site is saved
 * paused when its interval has no free slot; while the account is on hold nothing monitors.
 */
export function registeredState(
  site: { valid: boolean; resumable: boolean },
  onHold: boolean,
): RegisteredState {
  if (site.valid) return 'monitoring';
  if (onHold) return 'pausedHeld';
  return site.resumable ? 'pausedResumable' : 'pausedNoSlot';
}

/**
 * Where a step's title and body are in the catalogue. The notification step warns when the plan
 * has no free slot left (the site will be saved paused); the last step's words follow the new
 * site's state, and are none until it is known.
 */
export function stepTextKey(step: TourStep, registered: RegisteredState | undefined, planFull: boolean) {
  if (step.id === 'notify' && planFull) return 'tour.notifyNoRoom' as const;
  if (step.id !== 'registered') return `tour.steps.${step.id}` as const;
  return registered && (`tour.registered.${registered}` as const);
}
