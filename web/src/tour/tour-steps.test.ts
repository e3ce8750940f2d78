import { describe, expect, it } from 'vitest';
import {
  registeredState,
  stepNumber,
  stepTextKey,
  stepToShow,
  type TourSituation,
  type TourStep,
  type TourStepId,
  tourScreenOf,
  tourSteps,
} from './tour-steps.ts';

const situation = (overrides: Partial<TourSituation>): TourSituation => ({
  progress: 'unseen',
  screen: 'dashboard',
  siteCount: 0,
  present: new Set<TourStepId>(),
  monitoringStopped: false,
  ...overrides,
});

describe('guided tour steps', () => {
  it('offers itself on the dashboard only to a user with no site who has not skipped or finished it', () => {
    expect(stepToShow(situation({}))?.id).toBe('register');
    expect(stepToShow(situation({ progress: 'started' }))?.id).toBe('register');
    expect(stepToShow(situation({ siteCount: 1 }))).toBeUndefined();
    expect(stepToShow(situation({ siteCount: undefined }))).toBeUndefined();
    expect(stepToShow(situation({ progress: 'dismissed' }))).toBeUndefined();
    expect(stepToShow(situation({ progress: 'done' }))).toBeUndefined();
  });

  it('does not urge registering a site, nor go on, while the account’s monitoring is stopped', () => {
    expect(stepToShow(situation({ monitoringStopped: true }))).toBeUndefined();
    expect(
      stepToShow(
        situation({
          screen: 'wizard',
          progress: 'started',
          present: new Set<TourStepId>(['url']),
          monitoringStopped: true,
        }),
      ),
    ).toBeUndefined();
  });

  it('follows the wizard once begun, at the furthest step whose part is on the page', () => {
    const wizard = (present: TourStepId[], progress: TourSituation['progress'] = 'started') =>
      stepToShow(situation({ screen: 'wizard', siteCount: undefined, progress, present: new Set(present) }))
        ?.id;
    expect(wizard(['url'])).toBe('url');
    expect(wizard(['beforeAreas'])).toBe('beforeAreas');
    expect(wizard(['url', 'area'])).toBe('area');
    expect(wizard(['area', 'notify'])).toBe('notify');
    expect(wizard([])).toBeUndefined();
    expect(wizard(['url'], 'unseen')).toBeUndefined();
    expect(wizard(['url'], 'dismissed')).toBeUndefined();
  });

  it('ends on the detail page of the site just registered', () => {
    const present = new Set<TourStepId>(['registered']);
    expect(stepToShow(situation({ screen: 'detail', progress: 'started', present }))?.id).toBe('registered');
    expect(stepToShow(situation({ screen: 'detail', progress: 'unseen', present }))).toBeUndefined();
  });

  it('knows its screens by route and counts its steps from one', () => {
    expect(['/', '/sr2c', '/sr2m', '/target2', '/account'].map(tourScreenOf)).toEqual([
      'dashboard',
      'wizard',
      'wizard',
      'detail',
      undefined,
    ]);
    const first = stepToShow(situation({}));
    expect(first && stepNumber(first)).toBe(1);
  });

  it('says of the registered site whether it monitors, and why not', () => {
    expect(registeredState({ valid: true, resumable: false }, false)).toBe('monitoring');
    expect(registeredState({ valid: false, resumable: false }, false)).toBe('pausedNoSlot');
    expect(registeredState({ valid: false, resumable: true }, false)).toBe('pausedResumable');
    expect(registeredState({ valid: false, resumable: false }, true)).toBe('pausedHeld');
  });

  it('warns before registering on a full plan, and speaks of the new site only once its state is known', () => {
    const step = (id: TourStepId) => tourSteps.find((entry) => entry.id === id) as TourStep;
    expect(stepTextKey(step('notify'), undefined, false)).toBe('tour.steps.notify');
    expect(stepTextKey(step('notify'), undefined, true)).toBe('tour.notifyNoRoom');
    expect(stepTextKey(step('registered'), undefined, false)).toBeUndefined();
    expect(stepTextKey(step('registered'), 'pausedNoSlot', true)).toBe('tour.registered.pausedNoSlot');
    expect(stepTextKey(step('url'), undefined, true)).toBe('tour.steps.url');
  });
});
