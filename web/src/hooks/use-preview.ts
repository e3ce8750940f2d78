import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  type AreaReading,
  closePreview,
  evaluateArea,
  type FrameRef,
  type Locator,
  type LoginVerify,
  openPreview,
  type PageAction,
  type ReadDocumentInput,
  readDocument,
  renderPreview,
  runActions,
  testLogin,
} from '../api/preview.ts';
import type { AreaOptions } from '../api/target-settings.ts';
import { queryKeys } from '../query-keys.ts';

/** Preview calls change the page in the crawler's browser, so each is a mutation, never cached. */
export const useOpenPreview = () => useMutation({ mutationFn: openPreview });

/** Asks what the URL serves before the wizard opens it in the browser. */
export const useDetectDocument = () =>
  useMutation({ mutationFn: (input: ReadDocumentInput) => readDocument(input) });

export const useRenderPreview = () =>
  useMutation({
    mutationFn: ({ sessionId, frame }: { sessionId: string; frame: FrameRef | null }) =>
      renderPreview(sessionId, frame),
  });

export const useEvaluateArea = () =>
  useMutation({
    mutationFn: ({ sessionId, area }: { sessionId: string; area: Locator }) => evaluateArea(sessionId, area),
  });

/** Typing in the option fields asks the preview again only once the typing pauses. */
const OPTIONS_SETTLE_MS = 400;

/**
 * An area's content as checks will compare it under `options`, read from the live page; idle
 * without a preview session. While new options are read, the previous answer stays shown.
 */
export function useNormalisedArea(sessionId: string | null, area: Locator, options: AreaOptions) {
  const [settled, setSettled] = useState(options);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(options), OPTIONS_SETTLE_MS);
    return () => window.clearTimeout(timer);
  }, [options]);
  return useQuery<AreaReading>({
    queryKey: queryKeys.previewArea(sessionId ?? '', area, settled),
    queryFn: ({ signal }) => evaluateArea(sessionId ?? '', area, settled, signal),
    enabled: sessionId !== null,
    placeholderData: keepPreviousData,
    // The page in the preview does not change under the wizard; the same question has the same answer.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/**
 * A document read as its kind with the wizard's candidate areas: the preview of what each will
 * watch, asked again once typing pauses; idle while `input` is null.
 */
export function useDocumentAreas(input: ReadDocumentInput | null) {
  const [settled, setSettled] = useState(input);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(input), OPTIONS_SETTLE_MS);
    return () => window.clearTimeout(timer);
  }, [input]);
  return useQuery({
    queryKey: queryKeys.documentAreas(settled ?? {}),
    // The document does not change under the wizard; the same question has the same answer.
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: ({ signal }) => readDocument(settled as ReadDocumentInput, signal),
    enabled: settled !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

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
