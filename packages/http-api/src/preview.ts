import { CONTENT_KINDS } from '@mimamori/watch-engine/document-areas';
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
  document: z.object({
    url: z.string().min(1).max(4_000),
    user_agent: z
      .object({ kind: userAgentKind, value: z.string().max(500).default('') })
      .default({ kind: 'none', value: '' }),
    cookies: z.string().max(8_000).default('').describe('Cookie header value for the site. Never logged.'),
    use_proxy: z.boolean().default(false),
    content_kind: z
      .enum(['pdf', 'json', 'xml'])
      .optional()
      .describe('Read as this kind; absent: detect what the URL serves (a page is only detected).'),
    areas: z
      .array(
        z.object({
          selector: z.string().min(1).max(2_000),
          selector_type: z.enum(['pages', 'text', 'jsonpath', 'xpath']),
          options: z
            .record(z.string(), z.unknown())
            .optional()
            .describe('The area options as the wizard edits them; the answer then has normalised_text.'),
        }),
      )
      .max(20)
      .default([])
      .describe('Candidate areas of the document, read when content_kind is given.'),
  }),
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

const contentKind = z.enum(CONTENT_KINDS);

/** docs/product.md#documents-and-data: what a URL serves, its text, and what candidate areas read. */
export const documentReading = z
  .union([
    z.object({
      detected_kind: contentKind.describe('By its content type and first bytes.'),
      content_kind: contentKind.describe("The kind it was read as; 'page' when not read as a document."),
      final_url: z.string(),
      lines: z.array(z.string()).describe("The start of the document's text, a line each."),
      more_lines: z.boolean(),
      areas: z.array(
        z.object({
          found: z.boolean(),
          text: z.string().describe('The lines the area reads, joined by newlines.'),
          problem: z.string().describe('selector_invalid when the expression cannot be read; else empty.'),
          normalised_text: z
            .string()
            .optional()
            .describe('With options: the content as checks will compare it (lines joined by newlines).'),
          options_problem: z
            .object({ path: z.string(), code: z.string() })
            .optional()
            .describe('With options the watch engine refuses: the first one.'),
        }),
      ),
    }),
    z.object({ problem: previewProblem }),
  ])
  .describe('What the URL serves, or why it could not be read');
export type DocumentReading = z.infer<typeof documentReading>;
export type ReadDocumentInput = z.input<(typeof previewBodies)['document']>;

export const previewAnswers = {
  open: openedPreview,
  render: renderedPreview,
  area: areaReading,
  login: stepOutcome,
  actions: stepOutcome,
  close: statusAnswer('closed'),
  document: documentReading,
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
