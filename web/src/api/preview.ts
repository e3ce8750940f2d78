import type { UserAgentKind } from '@mimamori/watch-engine/user-agent-kinds';
import { apiRequest } from './client.ts';

/** A rectangle in CSS pixels of the rendered document (or of the frame rendered). */
export type Box = { x: number; y: number; width: number; height: number };

export type SelectorType = 'css' | 'xpath';

/** Where an element is: a selector or an XPath, optionally inside an iframe. */
export type Locator = {
  selector: string;
  selector_type: SelectorType;
  frame_selector: string;
  frame_selector_type: SelectorType | '';
};

export type ActionType = 'click' | 'enter_text' | 'modifier_key' | 'goto_url';

export type PageAction = {
  type: ActionType;
  /** Absent for goto_url and modifier_key. */
  locator?: Locator;
  value: string;
  skippable: boolean;
};

export type PreviewElement = { tag: string; box: Box; css: string; xpath: string; text: string };
export type PreviewFrame = { css: string; xpath: string; src: string; name: string; box: Box };
export type FrameRef = { selector: string; selector_type: SelectorType };

/** The crawler's picture of the page: a screenshot and the element map in the same coordinates. */
export type PreviewRender = {
  url: string;
  /** A data URL. */
  screenshot: string;
  image_width: number;
  image_height: number;
  /** Image pixels per CSS pixel of the boxes. */
  scale: number;
  frame: FrameRef | null;
  frames: PreviewFrame[];
  elements: PreviewElement[];
};

/** Why the page or a step did not work: a crawl error code (unreachable, timeout, http_status, …). */
export type PreviewProblem = { code: string; detail: string };

export type { UserAgentKind };
export type UserAgent = { kind: UserAgentKind; value: string };

/** `cookies`: a Cookie header value the site needs (never logged). */
/** A screen size in CSS pixels; without one the user agent's own is used. */
export type Viewport = { width: number; height: number };

export type OpenPreviewInput = { url: string; user_agent: UserAgent; cookies?: string; viewport?: Viewport };
export type OpenedPreview = { session_id: string; render: PreviewRender } | { problem: PreviewProblem };
export type RenderedPreview = { render: PreviewRender } | { problem: PreviewProblem };
export type AreaReading = {
  found: boolean;
  text: string;
  html: string;
  http_suffices: boolean;
  /** With options: the content as checks will compare it. */
  normalised_text?: string;
  /** With options the watch engine refuses: the first one. */
  options_problem?: { path: string; code: string };
  problem?: PreviewProblem;
};
export type StepOutcome = { ok: boolean; problem?: PreviewProblem; render?: PreviewRender | null };
export type LoginVerify = { kind: 'cookie' | 'replay'; cookie_name: string };

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

export const closePreview = (sessionId: string) =>
  post<{ status: string }>('close', { session_id: sessionId });
