import type {
  AreaReading,
  DocumentReading,
  FrameRef,
  Locator,
  LoginVerify,
  OpenedPreview,
  OpenPreviewInput,
  PageAction,
  ReadDocumentInput,
  RenderedPreview,
  StepOutcome,
} from '@mimamori/http-api';
import { apiRequest } from './client.ts';

/** The wizard preview's shapes, as the gateway defines them. */
export type {
  ActionType,
  AreaReading,
  Box,
  DocumentReading,
  FrameRef,
  Locator,
  LoginVerify,
  PageAction,
  PreviewElement,
  PreviewFrame,
  PreviewProblem,
  PreviewRender,
  ReadDocumentInput,
  RenderedPreview,
  SelectorType,
  StepOutcome,
  UserAgent,
  UserAgentKind,
  Viewport,
} from '@mimamori/http-api';

const post = <T>(name: string, body: unknown) =>
  apiRequest<T>(`/api/preview/${name}`, { method: 'POST', body });

/** Opens the URL in the crawler's browser (up to ~30 s load + ~30 s settling, 3 tries). */
export const openPreview = (input: OpenPreviewInput) => post<OpenedPreview>('open', input);

/** Renders the session's page again, inside `frame` when given. */
export const renderPreview = (sessionId: string, frame: FrameRef | null) =>
  post<RenderedPreview>('render', { session_id: sessionId, ...(frame ? { frame } : {}) });

/** Reads a candidate area; with `options` the answer also holds its normalised text. */
export const evaluateArea = (sessionId: string, area: Locator, options?: unknown, signal?: AbortSignal) =>
  apiRequest<AreaReading>('/api/preview/area', {
    method: 'POST',
    body: { session_id: sessionId, area, ...(options ? { options } : {}) },
    ...(signal ? { signal } : {}),
  });

export const testLogin = (sessionId: string, actions: PageAction[], verify: LoginVerify) =>
  post<StepOutcome>('login', { session_id: sessionId, actions, verify });

export const runActions = (sessionId: string, actions: PageAction[]) =>
  post<StepOutcome>('actions', { session_id: sessionId, actions });

/**
 * Reads the URL over plain HTTP: whether it serves a page, a PDF, JSON or XML, its text, and
 * (with a content_kind) what candidate areas read (docs/product.md#documents-and-data).
 */
export const readDocument = (input: ReadDocumentInput, signal?: AbortSignal) =>
  apiRequest<DocumentReading>('/api/preview/document', {
    method: 'POST',
    body: input,
    ...(signal ? { signal } : {}),
  });

export const closePreview = (sessionId: string) =>
  post<{ status: 'closed' }>('close', { session_id: sessionId });
