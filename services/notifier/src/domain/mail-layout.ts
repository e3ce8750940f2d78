import { escapeHtml } from '@mimamori/mail/html-escape';

/** The web app's colours (web/src/styles.css), so a mail looks like the product it comes from. */
export const BRAND = {
  accent: '#0f766e',
  accentStrong: '#115e59',
  accentSoft: '#e6f4f1',
  text: '#1f2933',
  muted: '#616e7c',
  background: '#f4f6f8',
  surface: '#ffffff',
  border: '#d9e2ec',
} as const;

export const FONT =
  "-apple-system,BlinkMacSystemFont,'Segoe UI','Hiragino Sans','Hiragino Kaku Gothic ProN',Meiryo,sans-serif";
export const MONO = "ui-monospace,SFMono-Regular,Menlo,Consolas,'Courier New',monospace";

/**
 * A mail's HTML: tables and inline styles only, which mail programs render alike (most drop
 * <style> and ignore flex or grid). A teal header with the product's name, one white card of at
 * most 600 px, a muted footer. `body` is trusted HTML built by the caller from escaped parts.
 */
export function brandedMail(options: {
  lang: 'ja' | 'en';
  title: string;
  /** The line a mail program shows beside the subject in the list. */
  preheader: string;
  body: string;
  footer: string;
}): string {
  const { lang, title, preheader, body, footer } = options;
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:0;background:${BRAND.background};color:${BRAND.text};font-family:${FONT}">
<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${BRAND.background}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;border-collapse:separate">
<tr><td style="background:${BRAND.accent};border-radius:8px 8px 0 0;padding:16px 24px">
<span style="font-size:20px;font-weight:bold;color:#ffffff;letter-spacing:0.02em">Mimamori</span>
</td></tr>
<tr><td style="background:${BRAND.surface};border:1px solid ${BRAND.border};border-top:0;border-radius:0 0 8px 8px;padding:24px;font-size:15px;line-height:1.6">
${body}
</td></tr>
<tr><td style="padding:16px 24px;font-size:12px;line-height:1.5;color:${BRAND.muted}">${escapeHtml(footer)}</td></tr>
</table>
</td></tr>
</table>
</body></html>`;
}

/** A teal button (a table cell, so Outlook draws its background) with the link written under it. */
export function mailButton(href: string, label: string): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:20px 0 8px"><tr>
<td style="background:${BRAND.accent};border-radius:6px"><a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 20px;color:#ffffff;font-weight:bold;text-decoration:none">${escapeHtml(label)}</a></td>
</tr></table>
<p style="margin:0 0 16px;font-size:12px;color:${BRAND.muted};word-break:break-all">${escapeHtml(href)}</p>`;
}

/** A section heading inside the card. */
export function mailHeading(text: string): string {
  return `<h2 style="margin:24px 0 8px;font-size:16px;color:${BRAND.accentStrong}">${escapeHtml(text)}</h2>`;
}
