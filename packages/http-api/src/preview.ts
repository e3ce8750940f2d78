import { z } from 'zod';
import { csrfFailed, refusal, signedOut, statusAnswer } from './api-error.ts';
import { actionType, loginVerifyKind, selectorType, userAgentKind } from './page-steps.ts';

const selectorTypeBody = selectorType.default('css');
const locatorBody = z.object({
  selector: z.string().min(1).max(2_000),
  selector_type: selectorTypeBody,
  frame_selector: z
    .string()
    .max(2_000)
    .default('')
    .describe('The iframe the element is in; empty for the top document.'),
  frame_selector_type: z.enum(['css', 'xpath', '']).default(''),
});
const actionBody = z.object({
  type: actionType,
  locator: locatorBody.optional(),
  value: z
    .string()
    .max(2_000)
    .default('')
    .describe('Text to type, key to press or URL to go to. Never logged.'),
  skippable: z.boolean().default(false),
});
export type PreviewLocatorBody = z.infer<typeof locatorBody>;
export type PreviewActionBody = z.infer<typeof actionBody>;

const session = { session_id: z.string().min(1).max(100) };

/** The longest URL a site may have (docs/product.md#targets); the wizard says so as it is typed. */
export const URL_MAX_LENGTH = 4_000;

/** The wizard preview's requests, by route (/api/preview/<name>). */
export const previewBodies = {
  open: z.object({
    url: z.string().min(1).max(URL_MAX_LENGTH),
    user_agent: z
      .object({ kind: userAgentKind, value: z.string().max(500).default('') })
      .default({ kind: 'none', value: '' }),
    viewport: z
      .object({ width: z.number().int().min(240).max(3_840), height: z.number().int().min(240).max(4_000) })
      .optional(),
    cookies: z.string().max(8_000).default('').describe('Cookie header value for the site. Never logged.'),
    use_proxy: z.boolean().default(false),
  }),
  render: z.object({
    ...session,
    frame: z.object({ selector: z.string().min(1).max(2_000), selector_type: selectorTypeBody }).optional(),
  }),
  area: z.object({
    ...session,
    area: locatorBody,
    options: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('The area options as the wizard edits them; the answer then has normalised_text.'),
  }),
  login: z.object({
    ...session,
    actions: z.array(actionBody).max(50),
    verify: z.object({ kind: loginVerifyKind, cookie_name: z.string().max(200).default('') }),
  }),
  actions: z.object({ ...session, actions: z.array(actionBody).max(50) }),
  close: z.object(session),
};

/** A rectangle in CSS pixels of the rendered document (or of the frame rendered). */
export const box = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
export type Box = z.infer<typeof box>;

export const previewElement = z.object({
  tag: z.string(),
  box,
  css: z.string(),
  xpath: z.string(),
  text: z.string(),
});
export type PreviewElement = z.infer<typeof previewElement>;
export const previewFrame = z.object({
  css: z.string(),
  xpath: z.string(),
  src: z.string(),
  name: z.string(),
  box,
});
export type PreviewFrame = z.infer<typeof previewFrame>;
export const frameRef = z.object({ selector: z.string(), selector_type: selectorType });
export type FrameRef = z.infer<typeof frameRef>;

/** The crawler's picture of the page: a screenshot and the element map in the same coordinates. */
export const previewRender = z.object({
  url: z.string(),
  title: z.string().describe("The page's <title>, whitespace collapsed; empty when it has none."),
  screenshot: z.string().describe('A data URL: data:image/webp;base64,…'),
  image_width: z.number().int(),
  image_height: z.number().int(),
  scale: z.number().describe('Image pixels per CSS pixel of the boxes.'),
  frame: frameRef.nullable().describe('The frame rendered; null for the top document.'),
  frames: z.array(previewFrame),
  elements: z.array(previewElement),
});
export type PreviewRender = z.infer<typeof previewRender>;

/** Why the page or a step did not work: a crawl error code (unreachable, timeout, http_status, …). */
export const previewProblem = z.object({ code: z.string(), detail: z.string() });
export type PreviewProblem = z.infer<typeof previewProblem>;

export const openedPreview = z
  .union([z.object({ session_id: z.string(), render: previewRender }), z.object({ problem: previewProblem })])
  .describe('The page, or why it could not be opened');
export const renderedPreview = z
  .union([z.object({ render: previewRender }), z.object({ problem: previewProblem })])
  .describe('The page, or why it could not be rendered');
export const areaReading = z
  .object({
    found: z.boolean(),
    text: z.string(),
    html: z.string(),
    http_suffices: z.boolean().describe('HTTP mode reads the same text.'),
    name: z
      .string()
      .describe(
        "A short name from the page (the element's label, the heading of its part); empty when none.",
      ),
    normalised_text: z
      .string()
      .optional()
      .describe('With options: the content as checks will compare it (lines joined by newlines).'),
    options_problem: z
      .object({ path: z.string(), code: z.string() })
      .optional()
      .describe('With options the watch engine refuses: the first one.'),
    problem: previewProblem.optional(),
  })
  .describe('What the area reads');
export type AreaReading = z.infer<typeof areaReading>;
export const stepOutcome = z
  .object({
    ok: z.boolean(),
    problem: previewProblem.optional(),
    render: previewRender.optional(),
  })
  .describe('Whether the steps worked, and the page after them');
export type StepOutcome = z.infer<typeof stepOutcome>;

export const previewAnswers = {
  open: openedPreview,
  render: renderedPreview,
  area: areaReading,
  login: stepOutcome,
  actions: stepOutcome,
  close: statusAnswer('closed'),
};

/** What the wizard sends to open a page: `cookies` is a Cookie header value the site needs (never logged). */
export type OpenPreviewInput = z.input<(typeof previewBodies)['open']>;
export type OpenedPreview = z.infer<typeof openedPreview>;
export type RenderedPreview = z.infer<typeof renderedPreview>;

export const previewRefusals = {
  400: refusal('Bad request body or value', ['bad_request', 'invalid_url', 'invalid_selector_type']),
  401: signedOut,
  403: csrfFailed,
  404: refusal('No such preview session for this user', ['preview_not_found']),
  429: refusal('Too many preview sessions at once', ['too_many_previews', 'preview_busy']),
};
