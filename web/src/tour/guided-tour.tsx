import { fastestSlotWithRoom } from '@mimamori/plans';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { monitoringStopped } from '../billing/subscription-state.ts';
import { useSubscriptionState } from '../billing/use-subscription-state.ts';
import { useNarrowWindow } from '../hooks/use-narrow-window.ts';
import { useTargetList } from '../hooks/use-targets.ts';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { routePaths } from '../route-paths.ts';
import { fillDemoShopAddress } from './demo-shop-address.ts';
import { readTourProgress, saveTourProgress } from './tour-progress.ts';
import {
  registeredState,
  stepNumber,
  stepTextKey,
  stepToShow,
  type TourProgress,
  tourScreenOf,
  tourSteps,
} from './tour-steps.ts';
import { usePresentSteps, useTargetBox } from './use-tour-targets.ts';
import './guided-tour.css';

/**
 * The guided tour for a first-time user: registering the demo shop, from the dashboard through
 * the wizard to the new site's page. It speaks from a panel at the top of the screen, in the
 * page's reading and tab order and never over the screen's own controls, and rings the part
 * it talks about. Skipping or finishing it is remembered. Its last step says whether the new site
 * monitors, and when it was saved paused, why and what to do (docs/product.md#screens).
 */
export function GuidedTour() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const narrow = useNarrowWindow();
  const screen = tourScreenOf(pathname);
  const [progress, setProgress] = useState<TourProgress>(readTourProgress);
  const active = screen !== undefined && progress !== 'dismissed' && progress !== 'done';
  const onScreen = useScreenSteps(active ? screen : undefined);
  const present = usePresentSteps(onScreen);
  // The dashboard's own list query, so no second request there; on the detail page it tells the
  // new site's state.
  const targetList = useTargetList({ enabled: active && (screen === 'dashboard' || screen === 'detail') });
  const userInfo = useUserInfo().data;
  const stopped = monitoringStopped(useSubscriptionState());
  const onHold = userInfo?.subscription?.status === 7;
  const planFull =
    userInfo !== undefined && fastestSlotWithRoom(userInfo.num, userInfo.used_num) === undefined;
  const detailId = screen === 'detail' ? new URLSearchParams(search).get('id') : null;
  const registered = targetList.data?.targets.find((row) => row.id === detailId);
  const shown = stepToShow({
    progress,
    screen,
    siteCount: targetList.data?.targets.length,
    present,
    monitoringStopped: stopped,
  });
  const textKey = shown && stepTextKey(shown, registered && registeredState(registered, onHold), planFull);
  // Nothing is said of the new site until its state is known.
  const step = textKey ? shown : undefined;
  const box = useTargetBox(step?.target);
  const filled = useRef(false);

  const move = (next: TourProgress) => {
    saveTourProgress(next);
    setProgress(next);
  };

  // Reaching the wizard by the dashboard's own button carries on the tour just as Start does.
  const offered = step?.id === 'register' && progress === 'unseen';
  useEffect(() => {
    if (offered) {
      saveTourProgress('started');
      setProgress('started');
    }
  }, [offered]);

  useEffect(() => {
    if (step?.id !== 'url' || filled.current) return;
    const field = document.querySelector(step.target);
    if (!field) return;
    filled.current = true;
    fillDemoShopAddress(field);
  }, [step]);

  if (!step || !textKey) return null;
  const registerPath = narrow ? routePaths.targetRegistrationMobile : routePaths.targetRegistrationColumns;
  const titleId = 'guided-tour-title';
  return (
    <section
      className="guided-tour"
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') move('dismissed');
      }}
    >
      <div className="guided-tour-text" aria-live="polite">
        <p className="guided-tour-count">
          {t('tour.label')} · {t('tour.stepOf', { step: stepNumber(step), count: tourSteps.length })}
        </p>
        <h2 id={titleId} className="guided-tour-title">
          {t(`${textKey}.title`)}
        </h2>
        <p className="guided-tour-body">{t(`${textKey}.body`)}</p>
      </div>
      <div className="guided-tour-actions">
        {step.id === 'register' && (
          <Link to={registerPath} className="button primary">
            {t('tour.start')}
          </Link>
        )}
        {step.id === 'registered' && (
          <button type="button" className="button primary" onClick={() => move('done')}>
            {t('tour.finish')}
          </button>
        )}
        <button type="button" className="button" onClick={() => move('dismissed')}>
          {t('tour.skip')}
        </button>
      </div>
      {box &&
        createPortal(
          <div className="guided-tour-ring" aria-hidden="true" style={ringAround(box)} />,
          document.body,
        )}
    </section>
  );
}

/** The steps of one screen, as one stable list so the page is watched for them alone. */
function useScreenSteps(screen: ReturnType<typeof tourScreenOf>) {
  const [byScreen] = useState(
    () =>
      new Map(
        ['dashboard', 'wizard', 'detail'].map((name) => [name, tourSteps.filter((s) => s.screen === name)]),
      ),
  );
  return (screen && byScreen.get(screen)) || NO_STEPS;
}

const NO_STEPS: readonly never[] = [];

/** Room between the part and its ring, so the ring does not touch the part's text. */
const RING_GAP = 6;

/** The ring's place: the part's box grown by the gap, kept inside the window's width. */
function ringAround(box: { top: number; left: number; width: number; height: number }) {
  const left = Math.max(0, box.left - RING_GAP);
  const right = Math.min(document.documentElement.clientWidth, box.left + box.width + RING_GAP);
  return {
    top: box.top - RING_GAP,
    left,
    width: Math.max(0, right - left),
    height: box.height + 2 * RING_GAP,
  };
}
