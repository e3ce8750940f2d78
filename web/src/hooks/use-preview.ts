import { useMutation } from '@tanstack/react-query';
import {
  closePreview,
  evaluateArea,
  type FrameRef,
  type Locator,
  type LoginVerify,
  openPreview,
  type PageAction,
  renderPreview,
  runActions,
  testLogin,
} from '../api/preview.ts';

/** Preview calls change the page in the crawler's browser, so each is a mutation, never cached. */
export const useOpenPreview = () => useMutation({ mutationFn: openPreview });

export const useRenderPreview = () =>
  useMutation({
    mutationFn: ({ sessionId, frame }: { sessionId: string; frame: FrameRef | null }) =>
      renderPreview(sessionId, frame),
  });

export const useEvaluateArea = () =>
  useMutation({
    mutationFn: ({ sessionId, area }: { sessionId: string; area: Locator }) => evaluateArea(sessionId, area),
  });

export const useTestLogin = () =>
  useMutation({
    mutationFn: ({
      sessionId,
      actions,
      verify,
    }: {
      sessionId: string;
      actions: PageAction[];
      verify: LoginVerify;
    }) => testLogin(sessionId, actions, verify),
  });

export const useRunActions = () =>
  useMutation({
    mutationFn: ({ sessionId, actions }: { sessionId: string; actions: PageAction[] }) =>
      runActions(sessionId, actions),
  });

/** Closing is best effort: an expired session is closed already. */
export const closePreviewQuietly = (sessionId: string) => closePreview(sessionId).catch(() => undefined);
